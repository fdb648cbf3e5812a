/// Where the server's log goes.
public enum LogDestination: Sendable {
    /// Standard error: the terminal, or whatever runs the server (systemd's journal).
    case standardError
    /// A file, reopened by `Server.reopenLog()` for rotation.
    case file(LogFile)
}
