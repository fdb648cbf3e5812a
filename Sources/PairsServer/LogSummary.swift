import PairsRules
import PairsWire

/// Whether the server is under load, and the line that then replaces a line per finished game.
///
/// Per-game lines (game over, forfeit) are the ones that grow with load: a connection joins once and may
/// play hundreds of games. So the log writes them one by one until a summary interval has had
/// `LogSummaryPolicy.gameLinesPerInterval` of them: that is what "under load" means. The rest of that
/// interval's are held back (written only at `--log-level debug`), and when the interval ends one summary
/// line gives connections, rooms, games finished and flips a second.
///
/// Pure: the server's timer ends each interval with the moment and the lobby's counters, so tests end
/// intervals on a clock of their own.
struct LogSummary {
    /// One interval under load, as the summary line says it.
    struct Report: Hashable {
        var connections: Int
        var rooms: Int
        var gamesActive: Int
        /// Games that ended during the interval.
        var gamesFinished: Int
        /// Flips during the interval over its length, to a tenth.
        var flipsPerSecond: Double
        /// Per-game lines not written at the default level.
        var gameLinesHeld: Int
        /// The interval's length, to a tenth of a second.
        var seconds: Double
    }

    let policy: LogSummaryPolicy
    private var start: Moment
    private var gamesFinishedAtStart: Int
    private var flipsAtStart: Int
    private var gameLines = 0

    init(policy: LogSummaryPolicy, at now: Moment, statistics: ServerStatistics) {
        self.policy = policy
        start = now
        gamesFinishedAtStart = statistics.gamesFinished
        flipsAtStart = statistics.flips
    }

    /// Counts a per-game line: true while the interval is within its budget, so the line is written at the
    /// default level; false once the interval is under load.
    mutating func admitGameLine() -> Bool {
        gameLines += 1
        return gameLines <= policy.gameLinesPerInterval
    }

    /// Ends the interval at `now` and starts the next: the report when the interval was under load, else nil.
    mutating func endInterval(at now: Moment, statistics: ServerStatistics) -> Report? {
        defer {
            start = now
            gamesFinishedAtStart = statistics.gamesFinished
            flipsAtStart = statistics.flips
            gameLines = 0
        }
        guard gameLines > policy.gameLinesPerInterval else { return nil }
        let milliseconds = max(1, start.milliseconds(until: now))
        let flips = Double(statistics.flips - flipsAtStart)
        return Report(
            connections: statistics.connections, rooms: statistics.rooms, gamesActive: statistics.gamesActive,
            gamesFinished: statistics.gamesFinished - gamesFinishedAtStart,
            flipsPerSecond: (flips * 10_000 / Double(milliseconds)).rounded() / 10,
            gameLinesHeld: gameLines - policy.gameLinesPerInterval,
            seconds: (Double(milliseconds) / 100).rounded() / 10)
    }
}

/// When the log counts the server as under load, and how often it then says how busy it is.
public struct LogSummaryPolicy: Sendable, Hashable {
    /// How often a summary line is written under load: 10 s is often enough to follow a load test as it
    /// runs, and a day of it is 8,640 lines, where a line per game would be millions.
    public var intervalMilliseconds: Int64 = 10_000
    /// Per-game lines an interval writes at the default level before the server counts as under load: 20
    /// in 10 s, two games a second, is more than a LAN's tables of people finish (a game takes minutes)
    /// and still a screenful someone reads. Past that it is bots or a load test, where a line per game
    /// would be unreadable and cost the server real time.
    public var gameLinesPerInterval = 20

    public init() {}
}
