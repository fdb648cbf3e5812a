#if Cluster
import CHiredis
#if canImport(Glibc)
import Glibc
#endif

/// A synchronous connection to one Redis, over hiredis (Redis's own C client): binary-safe commands, typed
/// replies and typed errors.
///
/// It blocks its caller for at most a timeout per command, so use it from a queue of its own, never from a
/// rooms' loop; it is not thread-safe (one caller at a time) and so not `Sendable`. It connects on the first
/// command (or `connect()`), and after a lost connection it reconnects on the next command: a command while
/// Redis is down throws `RedisError.unreachable` or `.connectionLost` and never hangs.
///
/// hiredis writes with `write(2)`: the process must ignore SIGPIPE, as `pairs serve` does, or a write to a
/// connection Redis closed would end it.
public final class RedisClient {
    /// How long a connection attempt may take: a Redis on the same network answers in milliseconds, and two
    /// seconds tell a dead host from a slow one without stalling a start or a retry for long.
    public static let defaultConnectTimeout: Duration = .seconds(2)
    /// How long one command may wait for its reply: the registry's commands are single round trips of
    /// microseconds on Redis, so a reply this late means Redis or the path to it is unwell.
    public static let defaultCommandTimeout: Duration = .seconds(2)

    public let endpoint: RedisEndpoint
    private let connectTimeout: Duration
    private let commandTimeout: Duration
    /// The live connection, nil before the first command and after one broke.
    private var context: UnsafeMutablePointer<redisContext>?

    public init(endpoint: RedisEndpoint, connectTimeout: Duration = RedisClient.defaultConnectTimeout,
                commandTimeout: Duration = RedisClient.defaultCommandTimeout) {
        self.endpoint = endpoint
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
    }

    deinit {
        if let context { redisFree(context) }
    }

    /// Whether a connection is open (as far as the client knows: a peer's close is seen on the next command).
    public var isConnected: Bool { context != nil }

    /// Connects now unless connected: for a start that must say at once whether Redis is there.
    public func connect() throws(RedisError) {
        if context == nil { context = try Self.open(endpoint, connectTimeout: connectTimeout, commandTimeout: commandTimeout) }
    }

    /// Closes the connection; the next command opens a new one.
    public func disconnect() {
        if let context { redisFree(context) }
        context = nil
    }

    /// Runs one command, its arguments sent as they are. An error reply is thrown as `.server`.
    ///
    /// `isIdempotent`: running the command twice has the effect of running it once. Such a command found a
    /// connection that broke while idle (Redis restarted since the last command) is sent again once on a
    /// fresh one; any other command throws `.connectionLost`, since whether it took effect is unknown.
    @discardableResult
    public func command(_ arguments: [any RedisArgument], isIdempotent: Bool = false) throws(RedisError) -> RedisReply {
        let wasConnected = context != nil
        do {
            return try send(arguments.map(\.redisBytes))
        } catch .connectionLost where wasConnected && isIdempotent {
            return try send(arguments.map(\.redisBytes))
        }
    }

    /// `command([...])` with the arguments listed.
    @discardableResult
    public func command(_ arguments: any RedisArgument..., isIdempotent: Bool = false) throws(RedisError) -> RedisReply {
        try command(arguments, isIdempotent: isIdempotent)
    }

    /// Sends one command on the connection (opening one if needed) and reads its reply; drops a connection
    /// that failed, so that the next command reconnects.
    private func send(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        try connect()
        guard let context else { throw .unreachable("no connection") }
        // One buffer holds every argument back to back, so each has a stable address while hiredis copies it.
        var joined: [UInt8] = []
        joined.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        for argument in arguments { joined += argument }
        joined.append(0)
        let lengths = arguments.map(\.count)
        let raw: UnsafeMutableRawPointer? = joined.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var offset = 0
            var pointers: [UnsafePointer<CChar>?] = []
            pointers.reserveCapacity(lengths.count)
            for length in lengths {
                pointers.append(base + offset)
                offset += length
            }
            errno = 0
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { argvlen in
                    redisCommandArgv(context, Int32(arguments.count), argv.baseAddress, argvlen.baseAddress)
                }
            }
        }
        guard let raw else {
            let failure = Self.failure(of: context, timeout: commandTimeout)
            disconnect()
            throw failure
        }
        let reply = raw.assumingMemoryBound(to: redisReply.self)
        defer { freeReplyObject(raw) }
        if reply.pointee.type == REDIS_REPLY_ERROR { throw .server(Self.text(reply.pointee.str, reply.pointee.len)) }
        return Self.convert(reply)
    }

    /// A connection to `endpoint`, with `commandTimeout` on every read and write.
    private static func open(_ endpoint: RedisEndpoint, connectTimeout: Duration,
                             commandTimeout: Duration) throws(RedisError) -> UnsafeMutablePointer<redisContext> {
        guard let context = redisConnectWithTimeout(endpoint.host, Int32(endpoint.port), timeval(connectTimeout)) else {
            throw .unreachable("\(endpoint): out of memory")
        }
        if context.pointee.err != 0 {
            let detail = errorText(of: context)
            redisFree(context)
            throw .unreachable("\(endpoint): \(detail)")
        }
        guard redisSetTimeout(context, timeval(commandTimeout)) == REDIS_OK else {
            let detail = errorText(of: context)
            redisFree(context)
            throw .unreachable("\(endpoint): cannot set the command timeout: \(detail)")
        }
        return context
    }

    /// The typed error for a command hiredis could not complete on `context`.
    private static func failure(of context: UnsafeMutablePointer<redisContext>, timeout: Duration) -> RedisError {
        let code = context.pointee.err
        if code == REDIS_ERR_PROTOCOL { return .unexpectedReply(errorText(of: context)) }
        if code == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK) {
            return .connectionLost("no reply within \(timeout)")
        }
        return .connectionLost(code == 0 ? "no reply" : errorText(of: context))
    }

    private static func errorText(of context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { bytes in
            let text = bytes.prefix { $0 != 0 }
            return String(decoding: text, as: UTF8.self)
        }
    }

    private static func convert(_ reply: UnsafePointer<redisReply>) -> RedisReply {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING:
            return .bulk(value.len == 0 ? [] : Array(UnsafeRawBufferPointer(start: value.str, count: value.len)))
        case REDIS_REPLY_STATUS: return .status(text(value.str, value.len))
        case REDIS_REPLY_ERROR: return .error(text(value.str, value.len))
        case REDIS_REPLY_INTEGER: return .integer(value.integer)
        case REDIS_REPLY_ARRAY:
            return .array((0..<value.elements).map { convert(value.element[$0]!) })
        default: return .null
        }
    }

    private static func text(_ pointer: UnsafeMutablePointer<CChar>?, _ length: Int) -> String {
        guard let pointer, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    private static func timeval(_ duration: Duration) -> Glibc.timeval {
        let (seconds, attoseconds) = duration.components
        return Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }
}
#endif
