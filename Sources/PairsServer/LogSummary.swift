import PairsLobby
import PairsRules
import PairsWire

/// Whether the server is under load or churn, and the line that then replaces a line per event.
///
/// Per-game lines (game over, forfeit) are the ones that grow with load: a connection joins once and may
/// play hundreds of games. So the log writes them one by one until a summary interval has had
/// `LogSummaryPolicy.gameLinesPerInterval` of them: that is what "under load" means. The rest of that
/// interval's are held back (written only at `--log-level debug`), and when the interval ends one summary
/// line gives connections, rooms, games finished and flips a second.
///
/// Per-connection lines (join, disconnect, room_open, http, ...) grow with churn instead: a client that
/// connects, joins and closes in a loop makes several a cycle. Each kind of them (each event name) has a
/// token bucket: a burst written at once, then a steady rate (`LogSummaryPolicy.connectionLineBurst`,
/// `connectionLinesPerSecond`). Past it that kind's lines are held back too, counted by kind, and the
/// interval ends with the summary line saying how many of each. Only info lines are ever held: warnings
/// and errors are always written.
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
        /// Per-connection lines not written at the default level, by event name; kinds with none are left out.
        var connectionLinesHeld: [String: Int] = [:]
    }

    /// One kind of per-connection line: its bucket, and how many the interval held back.
    private struct ConnectionLines {
        var bucket: TokenBucket
        var held = 0
    }

    let policy: LogSummaryPolicy
    private var start: Moment
    private var gamesFinishedAtStart: Int
    private var flipsAtStart: Int
    private var gameLines = 0
    private var connectionLines: [String: ConnectionLines] = [:]

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

    /// Counts a per-connection line of the event `name` at `now`: true while its kind is within its burst
    /// and rate, so the line is written at the default level; false while the server is under churn.
    mutating func admitConnectionLine(_ name: String, at now: Moment) -> Bool {
        if connectionLines[name] == nil {
            let bucket = TokenBucket(ratePerSecond: policy.connectionLinesPerSecond, burst: Double(policy.connectionLineBurst), now: now)
            connectionLines[name] = ConnectionLines(bucket: bucket)
        }
        if connectionLines[name]!.bucket.take(at: now) { return true }
        connectionLines[name]!.held += 1
        return false
    }

    /// Ends the interval at `now` and starts the next: the report when the interval was under load or
    /// churn, else nil.
    mutating func endInterval(at now: Moment, statistics: ServerStatistics) -> Report? {
        let held = connectionLines.filter { $0.value.held > 0 }.mapValues(\.held)
        defer {
            start = now
            gamesFinishedAtStart = statistics.gamesFinished
            flipsAtStart = statistics.flips
            gameLines = 0
            for name in held.keys { connectionLines[name]?.held = 0 }
        }
        guard gameLines > policy.gameLinesPerInterval || !held.isEmpty else { return nil }
        let milliseconds = max(1, start.milliseconds(until: now))
        let flips = Double(statistics.flips - flipsAtStart)
        return Report(
            connections: statistics.connections, rooms: statistics.rooms, gamesActive: statistics.gamesActive,
            gamesFinished: statistics.gamesFinished - gamesFinishedAtStart,
            flipsPerSecond: (flips * 10_000 / Double(milliseconds)).rounded() / 10,
            gameLinesHeld: max(0, gameLines - policy.gameLinesPerInterval),
            seconds: (Double(milliseconds) / 100).rounded() / 10, connectionLinesHeld: held)
    }
}

/// When the log counts the server as under load or churn, and how often it then says how busy it is.
public struct LogSummaryPolicy: Sendable, Hashable {
    /// How often a summary line is written under load: 10 s is often enough to follow a load test as it
    /// runs, and a day of it is 8,640 lines, where a line per game would be millions.
    public var intervalMilliseconds: Int64 = 10_000
    /// Per-game lines an interval writes at the default level before the server counts as under load: 20
    /// in 10 s, two games a second, is more than a LAN's tables of people finish (a game takes minutes)
    /// and still a screenful someone reads. Past that it is bots or a load test, where a line per game
    /// would be unreadable and cost the server real time.
    public var gameLinesPerInterval = 20
    /// Lines of one per-connection event (join, disconnect, http, ...) written at once before its rate
    /// applies: 50 lets a LAN's crowd arriving together, a few dozen people, be written whole.
    public var connectionLineBurst = 50
    /// Lines a second of one per-connection event once its burst is spent: 5, one every 200 ms, is more
    /// than people connecting by hand make, and holds a churn of thousands a second to at most 100 lines
    /// of each kind in a 10 s interval (burst and rate), plus one summary line.
    public var connectionLinesPerSecond = 5.0

    public init() {}
}
