import PairsLobby

/// A loop's client connections, by the id the lobby knows each by, until its socket is closed or it moves
/// to another loop; with the connections whose write failed and are still to be finished. Ids come from
/// the table the loops share (`SharedConnections`), so a slot is unique across loops.
struct OpenConnections {
    /// The epoll set reports a socket by its id's slot (`Connection.token`).
    private(set) var table = ConnectionTable<Connection>()
    let shared: SharedConnections
    /// This loop's number.
    let loop: Int
    /// Connections whose write failed during the current event, with why: their last input is read once
    /// the event is over, never in the middle of reading another message.
    var failures: [(connection: Connection, cause: DisconnectCause)] = []

    init(shared: SharedConnections, loop: Int) {
        self.shared = shared
        self.loop = loop
    }

    var count: Int { table.count }
    var isEmpty: Bool { table.isEmpty }
    var all: [Connection] { table.elements }

    subscript(id: ConnectionID) -> Connection? { table[id] }

    /// The connection the epoll set reports by `token`, if one holds that slot.
    func reported(by token: UInt64) -> Connection? {
        table.element(inSlot: Int(truncatingIfNeeded: token))
    }

    /// An id for a newcomer: a number never given before, and a slot free on every loop.
    mutating func issue() -> ConnectionID { shared.issue(on: loop) }

    mutating func add(_ connection: Connection) {
        table[connection.id] = connection
    }

    /// Forgets a connection (or an id never added): its slot may go to the next newcomer.
    mutating func remove(_ id: ConnectionID) {
        table[id] = nil
        shared.retire(id)
    }

    /// Forgets a connection that moves to loop `destination`, keeping its id and slot.
    mutating func moveOut(_ connection: Connection, to destination: Int) {
        table[connection.id] = nil
        failures.removeAll { $0.connection === connection }
        shared.moved(connection.id, to: destination)
    }
}
