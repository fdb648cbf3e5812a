#if Cluster
import Foundation
import PairsTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// One real `pairs serve --cluster` (the built binary) on 127.0.0.1 and a port of its own choosing (or `port`), in the
/// cluster of `redis`, keeping what `data` says (nothing by default, or a shared `postgresql://` database),
/// with `flags` after those; killed when the test lets go of it.
final class ServeInstance {
    /// Bounds a start that fails: a busy machine takes seconds to start a debug binary.
    static let startSeconds: TimeInterval = 60

    let process: Subprocess
    let port: Int

    init(redis: RedisServer, port: Int = 0, data: String = "none", loops: Int = 2, flags: [String] = []) throws {
        process = try Subprocess(try Tools.pairs(), [
            "serve", "--cluster", "redis://127.0.0.1:\(redis.port)", "--host", "127.0.0.1", "--port", String(port),
            "--data", data, "--loops", String(loops),
        ] + flags)
        let (_, line) = try process.blockingWaitForLine(within: Self.startSeconds, "the listening line") { $0.hasPrefix("pairs listening on ") }
        // "pairs listening on 127.0.0.1:PORT in the cluster at redis://..., advertised as 127.0.0.1:PORT"
        guard let address = line.split(separator: " ").dropFirst(3).first, let colon = address.lastIndex(of: ":"),
              let port = Int(address[address.index(after: colon)...]) else {
            process.kill()
            throw Tools.Missing(description: "no port in the listening line: \(line)")
        }
        self.port = port
        #expect(line.contains("in the cluster at redis://127.0.0.1:\(redis.port), advertised as 127.0.0.1:\(port)"), "\(line)")
    }

    deinit {
        process.kill()
    }

    /// `HOST:PORT`, as the instance advertises itself.
    var address: String { "127.0.0.1:\(port)" }
}

/// A client speaking the line protocol over a plain socket, as netcat does: it sends what it is given and
/// reads whole lines, each read bounded in time.
final class LineClient {
    /// How long one read waits: a server on a busy machine answers well within it.
    static let readSeconds = 30
    /// Lines skipped while looking for one, at most: a server that keeps talking cannot hold a test forever.
    static let maxSkippedLines = 200

    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Whether the server closed the connection (a read found its end), as opposed to a read that timed out.
    private(set) var closedByServer = false

    init(port: Int) throws {
        fd = try Loopback.connect(port: port)
        var timeout = timeval(tv_sec: Self.readSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
    }

    /// Says hello as `name`, a client that follows redirects (protocol.md, "Several instances").
    func helloFollowingRedirects(as name: String) {
        send(#"{"type":"hello","name":"\#(name)","redirects":true}"#)
    }

    /// Drops the connection as a lost network does, without a `bye`: a player's seat is held for them.
    func hangUp() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    func send(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, or nil when the server closed the connection or said nothing within `readSeconds`.
    func nextLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                if count == 0 { closedByServer = true }
                return nil
            }
            buffer += chunk[..<count]
        }
    }

    /// The first line (skipping others) that holds every one of `parts`; throws when none comes.
    @discardableResult
    func line(containing parts: String...) throws -> String {
        for _ in 0..<Self.maxSkippedLines {
            guard let line = nextLine() else { break }
            if parts.allSatisfy(line.contains) { return line }
        }
        throw TimedOut(what: "a line with \(parts)")
    }

    /// The first line (skipping others) that `matches`, said as `what`; throws when none comes.
    @discardableResult
    func line(_ what: String, where matches: (String) -> Bool) throws -> String {
        for _ in 0..<Self.maxSkippedLines {
            guard let line = nextLine() else { break }
            if matches(line) { return line }
        }
        throw TimedOut(what: what)
    }

    /// The next line that answers a request (`joined` or `error`, or `redirect`), skipping the greeting and states.
    func answer() throws -> String {
        for _ in 0..<Self.maxSkippedLines {
            guard let line = nextLine() else { break }
            if ["\"type\":\"joined\"", "\"type\":\"error\"", "\"type\":\"redirect\""].contains(where: line.contains) { return line }
        }
        throw TimedOut(what: "an answer")
    }

    /// Follows a `redirect` line as a client that says it follows them does: connects to the instance it
    /// names and says hello again as `name` (hello travels with the client, not the connection). Returns the
    /// new connection, on which the test repeats the request.
    static func following(_ redirect: String, as name: String) throws -> LineClient {
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(redirect.utf8)) as? [String: Any], "\(redirect)")
        #expect(fields["type"] as? String == "redirect", "\(redirect)")
        #expect(fields["host"] as? String == "127.0.0.1", "\(redirect)")
        let port = try #require(fields["port"] as? Int, "\(redirect)")
        let client = try LineClient(port: port)
        client.helloFollowingRedirects(as: name)
        return client
    }
}

/// The value of a string field of a JSON line, such as a `joined`'s `token`.
func field(_ name: String, of line: String) throws -> String {
    let fields = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    return try #require(fields[name] as? String, "\(name) in \(line)")
}
#endif
