import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
import PairsRules
import PairsServer
import PairsTestSupport
import PairsWire
import Synchronization
import Testing

/// Floods that once stalled every game on the server (issue 19): a burst of `list` over 20,000 rooms, and
/// a WebSocket flooded with pings. Each test measures another game's flips while the flood runs and logs
/// the figures (p50, p99, max); it asserts only that every flip was answered, since speed depends on the
/// machine.
@Suite("Floods against the real server", .serialized, .ownThread)
struct FloodTests {
    @Test("with 20,000 rooms, a burst of 80 list lines from one client, then list after list, leaves another game's flips answered")
    func listBurstOverManyRooms() throws {
        let server = try startServer { configuration in
            configuration.lobby.graceSeconds = 3600
            configuration.lobby.rateLimit = RateLimit(messagesPerSecond: 40)
            configuration.lobby.roomLimits = RoomLimits(awaySeatsPerAddress: 100_000, awaySeats: 100_000)
        }
        defer { server.stop() }
        let made = try makeSoloRooms(20_000, on: server)
        #expect(made >= 20_000)
        let (first, second) = try seatedPair(on: server, room: "probe")
        let idle = try FlipProbe(first, second).run(flips: 40)
        print("flip latency with \(made) rooms, no flood: \(idle)")

        let flood = Flood { port, _ in
            let flooder = try TestClient(port: port)
            _ = try flooder.readWelcome(within: 30)
            flooder.sendRaw(Array(String(repeating: "list\n", count: 80).utf8))
            // Every line gets an answer (rooms or rate_limited) or the connection ends in `bye flooding`.
            var answers = 0
            while answers < 80 {
                let message = try flooder.next(within: 120)
                switch message {
                case .rooms, .error: answers += 1
                case .bye: return "\(answers) answers, then bye"
                default: break
                }
            }
            // Then `list` one at a time, each sent as soon as the last is answered, for 3 seconds.
            let until = Date().addingTimeInterval(3)
            var oneByOne = 0
            while Date() < until {
                flooder.send("list")
                oneByOne += 1
                if case .bye(let reason) = try flooder.waitFor("an answer", within: 60, { if case .rooms = $0 { true } else if case .error = $0 { true } else if case .bye = $0 { true } else { false } }) {
                    return "\(answers) answers to the burst, then bye \(reason.rawValue) after \(oneByOne) one at a time"
                }
            }
            return "\(answers) answers to the burst, then \(oneByOne) one at a time"
        }
        let during = try flood.measure(port: server.port, probe: FlipProbe(first, second))
        print("flip latency with \(made) rooms, during a flood of list (\(flood.outcome ?? "?")): \(during)")
        #expect(during.samples > 0, "another game's flips were answered during the burst")
    }

    @Test("a WebSocket flooded with pings leaves another game's flips answered, and is closed 1008 with bye flooding")
    func pingFloodOnAWebSocket() throws {
        let server = try startServer { $0.lobby.rateLimit = RateLimit(messagesPerSecond: 40) }
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server, room: "probe")
        let flood = Flood { port, floodIsOver in
            let flooder = try TestClient(port: port, transport: .webSocket)
            _ = try flooder.readWelcome(within: 30)
            // 200,000 pings in writes of 1,000, each write sent once the last one's pongs are back (so that
            // pongs never fill the server's output buffer), until the server closes.
            let batch = WebSocketTestClient.encode(Array(repeating: .ping(Array("x".utf8)), count: 1_000))
            var sent = 0
            var controlFrames = 0
            while sent < 200, !flooder.isClosedByServer, flooder.controlFrames.last?.opcode != 0x8 {
                flooder.sendRaw(batch)
                sent += 1
                // A flooder cut off gets its close frame, and then nothing: waiting for pongs ends with it.
                controlFrames = try flooder.waitForControlFrames(1_000, skipping: controlFrames, within: 60)
            }
            floodIsOver()
            let goodbye = try flooder.waitForGoodbye(within: 30)
            let pongs = flooder.controlFrames.count { $0.opcode == 0xA }
            return "\(sent * 1_000) pings written, \(pongs) pongs, \(goodbye)"
        }
        let during = try flood.measure(port: server.port, probe: FlipProbe(first, second))
        print("flip latency during a WebSocket ping flood (\(flood.outcome ?? "?")): \(during)")
        #expect(during.samples > 0, "another game's flips were answered during the flood")
        #expect(flood.outcome?.hasSuffix("bye flooding then close 1008") == true, "the flooder was cut off: \(flood.outcome ?? "nothing")")
    }

    @Test("a WebSocket flooded with empty fragments of a message that never ends is closed 1008 with bye flooding")
    func fragmentFloodOnAWebSocket() throws {
        let server = try startServer { $0.lobby.rateLimit = RateLimit(messagesPerSecond: 40) }
        defer { server.stop() }
        let flooder = try TestClient(port: server.port, transport: .webSocket)
        _ = try flooder.readWelcome(within: 30)
        flooder.send([.text("", fin: false)])
        let fragments = WebSocketTestClient.encode(Array(repeating: .continuation("", fin: false), count: 1_000))
        var sent = 0
        while sent < 100, !flooder.isClosedByServer, !flooder.hasUnreadBytes() {
            flooder.sendRaw(fragments)
            sent += 1
        }
        let goodbye = try flooder.waitForGoodbye(within: 30)
        #expect(goodbye.reason == .flooding)
        #expect(goodbye.closeCode == 1008)
    }
}

