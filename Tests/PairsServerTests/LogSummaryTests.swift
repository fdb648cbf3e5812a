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

    @Test("a running server ends its intervals on its timer: under load, summary lines instead of game lines at info, and both at debug",
          arguments: [LogLevel.info, .debug])
    func serverWritesSummaries(level: LogLevel) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pairs.log")
        let server = try startServer {
            $0.logLevel = level
            $0.logDestination = .file(try! LogFile(path: path))
            // Every finished game puts the server under load, and an interval ends every 100 ms.
            $0.logSummary.gameLinesPerInterval = 0
            $0.logSummary.intervalMilliseconds = 100
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
            $0.logLevel = .info
            $0.logDestination = .file(try! LogFile(path: path))
            $0.logSummary.gameLinesPerInterval = 0
            // Longer than the test: only the stop can end the interval.
            $0.logSummary.intervalMilliseconds = 600_000
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
