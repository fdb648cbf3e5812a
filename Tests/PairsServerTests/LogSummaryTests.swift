import Foundation
import PairsLobby
import PairsRules
@testable import PairsServer
import PairsTestSupport
import PairsWire
import Testing

/// The summary that replaces per-game lines under load: on a clock of the test's own, then on a running
/// server with a short interval.
@Suite("The summary under load", .ownThread)
struct LogSummaryTests {
    private func counters(games: Int, flips: Int) -> ServerStatistics {
        var statistics = ServerStatistics()
        statistics.connections = 40
        statistics.rooms = 20
        statistics.gamesActive = 18
        statistics.gamesFinished = games
        statistics.flips = flips
        return statistics
    }

    @Test("up to the budget, every per-game line is written and the interval ends without a summary")
    func withinBudget() {
        let start = Moment(milliseconds: 5_000)
        var summary = LogSummary(policy: LogSummaryPolicy(), at: start, statistics: counters(games: 0, flips: 0))
        let budget = LogSummaryPolicy().gameLinesPerInterval
        #expect(budget == 20)
        #expect((0..<budget).allSatisfy { _ in summary.admitGameLine() })
        #expect(summary.endInterval(at: start.adding(milliseconds: 10_000), statistics: counters(games: 20, flips: 500)) == nil)
    }

