import PairsRules

/// A connection as a log line names it: the lobby's name for it, the name it goes by, and where it
/// connects from.
public struct LoggedConnection: Sendable, Hashable {
    public var id: ConnectionID
    public var name: String
    /// The peer's address and port, as the transport gave it.
    public var peer: String

    public init(id: ConnectionID, name: String, peer: String) {
        self.id = id
        self.name = name
        self.peer = peer
    }
}

/// Where a connection was when something happened to it, for the log.
public enum LoggedPlace: Sendable, Hashable {
    /// In no room.
    case lobby
    case seated(room: String, seat: Seat)
    case watching(room: String)
}
