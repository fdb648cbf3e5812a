/// Why the transport lost a connection that the lobby did not close: the lobby is told so it can keep a
/// player's seat for the grace period and say in the log what happened.
public enum DisconnectCause: Sendable, Hashable, CustomStringConvertible {
    /// The peer closed the connection: an end of stream, or a WebSocket close frame.
    case closedByPeer
    /// The peer's system aborted the connection (ECONNRESET, or EPIPE on a write): what a program that
    /// exits, or closes its socket, with lines still unread leaves. The server cannot tell that from a
    /// crash, so it is not counted a failure of anything.
    case resetByPeer
    /// Reading failed otherwise (TCP keepalive or retransmission found the peer gone, say), with the
    /// system's words for it.
    case readFailed(String)
    /// Writing failed otherwise, with the system's words for it.
    case writeFailed(String)
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
        case .resetByPeer: "reset by peer"
        case .readFailed(let why): "read failed: \(why)"
        case .writeFailed(let why): "write failed: \(why)"
        case .brokeFraming(let what): "broke the framing: \(what)"
        case .tooSlow: "too_slow"
        case .shutdown: "shutdown"
        }
    }

    /// Whether the connection ended from the client's side, so that after a `leave` it counts as the
    /// client's goodbye (`Departure.quitAfterLeave`); the server's own reasons (a shutdown, a client too
    /// slow or breaking its framing) stay what they are.
    public var endsFromTheClientsSide: Bool {
        switch self {
        case .closedByPeer, .resetByPeer, .readFailed, .writeFailed: true
        case .brokeFraming, .tooSlow, .shutdown: false
        }
    }
}
