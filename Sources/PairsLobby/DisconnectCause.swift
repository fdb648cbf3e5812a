/// Why the transport lost a connection that the lobby did not close: the lobby is told so it can keep a
/// player's seat for the grace period and say in the log what happened.
public enum DisconnectCause: Sendable, Hashable, CustomStringConvertible {
    /// The peer closed the connection.
    case closedByPeer
    /// Reading failed (a reset, or TCP keepalive found the peer gone), with the system's words for it.
    case readFailed(String)
    /// Writing failed: the peer is gone.
    case writeFailed
    /// The client broke the framing of its connection (a WebSocket protocol error), with what it did. The
    /// lobby does not know the framing; the log says what went wrong.
    case brokeFraming(String)
    /// The client did not read what it was sent, and its output buffer overflowed.
    case tooSlow
    /// The server is shutting down.
    case shutdown

    public var description: String {
        switch self {
        case .closedByPeer: "closed by peer"
        case .readFailed(let why): "read failed: \(why)"
        case .writeFailed: "write failed"
        case .brokeFraming(let what): "broke the framing: \(what)"
        case .tooSlow: "too_slow"
        case .shutdown: "shutdown"
        }
    }
}
