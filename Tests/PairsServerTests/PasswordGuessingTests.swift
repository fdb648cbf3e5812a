import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsRules
@testable import PairsServer
import PairsStorage
import PairsTestSupport
import PairsWire
import Testing

/// A gate storage work can be held at: closed, every piece of work of the kind it holds waits at it, as on
/// a frozen disk, until the test opens it.
private final class StorageGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    let holds: StoreGateway.StorageWork

    init(holding work: StoreGateway.StorageWork) {
        holds = work
    }

    func pass(_ work: StoreGateway.StorageWork) {
        guard work == holds else { return }
        semaphore.wait()
        semaphore.signal()
    }

    func open() {
        semaphore.signal()
    }
}

/// A server on `host` keeping games in `path`, whose storage work first passes `gate`, if any.
private func guardedServer(at path: String, host: String = "127.0.0.1", gate: StorageGate? = nil,
                           _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> Server {
    let store = try GameStore(path: path) { failure in Issue.record("storage failed: \(failure)") }
    var configuration = ServerConfiguration()
    configuration.host = host
    configuration.port = 0
    configuration.log.level = .error
    configuration.loops = testLoops
    configure(&configuration)
    let server = Server(configuration: configuration, store: store) { work in gate?.pass(work) }
    try server.start()
    return server
}

extension TestClient {
    /// Says hello as `name` (with `password` if given) and returns the welcome or the refusal.
    fileprivate func sayHello(_ name: String, password: String? = nil, within seconds: Double = 20) throws -> ServerMessage {
        var request: [String: Any] = ["type": "hello", "name": name]
        request["password"] = password
        let line = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
        send(line)
        return try waitFor("the answer to hello", within: seconds) {
            switch $0 {
            case .welcome(let welcome): welcome.name != nil
            case .error: true
            default: false
            }
        }
    }
}

private func errorCode(_ message: ServerMessage) -> ErrorCode? {
    if case .error(let error) = message { error.code } else { nil }
}

@Suite("Password guessing, name checks and a stalled store, over real sockets", .ownThread)
struct PasswordGuessingTests {
    @Test("guesses from fresh connections at one address are cut off with too_many_guesses and retry_after, while ann's right password from another address gets in at once")
    func guessingAcrossConnectionsIsLimited() throws {
        let directory = try TemporaryDirectory()
        // On "::", IPv4 clients come from ::ffff:127.0.0.1 and IPv6 ones from ::1: two addresses.
        let server = try guardedServer(at: directory.database, host: "::") { $0.lobby.passwordGuesses.firstDelayMilliseconds = 60_000 }
        defer { server.stop() }
        let ann = try TestClient(port: server.port, overIPv6: true)
        #expect(try ann.sayHello("ann", password: "ann's secret").isWelcomeMessage)
        var answers: [ErrorCode?] = []
        var refusal: RequestError?
        for guess in 0..<10 {
            // A new connection for every guess, as the attack did: the limit must not be per connection.
            let guesser = try TestClient(port: server.port)
            let answer = try guesser.sayHello("ann", password: "guess \(guess)")
            answers.append(errorCode(answer))
            if case .error(let error) = answer, error.code == .tooManyGuesses {
                refusal = error
                break
            }
        }
        #expect(answers == [.badPassword, .badPassword, .badPassword, .badPassword, .tooManyGuesses])
        let seconds = try #require(refusal?.retryAfterSeconds)
        #expect((1...60).contains(seconds))
        let again = try TestClient(port: server.port, overIPv6: true)
        #expect(try again.sayHello("ann", password: "ann's secret").isWelcomeMessage,
                "the right password from another address is checked at once")
    }

    @Test("a password containing a NUL is refused bad_field, not no_storage")
    func nulInPasswordIsBadField() throws {
        let directory = try TemporaryDirectory()
        let server = try guardedServer(at: directory.database)
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        #expect(errorCode(try client.sayHello("ann", password: "a\u{0}b")) == .badField)
        #expect(try client.sayHello("ann", password: "ab").isWelcomeMessage, "and the name is still free to claim")
    }

    @Test("with ann claimed, Ann, ａｎｎ and Cyrillic аnn are refused name_taken, with or without a password")
    func lookalikesAreTaken() throws {
        let directory = try TemporaryDirectory()
        let server = try guardedServer(at: directory.database)
        defer { server.stop() }
        let ann = try TestClient(port: server.port)
        #expect(try ann.sayHello("ann", password: "ann's secret").isWelcomeMessage)
        let mallory = try TestClient(port: server.port)
        for name in ["Ann", "ａｎｎ", "\u{0430}nn", "ann\u{0336}", "an\u{0578}"] {
            #expect(errorCode(try mallory.sayHello(name)) == .nameTaken, "\(name)")
            #expect(errorCode(try mallory.sayHello(name, password: "mallory")) == .nameTaken, "\(name)")
        }
        #expect(try mallory.sayHello("mallory").isWelcomeMessage)
    }

    @Test("with the disk stalled, a hello for an unclaimed name and ping are answered at once, and history gets storage_timeout at the deadline")
    func stalledStoreHoldsUpNoHello() throws {
        let directory = try TemporaryDirectory()
        let gate = StorageGate(holding: .query)
        let server = try guardedServer(at: directory.database, gate: gate) { $0.store.deadlineMilliseconds = 300 }
        defer {
            gate.open()
            server.stop()
        }
        let client = try TestClient(port: server.port)
        client.send(#"{"type":"history","id":1}"#)
        let timeout = try client.waitForError(.storageTimeout, within: 20)
        #expect(timeout.id == .integer(1))
        let other = try TestClient(port: server.port)
        #expect(try other.sayHello("zed").isWelcomeMessage)
        other.send(#"{"type":"ping","id":2}"#)
        _ = try other.waitFor("pong") { $0 == .pong(id: .integer(2)) }
        gate.open()
        // Once the disk is back, history answers again.
        client.send(#"{"type":"history","id":3}"#)
        _ = try client.waitFor("the history once the store is back", within: 20) {
            if case .history(let page) = $0 { page.id == .integer(3) } else { false }
        }
    }

    @Test("claims held up on the disk delay no history query and no unclaimed hello, and a full hashing queue answers busy at once")
    func hashingHasItsOwnBoundedPool() throws {
        let directory = try TemporaryDirectory()
        let gate = StorageGate(holding: .claim)
        let server = try guardedServer(at: directory.database, gate: gate) {
            $0.store.nameCheckWorkers = 1
            $0.store.nameCheckQueueLimit = 1
            $0.store.deadlineMilliseconds = 60_000
        }
        defer {
            gate.open()
            server.stop()
        }
        let first = try TestClient(port: server.port)
        first.send(#"{"type":"hello","name":"ann","password":"one"}"#)
        // The first claim holds the only worker; the second waits in the queue of one; the third is refused.
        // The claim in flight first, then the empty queue: the loop files the claim and queues its hash in one
        // turn, so once it is in flight an empty queue means the worker took it. Read the other way round, a
        // queue read before the hello was handled and a flight count read after it passed with the claim still
        // queued, and the second claim found the queue full (on a busy machine, where the worker starts late).
        try blockingWaitUntil("the first claim to reach the worker") { server.storageWorkInFlight == 1 && server.nameCheckPoolWaiting == 0 }
        let second = try TestClient(port: server.port)
        second.send(#"{"type":"hello","name":"bob","password":"two"}"#)
        try blockingWaitUntil("the second claim to queue") { server.nameCheckPoolWaiting == 1 }
        let third = try TestClient(port: server.port)
        let busy = try third.sayHello("cid", password: "three")
        guard case .error(let error) = busy else { Issue.record("not refused: \(busy)"); return }
        #expect(error.code == .busy)
        #expect(error.retryAfterSeconds == 1)
        let reader = try TestClient(port: server.port)
        #expect(try reader.sayHello("dan").isWelcomeMessage)
        let history = try reader.ask(#"{"type":"history","id":4}"#, type: "history")
        guard case .history? = history.first else { Issue.record("no history while claims wait: \(history)"); return }
        gate.open()
        #expect(try first.waitFor("ann's welcome", within: 20) { if case .welcome(let w) = $0 { w.name == "ann" } else { false } }.isWelcomeMessage)
        #expect(try second.waitFor("bob's welcome", within: 20) { if case .welcome(let w) = $0 { w.name == "bob" } else { false } }.isWelcomeMessage)
    }

    @Test("a hello for a name whose claim is still being decided waits for it, and is then refused name_taken, as when one queue did both")
    func helloWaitsForAClaimInFlight() throws {
        let directory = try TemporaryDirectory()
        let gate = StorageGate(holding: .claim)
        let server = try guardedServer(at: directory.database, gate: gate) { $0.store.deadlineMilliseconds = 60_000 }
        defer {
            gate.open()
            server.stop()
        }
        let ann = try TestClient(port: server.port)
        ann.send(#"{"type":"hello","name":"ann","password":"secret"}"#)
        try blockingWaitUntil("ann's claim to reach the store") { server.storageWorkInFlight == 1 && server.nameCheckPoolWaiting == 0 }
        let bob = try TestClient(port: server.port)
        _ = try bob.readWelcome()
        bob.send(#"{"type":"hello","name":"Ann","id":1}"#)
        let other = try TestClient(port: server.port)
        #expect(try other.sayHello("zoe").isWelcomeMessage, "a name nobody is claiming is answered at once")
        #expect(!bob.hasUnreadBytes(), "the look-alike waits for the claim")
        gate.open()
        #expect(try bob.waitForError(.nameTaken, within: 20).id == .integer(1))
        #expect(try ann.waitFor("ann's welcome", within: 20) { if case .welcome(let w) = $0 { w.name == "ann" } else { false } }.isWelcomeMessage)
    }

    @Test("a WebSocket handshake from another origin is refused 403; from the server's own page, from no page, or from an allowed origin it is accepted")
    func crossOriginHandshakesAreRefused() throws {
        let server = try startServer { _ = $0.web.allow(origin: "http://friends.example:8080/") }
        defer { server.stop() }
        let host = "127.0.0.1:\(server.port)"
        func status(origin: String?) throws -> Int {
            let client = try TestClient(port: server.port)
            let lines = ["GET /ws HTTP/1.1", "Host: \(host)", "Upgrade: websocket", "Connection: Upgrade",
                         "Sec-WebSocket-Key: \(WebSocketTestClient.sampleKey)", "Sec-WebSocket-Version: 13"]
                + (origin.map { ["Origin: \($0)"] } ?? [])
            client.sendRaw(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
            return try responseStatus(of: client)
        }
        #expect(try status(origin: "http://evil.example") == 403)
        #expect(try status(origin: "http://127.0.0.1:1") == 403)
        #expect(try status(origin: "null") == 403)
        #expect(try status(origin: "http://\(host)") == 101)
        #expect(try status(origin: nil) == 101)
        #expect(try status(origin: "http://friends.example:8080") == 101)
        #expect(try status(origin: "HTTP://Friends.Example:8080") == 101)
        #expect(try status(origin: "http://127.0.0.1") == 403, "the default port is another port")
    }

    @Test("pairs serve --allow-origin, given twice, lets pages of both origins open WebSockets, and no other")
    func allowOriginFlag() throws {
        let (process, port) = try PairsProcess.serve(["--allow-origin", "http://a.example:8080", "--allow-origin", "https://b.example"])
        defer { process.terminate() }
        func status(origin: String) throws -> Int {
            let client = try TestClient(port: port)
            let lines = ["GET /ws HTTP/1.1", "Host: 127.0.0.1:\(port)", "Upgrade: websocket", "Connection: Upgrade",
                         "Sec-WebSocket-Key: \(WebSocketTestClient.sampleKey)", "Sec-WebSocket-Version: 13", "Origin: \(origin)"]
            client.sendRaw(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
            return try responseStatus(of: client)
        }
        #expect(try status(origin: "http://a.example:8080") == 101)
        #expect(try status(origin: "https://b.example") == 101)
        #expect(try status(origin: "http://c.example") == 403)
    }

    @Test("the page comes with a Content-Security-Policy that lets it connect back to its server and load nothing from elsewhere")
    func pageHasAContentSecurityPolicy() throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.sendRaw(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let reply = try #require(HTTPReply(try client.readToEnd()))
        #expect(reply.status == 200)
        let policy = try #require(reply["Content-Security-Policy"])
        #expect(policy.contains("default-src 'none'"))
        #expect(policy.contains("connect-src 'self'"))
        #expect(!policy.contains("*"))
    }
}

/// The status code of the HTTP response the server sends `client` (it reads up to the end of the head).
private func responseStatus(of client: TestClient) throws -> Int {
    var bytes: [UInt8] = []
    let end = Array("\r\n\r\n".utf8)
    let deadline = Date().addingTimeInterval(20)
    while bytes.firstRange(of: end) == nil {
        guard Date() < deadline else { throw TestTimeout(what: "a response head") }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var poller = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 100) > 0 else { continue }
        let count = recv(client.fd, &buffer, buffer.count, 0)
        guard count > 0 else { break }
        bytes += buffer[..<count]
    }
    let line = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else { throw TestTimeout(what: "a status line, got \(line)") }
    return status
}

extension ServerMessage {
    fileprivate var isWelcomeMessage: Bool { if case .welcome = self { true } else { false } }
}