/// Opens connections in batches, each sending one `join` of a solo room and half-closing: the server seats
/// the player, who drops at once and keeps the seat for the grace period. Returns the server's room count
/// once it stops growing.
private func makeSoloRooms(_ count: Int, on server: Server) throws -> Int {
    let line = Array(#"{"type":"join","seats":1}"#.utf8) + [UInt8(ascii: "\n")]
    let batchSize = 500
    var opened = 0
    let observer = try TestClient(port: server.port)
    _ = try observer.readWelcome(within: 30)
    while opened < count {
        var descriptors: [Int32] = []
        for _ in 0..<min(batchSize, count - opened) {
            let fd = try Loopback.connect(port: server.port)
            _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            shutdown(fd, Int32(SHUT_WR))
            descriptors.append(fd)
        }
        opened += descriptors.count
        try waitForRooms(atLeast: opened, asking: observer)
        for fd in descriptors { close(fd) }
    }
    return try rooms(asking: observer)
}

private func rooms(asking observer: TestClient) throws -> Int {
    observer.send(#"{"type":"stats"}"#)
    guard case .stats(let stats) = try observer.waitFor("stats", within: 30, { if case .stats = $0 { true } else { false } }) else { return 0 }
    return stats.rooms
}

private func waitForRooms(atLeast count: Int, asking observer: TestClient) throws {
    let deadline = Date().addingTimeInterval(60)
    while try rooms(asking: observer) < count {
        guard Date() < deadline else { throw TestTimeout(what: "\(count) rooms") }
        Thread.sleep(forTimeInterval: 0.01)
    }
}

/// Latencies in milliseconds, summarized.
struct LatencySummary: CustomStringConvertible {
    var milliseconds: [Double]

    var samples: Int { milliseconds.count }

    func percentile(_ fraction: Double) -> Double {
        let sorted = milliseconds.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    var description: String {
        String(format: "%d flips, p50 %.2f ms, p99 %.2f ms, max %.2f ms", samples, percentile(0.5), percentile(0.99),
               milliseconds.max() ?? .nan)
    }
}

/// One game's two players flipping about 30 times a second, rematching when a game ends, timing each flip
/// from its request to the state it caused.
struct FlipProbe {
    let clients: [TestClient]

    init(_ first: TestClient, _ second: TestClient) {
        clients = [first, second]
    }

    /// Times `flips` flips, or flips until `stop` says so.
    func run(flips: Int = .max, until stop: () -> Bool = { false }) throws -> LatencySummary {
        var memory = Memory()
        var latencies: [Double] = []
        var nextID = 1_000_000
        var latest = try clients[0].lastState ?? clients[0].waitForState(within: 30)
        while latencies.count < flips, !stop() {
            memory.see(latest.state)
            switch latest.state.phase {
            case .over:
                for client in clients { client.send(#"{"type":"rematch"}"#) }
                latest = try clients[0].waitForState(within: 60) { $0.state.phase == .playing }
                continue
            case .playing:
                guard let turn = latest.state.turn else { fallthrough }
                // Paced under the rate limit (40 a second per connection), which the probe must not trip.
                Thread.sleep(forTimeInterval: 0.03)
                nextID += 1
                let id = nextID
                let started = DispatchTime.now().uptimeNanoseconds
                clients[turn.index].send(#"{"type":"flip","card":\#(memory.choose(in: latest.state)),"id":\#(id)}"#)
                // Seat 0's connection sees every state of the room, in order.
                latest = try clients[0].waitForState(within: 60) { $0.id == .integer(Int64(id)) }
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            default:
                latest = try clients[0].waitForState(within: 60)
            }
        }
        return LatencySummary(milliseconds: latencies)
    }
}

/// A flood run on a thread of its own while a probe measures another game, until the flood is over.
final class Flood: Sendable {
    private let body: @Sendable (Int, _ floodIsOver: @Sendable () -> Void) throws -> String
    private let result = Mutex<String?>(nil)
    private let done = Atomic<Bool>(false)

    /// `body` floods the server on the port it is given, calls `floodIsOver` once it has stopped sending
    /// (if it waits for something after that), and returns what it saw.
    init(_ body: @escaping @Sendable (Int, _ floodIsOver: @Sendable () -> Void) throws -> String) {
        self.body = body
    }

    /// What the flood's client saw, once it is over.
    var outcome: String? { result.withLock { $0 } }

    /// Starts the flood against `port`, and flips in the probe's game until it is over.
    func measure(port: Int, probe: FlipProbe) throws -> LatencySummary {
        let thread = Thread { [self] in
            let outcome: String
            do { outcome = try body(port) { self.done.store(true, ordering: .releasing) } } catch { outcome = "failed: \(error)" }
            result.withLock { $0 = outcome }
            done.store(true, ordering: .releasing)
        }
        thread.start()
        let summary = try probe.run { done.load(ordering: .acquiring) }
        let deadline = Date().addingTimeInterval(180)
        while result.withLock({ $0 == nil }), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return summary
    }
}
