import PairsRules

/// Lobby connections ordered by their last message, least recent first, linked through the connections.
///
/// Finding who has been idle too long looks only at the front of the list, so the once-a-second sweep
/// costs nothing per idle connection that is still within its limit. Confined to the server's queue.
struct IdleList {
    private(set) var first: Connection?
    private var last: Connection?

    /// Puts `connection` at the back (most recently active), moving it if it is already listed.
    mutating func touch(_ connection: Connection) {
        if connection.isInIdleList {
            guard last !== connection else { return }
            remove(connection)
        }
        connection.idlePrevious = last
        connection.idleNext = nil
        last?.idleNext = connection
        last = connection
        if first == nil { first = connection }
        connection.isInIdleList = true
    }

    mutating func remove(_ connection: Connection) {
        guard connection.isInIdleList else { return }
        if let previous = connection.idlePrevious { previous.idleNext = connection.idleNext } else { first = connection.idleNext }
        if let next = connection.idleNext { next.idlePrevious = connection.idlePrevious } else { last = connection.idlePrevious }
        connection.idlePrevious = nil
        connection.idleNext = nil
        connection.isInIdleList = false
    }
}
