import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsRules
import PairsServer
import PairsTestSupport
import PairsWire

/// Something a test waited for did not come.
struct TestTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// A blocking TCP client for tests: sends lines, and reads server messages with a deadline on every wait.
/// Over a WebSocket (`Transport.webSocket`) the same messages travel one per text frame, so a test plays
/// the same way over either framing.
final class TestClient {
    /// How a test client's messages travel.
    enum Transport: Sendable, CustomStringConvertible {
        /// The line protocol: one message per line.
        case lines
        /// A WebSocket on `/ws`: one message per masked text frame, sent with `WebSocketTestClient`.
        case webSocket

        var description: String { self == .lines ? "lines" : "WebSocket" }
    }

    let transport: Transport
    private(set) var fd: Int32
    private var framer = LineFramer(maxLineBytes: 1 << 20)
    private var frameReader = WebSocketTestClient.ServerFrameReader()
    private var received: [ServerMessage] = []
    /// Every frame other than text the server sent on a WebSocket (pongs, close frames), in order.
    private(set) var controlFrames: [WebSocketTestClient.ServerFrame] = []
    /// The text frames the server sent, each one whole message; checked to hold exactly one line each.
    private(set) var textFrameCount = 0
    private(set) var isClosedByServer = false
    /// Whether the server's side ended in a reset (ECONNRESET) rather than an orderly end of stream: a
    /// reset can destroy what was still on its way, a `bye` included.
    private(set) var wasReset = false
    /// The seat and token from the last `joined`.
    var seat: Seat?
    var token: String?
    /// The last `joined`.
    private(set) var joined: Joined?
    /// The last state received, whether or not a test waited for it.
    private(set) var lastState: StateMessage?

