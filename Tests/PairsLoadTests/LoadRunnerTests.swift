import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsLoad
import PairsLobby
import PairsRules
import PairsServer
import PairsTestSupport
import Testing

// Load runs against a real server in this process, over real TCP on 127.0.0.1. Serialized: each run wants
// the machine's two cores for itself, and several at once would only make each one slower.
@Suite(.serialized, .ownThread)
struct LoadRunnerTests {
    @Test("--games 50 --concurrency 10 finishes exactly 50 games without an error, and the server counts the same, over lines and over WebSockets",
          arguments: [LoadTransport.lines, .webSocket])
    func fiftyGames(over transport: LoadTransport) throws {
        let server = try startServer()
        defer { server.stop() }
        var configuration = loadConfiguration(port: server.port, concurrency: 10, games: 50)
        configuration.transport = transport
        let runner = try LoadRunner(configuration: configuration)
        let report = try runToEnd(runner)

        #expect(report.games == 50)
        #expect(report.errorCount == 0, "errors: \(report.errors)")
        #expect(report.connectionsOpened == 20)
        #expect(report.connectionFailureCount == 0 && report.connectionDropCount == 0)
        #expect(report.gamesAbandoned == 0 && report.gamesUnfinished == 0 && report.unfinishedFlips == 0)
        #expect(report.flips > 0)
        #expect(report.flips == report.flipsSent)
        #expect(report.latency.count == UInt64(report.flips))
        let p50 = report.latency.value(atQuantile: 0.5), p90 = report.latency.value(atQuantile: 0.9)
        let p99 = report.latency.value(atQuantile: 0.99)
        #expect(0 < p50 && p50 <= p90 && p90 <= p99 && p99 <= report.latency.max)
        let statistics = server.statistics()
        #expect(statistics.gamesFinished == 50)
        #expect(statistics.flips == report.flips)
        // Every connection said goodbye before the report: the server has nobody left.
        try blockingWaitUntil("the server to close every connection") { server.statistics().connections == 0 }
    }

    @Test("--duration ends the run on time, counts the games cut short, and leaves nothing behind on the server")
    func durationEndsOnTime() throws {
        let server = try startServer()
        defer { server.stop() }
        var configuration = loadConfiguration(port: server.port, concurrency: 6, duration: 1.5)
        // Enough thinking that the bots do not keep both cores busy for the whole duration: games still
        // finish and flips are still in flight when it ends, which is what is checked.
        configuration.thinkMilliseconds = 20
        let started = Date()
        let report = try runToEnd(LoadRunner(configuration: configuration), within: 10)
        let elapsed = Date().timeIntervalSince(started)

        // The upper bounds are generous: they show the run stops by itself, not how fast a busy machine is.
        #expect(report.durationSeconds >= 1.5 && report.durationSeconds < 1.5 + 2, "measured \(report.durationSeconds) s")
        #expect(elapsed < 1.5 + 6, "the goodbyes took \(elapsed - report.durationSeconds) s")
        #expect(report.flips > 0 && report.games > 0)
        #expect(report.errorCount == 0, "errors: \(report.errors)")
        #expect(report.gamesUnfinished <= 6)
        // Flips in flight at the end are not dropped from the latency: they are counted with their age.
        #expect(report.latency.count == UInt64(report.flips + report.unfinishedFlips))
        // Leaving a game in progress forfeits it: the server counts those as finished too.
        let finished = server.statistics().gamesFinished
        #expect(finished >= report.games && finished <= report.games + 6)
        try blockingWaitUntil("the server to close every connection") { server.statistics().connections == 0 }
    }

    @Test("With a think time, latency is counted from the intended send: the quickest answer comes back sooner than the think time, which no answer could if the wait were counted")
    func thinkTimeIsNotLatency() throws {
        let server = try startServer()
        defer { server.stop() }
        var configuration = loadConfiguration(port: server.port, concurrency: 4, games: 4)
        configuration.thinkMilliseconds = 100
        configuration.rules.pairs = 2
        let report = try runToEnd(LoadRunner(configuration: configuration))
        #expect(report.games == 4)
        // Were the 100 ms wait before each flip counted, no latency could be below it; one loopback round
        // trip of the dozens here under it shows it is not. (A bound on what is counted, not on speed.)
        #expect(report.latency.count > 0 && report.latency.min < 100_000_000, "quickest \(report.latency.min) ns")
        #expect(report.durationSeconds > 0.1 * Double(report.flips) / 4 * 0.9)
    }

