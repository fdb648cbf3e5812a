import PairsLobby
import PairsWeb
import PairsRules
import PairsWire

/// Everything `pairs serve` can set, with the defaults a LAN server wants. The log's, the web front's and the
/// store's settings each sit in their own group (`log`, `web`, `store`).
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
    /// What the log shows, how, where, and when per-game lines give way to a summary.
    public var log = LogOptions()
    /// How the HTTP and WebSocket front treats browsers: its deadlines, its origins, its dashboard.
    public var web = WebOptions()
    /// How long a client waits for the store, and how password checks are shared out.
    public var store = StoreOptions()
    /// What the lobby's decisions depend on: room defaults, grace, idle and rate limits.
    public var lobby = LobbyConfiguration()
    /// Event loops, each on its own queue with its own connections and rooms (`LoopGroup`); `pairs serve`
    /// runs one per core it may use. One is the server as it was before there were several.
    public var loops = 1
    /// Which loop takes the `n`th connection accepted (from 0) of `loops`: round robin when nil. Tests pin
    /// connections to loops with it, to force the cross-loop cases.
    var dealing: (@Sendable (_ n: Int, _ loops: Int) -> Int)?

    public init() {}

    /// The log's settings (`ServerLog`).
    public struct LogOptions: Sendable {
        public var level = LogLevel.info
        public var format = LogFormat.text
        public var destination = LogDestination.standardError
        /// When per-game lines give way to a summary line, and how often that is written.
        public var summary = LogSummaryPolicy()

        public init() {}
    }

    /// The HTTP and WebSocket front's settings (`WebFront`).
    public struct WebOptions: Sendable {
        /// How long an HTTP client may take to send its request head once its request line has come: far more
        /// than any browser needs, and a bound on how long a client that trickles header lines holds a
        /// descriptor. Answered with 408.
        public var requestHeadMilliseconds = 10_000
        /// How long a connection from an address that loaded the client page lately (`PageVisitors`) may stay
        /// silent, in milliseconds, before it is closed without a byte: such a connection is never greeted
        /// before it speaks (it may be a browser's socket opened ahead of need, which must never read a JSON
        /// line where it expects HTTP), and a closed idle socket is one a browser knows to replace. The lobby's
        /// idle limit for a connection in no room: as long as a silent person in netcat is kept anywhere.
        public var pageVisitorSilenceMilliseconds: Int64 = 300_000
        /// Origins besides the server's own whose pages may open a WebSocket to it (`--allow-origin`), as
        /// browsers send them: `http://host:port`.
        public var allowedOrigins: [String] = []
        /// Whether `GET /dashboard` serves the live dashboard (`--dashboard off` makes it a 404). It shows
        /// aggregates only, as `/stats` does.
        public var dashboard = true

        public init() {}

        /// Adds `origin` to `allowedOrigins`, as browsers spell it; false when it is not an `http://` or
        /// `https://` origin.
        public mutating func allow(origin: String) -> Bool {
            guard WebSocketOrigin.isValid(origin) else { return false }
            allowedOrigins.append(WebSocketOrigin.normalized(origin))
            return true
        }
    }

    /// The store's settings, as clients meet it (`StoreGateway`).
    public struct StoreOptions: Sendable {
        /// How long a client waits for the store (a history query, a claim) before it is told `storage_timeout`:
        /// far longer than any query takes on a working disk, and a bound on how long a stalled one (a full
        /// disk, a frozen file system) leaves a client without an answer.
        public var deadlineMilliseconds: Int64 = 5_000
        /// Threads that hash passwords, and how many checks may wait for them before more are answered `busy`
        /// (see `NameCheckPool`).
        public var nameCheckWorkers = NameCheckPool.defaultWorkers
        public var nameCheckQueueLimit = NameCheckPool.defaultQueueLimit

        public init() {}
    }
}
