import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
import PairsRules
@testable import PairsServer
import PairsTestSupport
import PairsWire
import Synchronization
import Testing

/// A server on 127.0.0.1 whose transport runs on `clock`.
private func startServer(on clock: ManualClock, _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> Server {
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.log.level = .error
    configuration.loops = testLoops
    configure(&configuration)
    let server = Server(configuration: configuration, store: nil, clock: clock, storageStep: { _ in })
    try server.start()
    return server
}

/// Moves `clock` on, then waits for the server's queue to have run whatever the move made due: the timer
/// fires onto the queue before `statistics` runs there.
private func advance(_ clock: ManualClock, by milliseconds: Int64, on server: Server) {
    clock.advance(by: milliseconds)
    _ = server.statistics()
}

@Suite("The transport's waits on a manual clock", .ownThread)
struct TransportClockTests {
    @Test("a silent connection is welcomed when the clock reaches the end of its welcome wait, and not a millisecond before")
    func welcomeWaitEndsOnTheClock() throws {
        let clock = ManualClock()
        let server = try startServer(on: clock)
        defer { server.stop() }
        let silent = try TestClient(port: server.port)
        try blockingWaitUntil("the server to accept the connection") { server.openSockets == 1 }
        advance(clock, by: Server.welcomeWaitMilliseconds - 1, on: server)
        #expect(!silent.hasUnreadBytes(), "welcomed before its wait was over")
        advance(clock, by: 1, on: server)
        #expect(try silent.readWelcome().hint.contains("join"))
    }

    @Test("a goodbye whose peer never closes keeps its socket until the clock passes the goodbye's deadline, then closes it")
    func goodbyeLingersUntilItsDeadline() throws {
        let clock = ManualClock()
        let server = try startServer(on: clock)
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send("quit")
        #expect(try client.waitForBye() == .quit)
        // The server has said everything and shut its side; the client keeps its own open.
        try client.waitForClose()
        advance(clock, by: Goodbyes.goodbyeMilliseconds - 1, on: server)
        #expect(server.openSockets == 1)
        advance(clock, by: 1, on: server)
        try blockingWaitUntil("the lingering socket to close") { server.openSockets == 0 }
    }

    @Test("a shutdown waits for a goodbye that cannot go out until the clock passes the drain, then closes it and finishes")
    func shutdownDrainEndsOnTheClock() throws {
        let clock = ManualClock()
        let server = try startServer(on: clock) {
            $0.outputBufferLimitBytes = 64 * 1024
            $0.lobby.rateLimit = nil
        }
        // Answers the client never reads, until the server gives up on it as too slow: its `bye` then
        // waits behind full socket buffers. Bounded by what is asked (`BadClientTests.slowReaderIsDropped`).
        // Acknowledgements that arrive after the cut-off can still make room for the few bytes of the `bye`,
        // and a goodbye that is out is closed at once by a shutdown; then the stall is set up again.
        func stallAGoodbye() throws -> TestClient? {
            let stalled = try TestClient(port: server.port, receiveBufferBytes: 4096)
            let request = Array(String(repeating: #"{"type":"list"}"# + "\n", count: 200).utf8)
            stalled.send("ping")
            try stalled.readWelcome()
            try blockingWaitUntil("the lobby to know the client") { server.statistics().connections == 1 }
            for _ in 0..<50 where server.statistics().connections == 1 {
                stalled.sendRaw(request)
                _ = server.statistics()
            }
            try blockingWaitUntil("the lobby to let the slow client go") { server.statistics().connections == 0 }
            let isFlushing = server.queue.sync { () -> Bool in
                if case .flushing? = server.loop.sockets.open.all.first?.lifecycle { true } else { false }
            }
            if isFlushing { return stalled }
            stalled.close()
            try blockingWaitUntil("the goodbye that went out to close") { server.openSockets == 0 }
            return nil
        }
        var stalled: TestClient?
        for _ in 0..<10 where stalled == nil { stalled = try stallAGoodbye() }
        try #require(stalled != nil, "in 10 tries, every too-slow goodbye found room to go out")
        #expect(server.openSockets == 1)
        let finished = Mutex(false)
        server.shutdown { finished.withLock { $0 = true } }
        // The shutdown starts on the server's queue before the clock moves.
        _ = server.statistics()
        advance(clock, by: ConnectionLoop.shutdownDrainMilliseconds - 1, on: server)
        #expect(!finished.withLock { $0 })
        #expect(server.openSockets == 1)
        clock.advance(by: 1)
        try blockingWaitUntil("the shutdown to finish") { finished.withLock { $0 } }
        #expect(server.openSockets == 0)
        withExtendedLifetime(stalled) {}
    }

    @Test("an HTTP request head that does not end is answered 408 when the clock passes its limit, and not before")
    func requestHeadTimesOutOnTheClock() throws {
        let clock = ManualClock()
        let server = try startServer(on: clock) { $0.web.requestHeadMilliseconds = 3_000 }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.sendRaw(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8))
        // The connection is HTTP once the server has read the request line.
        try blockingWaitUntil("the server to read the request line") {
            server.queue.sync { server.loop.sockets.open.all.first?.dialect == .http }
        }
        advance(clock, by: 2_999, on: server)
        #expect(!client.hasUnreadBytes(), "answered before the request head's limit")
        advance(clock, by: 1, on: server)
        let reply = try client.readToEnd()
        #expect(String(decoding: reply, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
    }
}

@Suite("The loop's deadlines")
struct LoopDeadlinesTests {
    @Test("deadlines come out soonest first whatever order they went in, those at one moment in the order they went in, none before it is due")
    func soonestFirst() {
        var deadlines = LoopDeadlines()
        let moments: [Int64] = [50, 10, 30, 10, 70, 20, 30, 10]
        for (index, moment) in moments.enumerated() {
            deadlines.add(.store(.answerOverdue(ticket: index)), at: Moment(milliseconds: moment))
        }
        #expect(deadlines.next == Moment(milliseconds: 10))
        #expect(deadlines.popDue(at: Moment(milliseconds: 9)) == nil)
        var order: [Int] = []
        while let due = deadlines.popDue(at: Moment(milliseconds: 60)) {
            if case .store(.answerOverdue(let ticket)) = due { order.append(ticket) }
        }
        #expect(order == [1, 3, 7, 5, 2, 6, 0])
        #expect(deadlines.next == Moment(milliseconds: 70))
    }
}