    @Test("--rate paces each connection, and the pacing wait is the bot's own, not counted as latency")
    func ratePacing() throws {
        let server = try startServer()
        defer { server.stop() }
        var configuration = loadConfiguration(port: server.port, concurrency: 1, duration: 1.2)
        configuration.ratePerConnection = 5
        let report = try runToEnd(LoadRunner(configuration: configuration))
        // Two connections at 5 requests a second for 1.2 s, joins and rematches included: pacing bounds
        // what is sent from above; a busy machine may send fewer, so below only that play happened.
        #expect(report.flipsSent > 0 && report.flipsSent <= 2 * 5 * 12 / 10 + 2, "sent \(report.flipsSent)")
        // Were the 200 ms between requests counted, most latencies would be about that long; a median under
        // half of it shows the wait is not counted. (A bound on what is counted, not on speed.)
        #expect(report.latency.count > 0 && report.latency.value(atQuantile: 0.5) < 100_000_000,
                "median \(report.latency.value(atQuantile: 0.5)) ns")
        #expect(report.errorCount == 0)
    }

    @Test("A server with a low rate limit answers rate_limited: the run counts it, resends, and still finishes every game")
    func rateLimitedIsCounted() throws {
        let server = try startServer { $0.lobby.rateLimit = RateLimit(messagesPerSecond: 4) }
        defer { server.stop() }
        // Eight games on four connections send at least 48 requests whatever the deals (four joins, two
        // rematches for each game after a room's first, at least four flips a game on two pairs), so one
        // connection sends at least 12, past its burst of 8 however lucky the games. Four games could take
        // 24, 6 a connection, and a run on lucky deals was never limited.
        var configuration = loadConfiguration(port: server.port, concurrency: 2, games: 8)
        configuration.rules.pairs = 2
        let report = try runToEnd(LoadRunner(configuration: configuration))

        #expect(report.errors["rate_limited", default: 0] > 0, "errors: \(report.errors)")
        #expect(report.resends > 0)
        #expect(report.games == 8)
        #expect(report.gamesAbandoned == 0, "dropped: \(report.connectionsDropped)")
        #expect(report.errors.keys.allSatisfy { $0 == "rate_limited" }, "errors: \(report.errors)")
        #expect(server.statistics().gamesFinished == 8)
    }

    @Test("Connections the server refuses (server_full) are counted, their games abandoned, and the other games finish the run")
    func serverFull() throws {
        let server = try startServer { $0.maxConnections = 14 }
        defer { server.stop() }
        let runner = try LoadRunner(configuration: loadConfiguration(port: server.port, concurrency: 10, games: 30))
        let report = try runToEnd(runner)

        #expect(report.connectionFailureCount == 6, "failures: \(report.connectionFailures)")
        #expect(report.connectionFailures.keys.allSatisfy { ["bye server_full", "ECONNRESET", "closed"].contains($0) },
                "failures: \(report.connectionFailures)")
        #expect((3...6).contains(report.gamesAbandoned))
        #expect(report.games == 30)
        #expect(report.errorCount == 0, "errors: \(report.errors)")
    }

    @Test("A connection cut mid-run is reported as dropped, its game abandoned, and the remaining games play on")
    func droppedMidRun() throws {
        let server = try startServer()
        defer { server.stop() }
        let proxy = try TCPProxy(serverPort: server.port)
        defer { proxy.close() }
        var configuration = loadConfiguration(port: proxy.port, concurrency: 4, games: 60)
        configuration.thinkMilliseconds = 1
        let runner = try LoadRunner(configuration: configuration)
        let done = DispatchSemaphore(value: 0)
        let box = ReportBox()
        runner.start { report in
            box.set(report)
            done.signal()
        }
        try blockingWaitUntil("games under way") { server.statistics().flips >= 40 }
        #expect(proxy.accepted == 8)
        proxy.cut(0)
        guard done.wait(timeout: .now() + 60) == .success, let report = box.get() else {
            runner.stop()
            throw TimedOut(what: "the report")
        }

        #expect(report.connectionDropCount == 1, "dropped: \(report.connectionsDropped)")
        #expect(report.gamesAbandoned == 1)
        #expect(report.games == 60)
        #expect(report.connectionFailureCount == 0)
    }

    @Test("When every connection is refused the run ends at once and says so in the report")
    func nothingListening() throws {
        let (fd, port) = try Loopback.bind()
        defer { close(fd) }
        let report = try runToEnd(LoadRunner(configuration: loadConfiguration(port: port, concurrency: 3, games: 5)), within: 10)
        #expect(report.connectionsOpened == 0)
        // Both connections of a game may have been connecting when the first was refused.
        #expect(report.connectionFailures.keys.sorted() == ["ECONNREFUSED"])
        #expect((3...6).contains(report.connectionFailureCount))
        #expect(report.gamesAbandoned == 3)
        // It ends by itself rather than waiting out a timeout (generous, for a busy machine).
        #expect(report.durationSeconds < 8)
    }
}