    /// Connects; over a WebSocket, `sendingWithHandshake` are frames sent in the same write as the handshake
    /// (a server must read them once the handshake is done).
    init(port: Int, receiveBufferBytes: Int32? = nil, overIPv6: Bool = false, transport: Transport = .lines,
         sendingWithHandshake firstFrames: [WebSocketTestClient.Frame] = []) throws {
        self.transport = transport
        fd = socket(overIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let receiveBufferBytes {
            // Set before connecting so the advertised window is small from the start.
            var size = receiveBufferBytes
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let status: Int32
        if overIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            address.sin6_addr = in6addr_loopback
            status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = Loopback.address(port: port)
            status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard status == 0 else { throw TestTimeout(what: "connect: \(String(cString: strerror(errno)))") }
        if transport == .webSocket { try openWebSocket(sending: firstFrames) }
    }

    /// Sends the opening handshake and reads the 101 that accepts it; bytes after it are the first frames.
    private func openWebSocket(sending firstFrames: [WebSocketTestClient.Frame], within seconds: Double = 5) throws {
        sendRaw(WebSocketTestClient.handshakeRequest() + WebSocketTestClient.encode(firstFrames))
        let deadline = Date().addingTimeInterval(seconds)
        var bytes: [UInt8] = []
        let end = Array("\r\n\r\n".utf8)
        while true {
            if let range = bytes.firstRange(of: end) {
                let head = String(decoding: bytes[..<range.lowerBound], as: UTF8.self)
                guard WebSocketTestClient.isAcceptingHandshake(head + "\r\n") else {
                    throw TestTimeout(what: "a 101 accepting the handshake, got \(head.debugDescription)")
                }
                try receiveFrames(Array(bytes[range.upperBound...]))
                return
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, let chunk = readChunk(waitingAtMost: remaining) else {
                throw TestTimeout(what: "the handshake's response, got \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
            bytes += chunk
        }
    }

    deinit { close() }

    /// Closes the socket now. With unread input in it, the kernel answers the server with a reset.
    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    /// Sends one message: a line, or a text frame without the newline.
    func send(_ line: String) {
        switch transport {
        case .lines: sendRaw(Array((line + "\n").utf8))
        case .webSocket: sendRaw(WebSocketTestClient.encode(.text(line)))
        }
    }

    /// Sends WebSocket frames as they are, valid or not.
    func send(_ frames: [WebSocketTestClient.Frame]) {
        sendRaw(WebSocketTestClient.encode(frames))
    }

    func sendRaw(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Closes the socket abruptly, as a crashed client would (RST rather than FIN).
    func reset() {
        var linger = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// The next message from the server.
    func next(within seconds: Double = 5) throws -> ServerMessage {
        let deadline = Date().addingTimeInterval(seconds)
        while received.isEmpty {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, !isClosedByServer else { throw TestTimeout(what: "a message") }
            try fill(waitingAtMost: remaining)
        }
        let message = received.removeFirst()
        if case .state(let state) = message { lastState = state }
        return message
    }

    /// Reads the next message, which must be `welcome`: the server speaks first, whatever the client sent.
    @discardableResult
    func readWelcome(within seconds: Double = 5) throws -> Welcome {
        let message = try next(within: seconds)
        guard case .welcome(let welcome) = message else { throw TestTimeout(what: "welcome first, got \(message)") }
        return welcome
    }

    /// Reads messages until one matches, dropping the others. Fails after `seconds`.
    @discardableResult
    func waitFor(_ what: String, within seconds: Double = 5, _ matches: (ServerMessage) -> Bool) throws -> ServerMessage {
        let deadline = Date().addingTimeInterval(seconds)
        // Named in the failure: often the `bye` that says why the wait was in vain.
        var skipped: ServerMessage?
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw TestTimeout(what: what) }
            let message: ServerMessage
            do {
                message = try next(within: remaining)
            } catch {
                let last = skipped.map { "; the last message was \($0)" } ?? ""
                throw TestTimeout(what: "\(what) (\(isClosedByServer ? "connection closed" : "nothing came")\(last))")
            }
            defer { skipped = message }
            if case .joined(let joined) = message {
                self.joined = joined
                if joined.seat != nil {
                    seat = joined.seat
                    token = joined.token
                }
            }
            if matches(message) { return message }
        }
    }

    func waitForState(within seconds: Double = 5, _ matches: (StateMessage) -> Bool = { _ in true }) throws -> StateMessage {
        let message = try waitFor("a state", within: seconds) {
            if case .state(let state) = $0 { matches(state) } else { false }
        }
        guard case .state(let state) = message else { fatalError("unreachable") }
        return state
    }

    func waitForError(_ code: ErrorCode, within seconds: Double = 5) throws -> RequestError {
        let message = try waitFor("error \(code.rawValue)", within: seconds) {
            if case .error(let error) = $0 { error.code == code } else { false }
        }
        guard case .error(let error) = message else { fatalError("unreachable") }
        return error
    }

    func waitForBye(within seconds: Double = 5) throws -> ByeReason {
        let message = try waitFor("bye", within: seconds) { if case .bye = $0 { true } else { false } }
        guard case .bye(let reason) = message else { fatalError("unreachable") }
        return reason
    }

    /// How the server said goodbye: the `bye` reason and, on a WebSocket, the code of the close frame that
    /// followed it.
    struct Goodbye: Equatable, CustomStringConvertible {
        var reason: ByeReason
        var closeCode: UInt16?

        var description: String { "bye \(reason.rawValue)\(closeCode.map { " then close \($0)" } ?? "")" }
    }

    /// Reads until `bye`, then on a WebSocket until the close frame after it, then until the server closes.
    func waitForGoodbye(within seconds: Double = 5) throws -> Goodbye {
        let reason = try waitForBye(within: seconds)
        let code = transport == .webSocket ? try waitForCloseFrame(within: seconds).closeCode : nil
        try waitForClose(within: seconds)
        return Goodbye(reason: reason, closeCode: code)
    }

    /// Reads until the server's close frame arrives (messages before it are kept for `next`), and returns it.
    @discardableResult
    func waitForCloseFrame(within seconds: Double = 5) throws -> WebSocketTestClient.ServerFrame {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let close = controlFrames.first(where: { $0.opcode == 0x8 }) { return close }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, !isClosedByServer else {
                throw TestTimeout(what: "a close frame (\(isClosedByServer ? "connection closed" : "nothing came"))")
            }
            try fill(waitingAtMost: remaining)
        }
    }

    /// Reads until the server has sent `count` control frames since the first `skipping`, or a close frame
    /// (whichever comes first), keeping messages for `next`; returns how many control frames came.
    func waitForControlFrames(_ count: Int, skipping: Int = 0, within seconds: Double = 5) throws -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var scanned = skipping
        while true {
            while scanned < controlFrames.count {
                if controlFrames[scanned].opcode == 0x8 { return scanned }
                scanned += 1
            }
            if scanned - skipping >= count { return scanned }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, !isClosedByServer else { return scanned }
            try fill(waitingAtMost: remaining)
        }
    }

    /// Reads everything until the server closes the connection, as bytes: for HTTP answers.
    func readToEnd(within seconds: Double = 5) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(seconds)
        var bytes: [UInt8] = []
        while !isClosedByServer {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw TestTimeout(what: "the server to close, after \(bytes.count) bytes") }
            bytes += readChunk(waitingAtMost: remaining) ?? []
        }
        return bytes
    }

    /// Waits until the server closes the connection, reading and dropping what comes before.
    func waitForClose(within seconds: Double = 5) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !isClosedByServer {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw TestTimeout(what: "the server to close the connection") }
            try fill(waitingAtMost: remaining)
            received.removeAll()
        }
    }

    /// Joins and returns the seat, after the `joined` reply.
    @discardableResult
    func join(_ room: String? = nil, extra: String = "") throws -> Seat? {
        let roomField = room.map { ",\"room\":\"\($0)\"" } ?? ""
        send("{\"type\":\"join\"\(roomField)\(extra)}")
        try waitFor("joined") { if case .joined = $0 { true } else { false } }
        return seat
    }

    private func fill(waitingAtMost seconds: Double) throws {
        guard let bytes = readChunk(waitingAtMost: seconds) else { return }
        switch transport {
        case .lines:
            var lines: [[UInt8]] = []
            framer.append(bytes) { frame in
                if case .line(let bytes) = frame { lines.append(Array(bytes)) }
            }
            try decode(lines)
        case .webSocket:
            try receiveFrames(bytes)
        }
    }

    /// Whether the server has sent anything not yet read (or closed), looking without waiting.
    func hasUnreadBytes() -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0
    }

    /// Reads what the socket has, waiting at most `seconds` for something; nil when nothing came or the
    /// server closed (which `isClosedByServer` and `wasReset` then say).
    private func readChunk(waitingAtMost seconds: Double) -> [UInt8]? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(max(1, min(seconds * 1000, 60_000))))
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            if count < 0, errno == ECONNRESET { wasReset = true }
            isClosedByServer = true
            return nil
        }
        return Array(buffer[..<count])
    }

    /// Takes the server's frames from `bytes`: each text frame must be one whole message, unmasked and final.
    private func receiveFrames(_ bytes: [UInt8]) throws {
        var lines: [[UInt8]] = []
        for frame in frameReader.append(bytes) {
            guard !frame.isMasked, frame.fin, frame.rsv == 0 else { throw TestTimeout(what: "a valid server frame, got \(frame)") }
            if frame.opcode == 0x1 {
                guard !frame.payload.contains(UInt8(ascii: "\n")) else { throw TestTimeout(what: "one message per frame, got \(frame)") }
                textFrameCount += 1
                lines.append(frame.payload)
            } else {
                controlFrames.append(frame)
            }
        }
        try decode(lines)
    }

    private func decode(_ lines: [[UInt8]]) throws {
        for line in lines {
            do {
                received.append(try ServerMessageDecoder.decode(line: line))
            } catch {
                throw TestTimeout(what: "a decodable line, got \(String(decoding: line, as: UTF8.self)): \(error)")
            }
        }
    }
}

