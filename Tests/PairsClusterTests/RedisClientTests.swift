#if Cluster
import Foundation
import PairsCluster
import PairsTestSupport
import Testing

@Suite("The Redis client, against a real redis-server", Tools.needs("redis-server"), .ownThread)
struct RedisClientTests {
    @Test("sends and receives any bytes: every byte value, CR LF, NUL and the empty string")
    func argumentsAndRepliesAreBinarySafe() throws {
        let redis = try RedisServer()
        let client = redis.client()
        let everyByte = (0...255).map { UInt8($0) }
        let key = Array("\r\n*3\r\n$3\r\nDEL\r\n\0key".utf8) + everyByte
        #expect(try client.command("SET", key, everyByte) == .status("OK"))
        #expect(try client.command("GET", key) == .bulk(everyByte))
        try client.command("SET", "empty", [UInt8]())
        #expect(try client.command("GET", "empty") == .bulk([]))
        #expect(try client.command("DBSIZE") == .integer(2))
    }

    @Test("gives each kind of reply its own type: status, integer, bulk, null, array, nested error")
    func repliesAreTyped() throws {
        let redis = try RedisServer()
        let client = redis.client()
        #expect(try client.command("PING") == .status("PONG"))
        #expect(try client.command("INCRBY", "counter", 41) == .integer(41))
        #expect(try client.command("GET", "counter") == .bulk(Array("41".utf8)))
        #expect(try client.command("GET", "nothing") == .null)
        try client.command("RPUSH", "list", "a", "b")
        #expect(try client.command("LRANGE", "list", 0, -1) == .array([.bulk([97]), .bulk([98])]))
        // A transaction's replies hold an error reply beside the others, as a value.
        try client.command("MULTI")
        try client.command("INCR", "counter")
        try client.command("INCR", "list")
        let replies = try client.command("EXEC")
        guard case .array(let elements) = replies, elements.count == 2, case .error(let message) = elements[1] else {
            Issue.record("EXEC answered \(replies)")
            return
        }
        #expect(elements[0] == .integer(42))
        #expect(message.hasPrefix("WRONGTYPE"))
    }

    @Test("throws an error reply as a typed server error, and the connection stays usable")
    func errorRepliesAreTyped() throws {
        let redis = try RedisServer()
        let client = redis.client()
        try client.command("RPUSH", "list", "a")
        let error = #expect(throws: RedisError.self) { try client.command("GET", "list") }
        guard case .server(let message)? = error else {
            Issue.record("GET of a list threw \(String(describing: error))")
            return
        }
        #expect(message.hasPrefix("WRONGTYPE"))
        #expect(throws: RedisError.self) { try client.command("NO-SUCH-COMMAND", "x") }
        #expect(try client.command("PING") == .status("PONG"))
        #expect(client.isConnected)
    }

    @Test("reports a port nobody listens on as unreachable, at once")
    func refusedConnectionIsTyped() throws {
        let redis = try RedisServer()
        let port = redis.port
        try redis.stop()
        let client = RedisClient(endpoint: RedisEndpoint(host: "127.0.0.1", port: port))
        let error = #expect(throws: RedisError.self) { try client.connect() }
        guard case .unreachable? = error else {
            Issue.record("connecting to a closed port threw \(String(describing: error))")
            return
        }
        #expect(error?.isUnavailable == true)
        #expect(!client.isConnected)
    }

    @Test("reports a peer that answers garbage as an unexpected reply, and drops that connection")
    func garbageRepliesAreTyped() throws {
        let redis = try RedisServer()
        // Every line Redis sends becomes one no Redis would send.
        let proxy = try TCPProxy(serverPort: redis.port) { { _ in Array("HTTP/1.1 400 Bad Request\r\n".utf8) } }
        defer { proxy.close() }
        let client = RedisClient(endpoint: RedisEndpoint(host: "127.0.0.1", port: proxy.port))
        let error = #expect(throws: RedisError.self) { try client.command("PING") }
        guard case .unexpectedReply? = error else {
            Issue.record("a garbage reply threw \(String(describing: error))")
            return
        }
        #expect(!client.isConnected)
    }

    @Test("reports a peer that accepts but never answers as a lost connection after the command timeout, not a hang")
    func silentPeerTimesOut() throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let client = RedisClient(endpoint: RedisEndpoint(host: "127.0.0.1", port: silent.port), commandTimeout: .milliseconds(200))
        let error = #expect(throws: RedisError.self) { try client.command("PING") }
        guard case .connectionLost(let detail)? = error else {
            Issue.record("a silent peer threw \(String(describing: error))")
            return
        }
        #expect(detail.contains("no reply within"), "\(detail)")
        #expect(!client.isConnected)
    }

    @Test("while Redis is down says so with a typed error, and reconnects once it is back")
    func reconnectsAfterRedisRestarts() throws {
        let redis = try RedisServer()
        let client = redis.client()
        #expect(try client.command("SET", "before", "1") == .status("OK"))
        try redis.stop()
        for _ in 0..<3 {
            let error = #expect(throws: RedisError.self) { try client.command("PING", isIdempotent: true) }
            #expect(error?.isUnavailable == true, "\(String(describing: error))")
        }
        try redis.start()
        #expect(try client.command("PING") == .status("PONG"))
        // The restarted Redis kept nothing (no persistence): it is a new one.
        #expect(try client.command("GET", "before") == .null)
    }

    @Test("after a restart while idle resends an idempotent command, and reports a lost connection for others")
    func staleConnectionAfterRestart() throws {
        let redis = try RedisServer()
        let idempotent = redis.client(), other = redis.client()
        try idempotent.connect()
        try other.connect()
        try redis.stop()
        try redis.start()
        #expect(try idempotent.command("SET", "key", "1", isIdempotent: true) == .status("OK"))
        // Whether INCR ran is unknown when its connection breaks, so it is not sent again behind the caller's back.
        let error = #expect(throws: RedisError.self) { try other.command("INCR", "counter") }
        guard case .connectionLost? = error else {
            Issue.record("INCR on a connection the old Redis closed threw \(String(describing: error))")
            return
        }
        #expect(try other.command("INCR", "counter") == .integer(1))
    }
}

/// Reading `--cluster` URLs needs no Redis.
@Suite("Redis endpoints")
struct RedisEndpointTests {
    @Test("reads redis:// URLs, and refuses what it would have to ignore")
    func endpointURLs() throws {
        #expect(try RedisEndpoint(url: "redis://10.0.0.5:6380") == RedisEndpoint(host: "10.0.0.5", port: 6380))
        #expect(try RedisEndpoint(url: "redis://cache") == RedisEndpoint(host: "cache", port: 6379))
        #expect(try RedisEndpoint(url: "redis://[::1]:7000") == RedisEndpoint(host: "::1", port: 7000))
        #expect(RedisEndpoint(host: "::1", port: 7000).description == "redis://[::1]:7000")
        for bad in ["http://cache:6379", "redis://", "redis://:6379", "redis://cache:0", "redis://cache:70000",
                    "redis://cache:x", "redis://user:pw@cache:6379", "redis://cache:6379/2", "redis://::1:6379"] {
            #expect(throws: RedisEndpointError.self, "\(bad)") { try RedisEndpoint(url: bad) }
        }
    }
}
#endif
