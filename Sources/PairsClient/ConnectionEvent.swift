import PairsWire

/// What a `ClientConnection` reports, in the order it happened on the wire.
public enum ConnectionEvent: Sendable, Hashable {
    /// A message from the server.
    case message(ServerMessage)
    /// A line held something this client does not know (a field, an event kind, a whole message of a new
    /// type) and it was skipped, as protocol.md asks. Reported before the line's message, if it had one.
    case skippedUnknown(UnknownPart)
    /// A line that is not a message this client can read (a newer server, or a broken one). The connection
    /// goes on: one odd line is no reason to drop a game.
    case unreadableLine(ServerMessageError)
    /// A line longer than the protocol allows; it was skipped.
    case lineTooLong
    /// The connection is over; nothing follows. Sent once.
    case closed(ConnectionEnd)
}

/// How a connection ended.
public enum ConnectionEnd: Sendable, Hashable, CustomStringConvertible {
    /// The server closed its side (after a `bye`, or because it went away).
    case endOfStream
    /// Reading or writing failed, for the reason given (a reset, a broken pipe, a timeout).
    case failed(String)
    /// This side closed it.
    case closedLocally

    public var description: String {
        switch self {
        case .endOfStream: "the server closed the connection"
        case .failed(let reason): "the connection failed: \(reason)"
        case .closedLocally: "closed"
        }
    }

    /// What happened in a few words, for a sentence about it: "the server closed the connection",
    /// "Connection reset by peer".
    var reason: String {
        if case .failed(let reason) = self { reason } else { description }
    }
}