/// A server on 127.0.0.1 and a free port, for one test.
/// The event loops the server tests run with: `PAIRS_TEST_LOOPS` (CI runs the suite at 1 and at 3), 1 when unset.
let testLoops = Int(ProcessInfo.processInfo.environment["PAIRS_TEST_LOOPS"] ?? "") ?? 1

func startServer(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> Server {
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.log.level = .error
    configuration.lobby.defaultRules = RuleSet(pairs: 4, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true)
    configuration.loops = testLoops
    configure(&configuration)
    let server = Server(configuration: configuration)
    try server.start()
    return server
}

/// Two connected clients seated in one room with the game started; `first` is in seat 0. `over` says how
/// each one connects.
func seatedPair(on server: Server, room: String = "r", extra: String = "",
                over transports: (TestClient.Transport, TestClient.Transport) = (.lines, .lines)) throws -> (first: TestClient, second: TestClient) {
    let first = try TestClient(port: server.port, transport: transports.0)
    let second = try TestClient(port: server.port, transport: transports.1)
    try first.join(room, extra: extra)
    try second.join(room, extra: extra)
    _ = try first.waitForState { $0.state.phase == .playing }
    _ = try second.waitForState { $0.state.phase == .playing }
    return (first, second)
}

/// What a perfect-memory player knows: every face seen so far in this game.
struct Memory {
    var faces: [Int: String] = [:]
    var game = 0

    mutating func see(_ state: WireState) {
        if state.game != game { faces = [:]; game = state.game }
        for (index, card) in state.cards.enumerated() {
            switch card {
            case .up(let face), .matched(let face, _): faces[index] = face
            case .down: break
            }
        }
    }

    /// The card to flip next in `state`: a known pair first, else an unseen card.
    func choose(in state: WireState) -> Int {
        let down = state.cards.indices.filter { state.cards[$0] == .down }
        if let up = state.cards.indices.first(where: { if case .up = state.cards[$0] { true } else { false } }),
           let face = faces[up], let partner = down.first(where: { faces[$0] == face }) {
            return partner
        }
        for card in down {
            if let face = faces[card], down.contains(where: { $0 != card && faces[$0] == face }) { return card }
        }
        return down.first { faces[$0] == nil } ?? down[0]
    }
}

/// Plays the game in progress to its end with perfect memory on both sides; returns the final state.
func playToEnd(_ clients: [TestClient], within seconds: Double = 20) throws -> WireState {
    var memory = Memory()
    var latest = try clients[0].lastState ?? clients[0].waitForState()
    let deadline = Date().addingTimeInterval(seconds)
    var nextID = 1000
    while latest.state.phase != .over {
        guard Date() < deadline else { throw TestTimeout(what: "the game to end") }
        memory.see(latest.state)
        if latest.state.phase == .playing, let turn = latest.state.turn {
            let card = memory.choose(in: latest.state)
            nextID += 1
            clients[turn.index].send("{\"type\":\"flip\",\"card\":\(card),\"id\":\(nextID)}")
        }
        // Seat 0's connection sees every state of the room, in order.
        latest = try clients[0].waitForState(within: max(0.1, deadline.timeIntervalSinceNow))
    }
    return latest.state
}
