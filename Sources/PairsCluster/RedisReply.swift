#if Cluster
/// One reply from Redis, typed. An error reply at the top level is thrown as `RedisError.server`; inside an
/// array (a script's or a transaction's) it stays a value, `.error`, beside the others.
public enum RedisReply: Sendable, Hashable {
    /// A bulk string: any bytes, not necessarily UTF-8.
    case bulk([UInt8])
    /// A status line such as `OK` or `PONG`.
    case status(String)
    case integer(Int64)
    case array([RedisReply])
    /// A missing value: GET of no key, a Lua `false`.
    case null
    /// An error reply nested in an array.
    case error(String)

    /// The bulk string as text (bytes that are not UTF-8 are repaired), or a status line; nil otherwise.
    public var text: String? {
        switch self {
        case .bulk(let bytes): String(decoding: bytes, as: UTF8.self)
        case .status(let line): line
        default: nil
        }
    }

    /// The integer, or nil for any other kind of reply.
    public var integer: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The bytes of a bulk string, or nil for any other kind of reply.
    public var bytes: [UInt8]? {
        if case .bulk(let bytes) = self { bytes } else { nil }
    }

    /// The elements of an array, or nil for any other kind of reply.
    public var elements: [RedisReply]? {
        if case .array(let elements) = self { elements } else { nil }
    }
}

/// What went wrong talking to Redis. `unreachable` and `connectionLost` mean Redis is (for now) out of reach:
/// the client reconnects on the next command. The others are answers: Redis is there.
public enum RedisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No connection could be made within the connect timeout: refused, no route, no such host.
    case unreachable(String)
    /// The connection broke during a command, or Redis did not answer within the command timeout. Whether the
    /// command took effect is unknown.
    case connectionLost(String)
    /// Redis answered with an error reply (`ERR ...`, `WRONGTYPE ...`, a failing script).
    case server(String)
    /// What came back was not RESP, or not the reply the command has: the peer is not a Redis, or a bug.
    case unexpectedReply(String)

    /// Whether Redis is out of reach (rather than refusing what it was asked): worth trying again later.
    public var isUnavailable: Bool {
        switch self {
        case .unreachable, .connectionLost: true
        case .server, .unexpectedReply: false
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let detail): "cannot reach Redis: \(detail)"
        case .connectionLost(let detail): "lost the connection to Redis: \(detail)"
        case .server(let message): "Redis refused: \(message)"
        case .unexpectedReply(let detail): "unexpected reply from Redis: \(detail)"
        }
    }
}

/// Something a command can take as an argument: its bytes go to Redis as they are (binary-safe).
public protocol RedisArgument {
    var redisBytes: [UInt8] { get }
}

extension String: RedisArgument {
    public var redisBytes: [UInt8] { Array(utf8) }
}

extension Array: RedisArgument where Element == UInt8 {
    public var redisBytes: [UInt8] { self }
}

extension Int: RedisArgument {
    public var redisBytes: [UInt8] { Array(String(self).utf8) }
}
#endif
