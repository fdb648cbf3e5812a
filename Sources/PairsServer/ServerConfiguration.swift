import PairsLobby
import PairsRules
import PairsWire

/// Everything `pairs serve` can set, with the defaults a LAN server wants.
public struct ServerConfiguration: Sendable {
    /// `0.0.0.0`, so players on the LAN can connect.
    public var host = "0.0.0.0"
    /// 0 lets the kernel pick a free port (tests use this).
    public var port = WireProtocol.defaultPort
    /// At most this many connections at once; nil means what the file-descriptor limit allows.
    public var maxConnections: Int?
    /// Bytes queued for one client before it is dropped as too slow. A full state of the largest board
    /// is under 4 KiB, so this holds some 60 states: far more than any reading client falls behind.
    public var outputBufferLimitBytes = 256 * 1024
    public var logLevel = LogLevel.info
    public var logFormat = LogFormat.text
    public var logDestination = LogDestination.standardError
    /// When per-game lines give way to a summary line, and how often that is written.
    public var logSummary = LogSummaryPolicy()
    /// How long an HTTP client may take to send its request head once its request line has come: far more
    /// than any browser needs, and a bound on how long a client that trickles header lines holds a
    /// descriptor. Answered with 408.
    public var requestHeadMilliseconds = 10_000
    /// How long `welcome` waits for the first bytes of a connection from an address that loaded the client
    /// page lately (`PageVisitors`), in milliseconds: longer than a browser leaves a socket it opened ahead
    /// of need unused (Chromium: 10 s), so such a socket never gets a JSON line where it expects HTTP.
    /// Anything the connection sends first still decides at once.
    public var pageVisitorWelcomeWaitMilliseconds: Int64 = 15_000
    /// Whether `GET /dashboard` serves the live dashboard (`--dashboard off` makes it a 404). It shows
    /// aggregates only, as `/stats` does.
    public var dashboard = true
    /// What the lobby's decisions depend on: room defaults, grace, idle and rate limits.
    public var lobby = LobbyConfiguration()

    public init() {}
}
