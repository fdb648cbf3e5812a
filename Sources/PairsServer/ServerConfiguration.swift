import PairsRules

/// Everything `pairs serve` can set, with the defaults a LAN server wants.
public struct ServerConfiguration: Sendable {
    /// `0.0.0.0`, so players on the LAN can connect.
    public var host = "0.0.0.0"
    /// 0 lets the kernel pick a free port (tests use this).
    public var port = 7777
    /// Options for rooms whose creator does not choose them.
    public var defaultOptions = GameOptions.standard
    /// How long a dropped player keeps the seat.
    public var graceSeconds = 60
    /// Every room deals its boards from this seed when set, so games can be replayed.
    public var seed: UInt64?
    /// At most this many connections at once; nil means what the file-descriptor limit allows.
    public var maxConnections: Int?
    /// Connections in no room are closed after this many seconds without a message.
    public var idleSeconds = 300
    /// Messages per second per connection; 0 turns the limit off (for load tests).
    public var rateLimit = 40
    public var logLevel = LogLevel.info

    /// Bursts of twice the sustained rate are allowed: a bot answering a burst of states should not be
    /// punished for one busy moment.
    public var rateBurst: Int { rateLimit * 2 }

    /// Bytes queued for one client before it is dropped as too slow. A full state of the largest board
    /// is under 4 KiB, so this holds some 60 states: far more than any reading client falls behind.
    public var outputBufferLimitBytes = 256 * 1024

    public init() {}
}

/// How much the server says on stderr.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case debug, info, warning, error

    public init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warning", "warn": self = .warning
        case "error": self = .error
        default: return nil
        }
    }

    public var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
