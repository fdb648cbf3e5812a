import PairsLobby

/// A loop's client connections, by the id the lobby knows each by, until its socket is closed; with the
/// numbers and slots for newcomers, and the connections whose write failed and are still to be finished.
struct OpenConnections {
    /// The epoll set reports a socket by its id's slot (`Connection.token`).
    private(set) var table = ConnectionTable<Connection>()
    private var ids = ConnectionIDIssuer()
    /// Connections whose write failed during the current event, with why: their last input is read once
    /// the event is over, never in the middle of reading another message.
    var failures: [(connection: Connection, cause: DisconnectCause)] = []

    var count: Int { table.count }
    var isEmpty: Bool { table.isEmpty }
    var all: [Connection] { table.elements }

    subscript(id: ConnectionID) -> Connection? { table[id] }

    /// The connection the epoll set reports by `token`, if one holds that slot.
    func reported(by token: UInt64) -> Connection? {
        table.element(inSlot: Int(truncatingIfNeeded: token))
    }

    /// An id for a newcomer: a number never given before, and a free slot.
    mutating func issue() -> ConnectionID { ids.issue() }

    mutating func add(_ connection: Connection) {
        table[connection.id] = connection
    }

    /// Forgets a connection (or an id never added): its slot may go to the next newcomer.
    mutating func remove(_ id: ConnectionID) {
        table[id] = nil
        ids.retire(id)
    }
}
