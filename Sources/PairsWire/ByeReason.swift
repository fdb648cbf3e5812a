/// Why the server is closing a connection; sent in `bye` just before it does.
public enum ByeReason: String, Sendable, Hashable, CaseIterable {
    /// The server is stopping.
    case shutdown
    /// The server is at its connection limit.
    case serverFull = "server_full"
    /// No message for the idle limit while in no room.
    case idle
    /// The client kept sending faster than the rate limit after being told.
    case flooding
    /// The client did not read its messages and its output buffer overflowed.
    case tooSlow = "too_slow"
    /// The client asked to close (`quit`).
    case quit
    /// The seat was resumed from another connection.
    case replaced
}
