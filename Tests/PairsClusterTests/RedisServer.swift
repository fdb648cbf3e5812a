#if Cluster
import Foundation
import PairsCluster
import PairsTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A real `redis-server` for one test: on 127.0.0.1 and a free port, keeping nothing on disk (`--save ''
/// --appendonly no`) in a temporary directory, and killed when the test lets go of it.
final class RedisServer {
    /// Tries for a free port: another process may bind the one found before Redis does.
    private static let portAttempts = 5
    /// How long Redis may take to start or stop: it only bounds a failure, and under ThreadSanitizer on two
    /// busy cores a start takes seconds (as `PostgresServer.startSeconds`).
    private static let startSeconds: TimeInterval = 60

    private let directory: TemporaryDirectory
    let port: Int
    private var process: Subprocess?

    init() throws {
        // hiredis writes with write(2): a write to a connection a stopped Redis closed must not end the tests.
        signal(SIGPIPE, SIG_IGN)
        directory = try TemporaryDirectory()
        var failure: (any Error)?
        for _ in 0..<Self.portAttempts {
            let candidate = try Self.freePort()
            do {
                process = try Self.launch(port: candidate, directory: directory.path)
                port = candidate
                return
            } catch {
                failure = error
            }
        }
        throw failure!
    }

    deinit {
        process?.kill()
    }

    var endpoint: RedisEndpoint { RedisEndpoint(host: "127.0.0.1", port: port) }

    /// A client of this server, with short timeouts: the tests stop Redis and wait for errors.
    func client() -> RedisClient {
        RedisClient(endpoint: endpoint, connectTimeout: .seconds(2), commandTimeout: .seconds(5))
    }

    /// Stops Redis (SIGTERM) and waits for it to exit: its data is gone, as after a crash without persistence.
    func stop() throws {
        guard let process else { return }
        process.terminate()
        _ = try process.blockingWaitForExit(within: Self.startSeconds)
        self.process = nil
    }

    /// Starts Redis again on the same port, empty.
    func start() throws {
        precondition(process == nil, "Redis is running")
        process = try Self.launch(port: port, directory: directory.path)
    }

    /// Runs `redis-server` and waits for it to accept connections; throws if it exits first (port taken).
    private static func launch(port: Int, directory: String) throws -> Subprocess {
        let server = try Subprocess(try Tools.external("redis-server"), [
            "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", directory, "--logfile", "",
        ])
        do {
            try server.blockingWaitForLine(within: startSeconds, "Redis ready") { $0.contains("Ready to accept connections") }
        } catch {
            server.kill()
            throw error
        }
        return server
    }

    /// A port on 127.0.0.1 that nothing listens on at this moment.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketFailed(call: "socket", errno: errno) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let found = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard found else { throw SocketFailed(call: "bind", errno: errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A socket on 127.0.0.1 that listens and never accepts: the kernel completes connections to it, and nothing
/// ever answers them, as with a hung Redis.
final class SilentListener {
    let port: Int
    private let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketFailed(call: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard listening else {
            let failure = SocketFailed(call: "bind/listen", errno: errno)
            Glibc.close(fd)
            throw failure
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        Glibc.close(fd)
    }
}

/// A socket call a test needs failed.
struct SocketFailed: Error {
    var call: String
    var errno: Int32
}
#endif