    @Test("past the budget the rest of the interval's lines are held, and the interval ends with connections, rooms, games finished and flips a second")
    func pastBudget() {
        let start = Moment(milliseconds: 5_000)
        var summary = LogSummary(policy: LogSummaryPolicy(), at: start, statistics: counters(games: 100, flips: 1_000))
        let admitted = (0..<25).map { _ in summary.admitGameLine() }
        #expect(admitted == Array(repeating: true, count: 20) + Array(repeating: false, count: 5))
        let end = start.adding(milliseconds: 10_000)
        let report = summary.endInterval(at: end, statistics: counters(games: 125, flips: 1_625))
        #expect(report == LogSummary.Report(connections: 40, rooms: 20, gamesActive: 18, gamesFinished: 25,
                                            flipsPerSecond: 62.5, gameLinesHeld: 5, seconds: 10))
        // The next interval starts afresh: its budget is whole again, and its rates count from here.
        let admittedAfter = summary.admitGameLine()
        #expect(admittedAfter)
        #expect(summary.endInterval(at: end.adding(milliseconds: 10_000), statistics: counters(games: 126, flips: 1_700)) == nil)
    }

    @Test("under churn each kind of per-connection line is written up to its burst, then at its rate, and the interval's summary counts the rest by kind")
    func churnOnAManualClock() {
        let policy = LogSummaryPolicy()
        #expect(policy.connectionLineBurst == 50 && policy.connectionLinesPerSecond == 5)
        let start = Moment(milliseconds: 5_000)
        var summary = LogSummary(policy: policy, at: start, statistics: counters(games: 0, flips: 0))
        // 4,000 joins and 4,000 disconnects in 10 s, one of each every 2.5 ms (in tenths of a millisecond).
        var written = ["join": 0, "disconnect": 0]
        for tick in 0..<4_000 {
            let now = start.adding(milliseconds: Int64(tick * 25 / 10))
            for name in ["join", "disconnect"] where summary.admitConnectionLine(name, at: now) { written[name]! += 1 }
        }
        // The burst of 50, then 5 a second for the 9.9975 s the churn lasted: 49 more.
        #expect(written == ["join": 99, "disconnect": 99])
        let end = start.adding(milliseconds: 10_000)
        let report = summary.endInterval(at: end, statistics: counters(games: 0, flips: 0))
        #expect(report?.connectionLinesHeld == ["join": 3_901, "disconnect": 3_901])
        #expect(report?.gameLinesHeld == 0)
        // The next interval goes on at the rate from where the bucket stood: 0.985 of a token was left at
        // 9,997 ms, and 3.515 more come by 10,700 ms, so 4 lines of 10.
        let next = (0..<10).map { _ in summary.admitConnectionLine("join", at: end.adding(milliseconds: 700)) }
        #expect(next.filter { $0 }.count == 4)
        #expect(summary.endInterval(at: end.adding(milliseconds: 10_000), statistics: counters(games: 0, flips: 0))?.connectionLinesHeld
            == ["join": 6])
        // A quiet interval ends without a summary.
        #expect(summary.endInterval(at: end.adding(milliseconds: 20_000), statistics: counters(games: 0, flips: 0)) == nil)
    }

    @Test("past their rate, info lines of a kind are held; warnings are always written, whatever their number")
    func warningsAreNeverHeld() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pairs.log")
        var policy = LogSummaryPolicy()
        policy.connectionLineBurst = 2
        policy.connectionLinesPerSecond = 0
        let log = ServerLog(level: .info, format: .text, destination: .file(try LogFile(path: path)), summary: policy)
        let who = LoggedConnection(id: ConnectionID(1, slot: 0), name: "ann", peer: "127.0.0.1:40001")
        for _ in 0..<10 {
            log.write(LogEntry(.info, .joined(who, room: "r", seat: .first)))
            log.write(LogEntry(.warning, .wrongPassword(who, name: "ann", inARow: 1)))
            log.write(.info, .http(who.id, peer: who.peer, request: .read(method: "GET", path: "/"), status: 200))
        }
        let lines = try logLines(at: path)
        #expect(lines.filter { $0.event == "join" }.count == 2)
        #expect(lines.filter { $0.event == "http" }.count == 2)
        #expect(lines.filter { $0.event == "wrong_password" }.count == 10)
    }

    @Test("a churn of connect, join, leave and close over TCP writes each kind's burst and one summary with the right counts",
          .timeLimit(.minutes(2)))
    func churnOverTCP() throws {
        let cycles = 2_000
        let burst = 10
        let directory = try TemporaryDirectory()
        let path = directory.file("pairs.log")
        let server = try startServer {
            $0.log.level = .info
            $0.log.destination = .file(try! LogFile(path: path))
            // A burst and no rate: exactly `burst` lines of each kind, however long the churn takes.
            $0.log.summary.connectionLineBurst = burst
            $0.log.summary.connectionLinesPerSecond = 0
            // Longer than the test: only the stop ends the interval.
            $0.log.summary.intervalMilliseconds = 600_000
        }
        for cycle in 0..<cycles {
            let client = try TestClient(port: server.port)
            client.sendRaw(Array("join churn\(cycle)\nleave\n".utf8))
            client.close()
        }
        try blockingWaitUntil("every cycle's join and leave handled, and every connection gone", within: 60) {
            let statistics = server.statistics()
            return statistics.messagesIn == 2 * cycles && statistics.connections == 0 && statistics.rooms == 0
        }
        server.stop()
        let lines = try logLines(at: path)
        let summaries = lines.filter { $0.event == "summary" }
        #expect(summaries.count == 1)
        for event in ["room_open", "join", "leave", "room_close", "disconnect"] {
            #expect(lines.filter { $0.event == event }.count == burst, "\(event)")
            #expect(summaries.first?.value("\(event)_lines_held") == String(cycles - burst), "\(event)")
        }
        #expect(lines.filter { $0.event == "disconnect" }.allSatisfy { $0.value("reason") == "quit" })
        #expect(lines.count == 5 * burst + 4, "listening, the lines within the bursts, summary, shutdown, stopped: \(lines.map(\.event))")
    }

    @Test("a running server ends its intervals on its timer: under load, summary lines instead of game lines at info, and both at debug",
          arguments: [LogLevel.info, .debug])
    func serverWritesSummaries(level: LogLevel) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pairs.log")
        let server = try startServer {
            $0.log.level = level
            $0.log.destination = .file(try! LogFile(path: path))
            // Every finished game puts the server under load, and an interval ends every 100 ms.
            $0.log.summary.gameLinesPerInterval = 0
            $0.log.summary.intervalMilliseconds = 100
        }
        defer { server.stop() }
        for room in ["a", "b"] {
            let (first, second) = try seatedPair(on: server, room: room)
            _ = try playToEnd([first, second])
        }
        var lines: [ReadTextLine] = []
        try blockingWaitUntil("summaries counting both games") {
            lines = try logLines(at: path)
            return lines.filter { $0.event == "summary" }.compactMap { Int($0.value("games_finished") ?? "") }.reduce(0, +) == 2
        }
        let summaries = lines.filter { $0.event == "summary" }
        #expect(summaries.compactMap { Int($0.value("game_lines_held") ?? "") }.reduce(0, +) == 2)
        #expect(summaries.allSatisfy { $0.level == "info" && $0.value("connections") != nil && $0.value("flips_per_second") != nil })
        #expect(lines.filter { $0.event == "game_over" }.count == (level == .debug ? 2 : 0))
    }

    @Test("a server stopping under load ends the interval under way with a summary, so no held line goes uncounted")
    func stopEndsTheInterval() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pairs.log")
        let server = try startServer {
            $0.log.level = .info
            $0.log.destination = .file(try! LogFile(path: path))
            $0.log.summary.gameLinesPerInterval = 0
            // Longer than the test: only the stop can end the interval.
            $0.log.summary.intervalMilliseconds = 600_000
        }
        let (first, second) = try seatedPair(on: server, room: "last")
        _ = try playToEnd([first, second])
        server.stop()
        let lines = try logLines(at: path)
        #expect(lines.suffix(2).map(\.event) == ["summary", "stopped"])
        #expect(lines.first { $0.event == "summary" }?.value("games_finished") == "1")
        #expect(lines.first { $0.event == "summary" }?.value("game_lines_held") == "1")
        #expect(!lines.contains { $0.event == "game_over" })
    }
}

/// The whole lines of a text log file so far (none if there is no file yet).
func logLines(at path: String) throws -> [ReadTextLine] {
    var bytes = Array(FileManager.default.contents(atPath: path) ?? Data())
    // A line being written as the file is read is left for the next look.
    while let last = bytes.last, last != UInt8(ascii: "\n") { bytes.removeLast() }
    return try bytes.split(separator: UInt8(ascii: "\n")).map { try ReadTextLine(Array($0) + [UInt8(ascii: "\n")]) }
}

extension ReadTextLine {
    /// The value of the field `key`, if the line has it.
    func value(_ key: String) -> String? {
        fields.first { $0.key == key }?.value
    }
}
