import PairsRules

/// Connections in no room, ordered by their last message, least recent first, linked through the clients.
///
/// Who has been idle longest is always at the front, so the lobby's next idle deadline is the front's
/// last activity plus the idle limit, and closing the idle looks at nothing else.
struct IdleList {
    private(set) var first: Client?
    private var last: Client?

    /// Puts `client` at the back (most recently active), moving it if it is already listed.
    mutating func touch(_ client: Client) {
        if client.isInIdleList {
            guard last !== client else { return }
            remove(client)
        }
        client.idlePrevious = last
        client.idleNext = nil
        last?.idleNext = client
        last = client
        if first == nil { first = client }
        client.isInIdleList = true
    }

    mutating func remove(_ client: Client) {
        guard client.isInIdleList else { return }
        if let previous = client.idlePrevious { previous.idleNext = client.idleNext } else { first = client.idleNext }
        if let next = client.idleNext { next.idlePrevious = client.idlePrevious } else { last = client.idlePrevious }
        client.idlePrevious = nil
        client.idleNext = nil
        client.isInIdleList = false
    }
}
