/// What a load run counts while it runs: games, flips, latency, errors, connections. The runner's queue
/// alone changes it; a `LoadReport` carries the final counts out, read-only.
public struct LoadStatistics: Sendable {
    /// Every flip's latency, from its intended send to the state carrying its id.
    public internal(set) var latency = LatencyHistogram()
    /// The latencies since the last progress line.
    var recentLatency = LatencyHistogram()

    public internal(set) var flipsSent = 0
    /// Flips answered by their state: the run's throughput.
    public internal(set) var flips = 0
    /// Flips the server refused with an error other than `rate_limited` (the bot then decides again).
    public internal(set) var flipsRefused = 0
    /// Requests sent again after `rate_limited`.
    public internal(set) var resends = 0
    /// Flips still unanswered when the run ended or their game was abandoned, and the oldest one's age.
    public internal(set) var unfinishedFlips = 0
    public internal(set) var unfinishedMaxNanoseconds: UInt64 = 0

    public internal(set) var games = 0
    /// In a tournament: games the server made (the `joined` of seat 0), and how long each session waited
    /// for each of its seats, from its `tournament_join` or the end of its last game to its next `joined`.
    public internal(set) var pairings = 0
    public internal(set) var freeToPaired = LatencyHistogram()
    /// Bytes read from the server, every message counted (states, `tournament` pushes, answers).
    public internal(set) var bytesReceived = 0
    /// Of those, the `tournament` lines (newlines included), and how many: what the standings pushes cost.
    public internal(set) var tournamentBytes = 0
    public internal(set) var tournamentLines = 0
    public internal(set) var gamesForfeited = 0
    public internal(set) var gamesAbandoned = 0
    public internal(set) var gamesUnfinished = 0

    /// `error` replies by code.
    public internal(set) var errors: [String: Int] = [:]
    public internal(set) var errorCount = 0

    public internal(set) var connectionsOpened = 0
    /// Connections that never took their seat, by why: an errno name (`ECONNREFUSED`), `bye server_full`,
    /// `join room_full`, `closed`.
    public internal(set) var connectionFailures: [String: Int] = [:]
    /// Connections lost after taking their seat, by why.
    public internal(set) var connectionsDropped: [String: Int] = [:]

    /// The same counts second by second, and the CPU each second used.
    public internal(set) var timeline = LoadTimeline()

    /// Lines neither the scanner nor the decoder could read (a server bug, or a newer protocol).
    public internal(set) var unreadableLines = 0

    /// A flip answered at `now` after `nanoseconds`.
    mutating func countFlip(latency nanoseconds: UInt64, at now: UInt64) {
        latency.record(nanoseconds)
        recentLatency.record(nanoseconds)
        flips += 1
        timeline.recordLatency(nanoseconds, at: now)
        timeline.countFlip(at: now)
    }

    /// A flip given up at `now`, unanswered after `age` nanoseconds.
    mutating func recordUnfinished(age: UInt64, at now: UInt64) {
        unfinishedFlips += 1
        unfinishedMaxNanoseconds = max(unfinishedMaxNanoseconds, age)
        // A flip that never came back took at least this long: leaving it out would flatter the server.
        latency.record(age)
        timeline.recordLatency(age, at: now)
    }

    mutating func countGame(forfeit: Bool, at now: UInt64) {
        games += 1
        if forfeit { gamesForfeited += 1 }
        timeline.countGame(at: now)
    }

    /// A session seated at `now` after waiting `wait` nanoseconds since it was free; `makesPairing` for the
    /// one session of each game that counts it (seat 0).
    mutating func countSeat(afterWaiting wait: UInt64?, makesPairing: Bool) {
        if let wait { freeToPaired.record(wait) }
        if makesPairing { pairings += 1 }
    }

    mutating func count(error code: String, at now: UInt64) {
        errors[code, default: 0] += 1
        errorCount += 1
        timeline.countError(at: now)
    }

    /// A connection that never took its seat, and why.
    mutating func countFailure(_ reason: String, at now: UInt64) {
        connectionFailures[reason, default: 0] += 1
        timeline.countFailure(at: now)
    }

    /// A connection lost after taking its seat, and why.
    mutating func countDrop(_ reason: String, at now: UInt64) {
        connectionsDropped[reason, default: 0] += 1
        timeline.countDrop(at: now)
    }

    /// Adds another loop's counts, exactly: the latency histograms bucket by bucket, the timeline second by
    /// second (`LoadTimeline.add`), the counts by code and reason key by key.
    mutating func add(_ other: LoadStatistics) {
        latency.add(other.latency)
        recentLatency.add(other.recentLatency)
        flipsSent += other.flipsSent
        flips += other.flips
        flipsRefused += other.flipsRefused
        resends += other.resends
        unfinishedFlips += other.unfinishedFlips
        unfinishedMaxNanoseconds = max(unfinishedMaxNanoseconds, other.unfinishedMaxNanoseconds)
        games += other.games
        pairings += other.pairings
        freeToPaired.add(other.freeToPaired)
        bytesReceived += other.bytesReceived
        tournamentBytes += other.tournamentBytes
        tournamentLines += other.tournamentLines
        gamesForfeited += other.gamesForfeited
        gamesAbandoned += other.gamesAbandoned
        gamesUnfinished += other.gamesUnfinished
        errors.merge(other.errors, uniquingKeysWith: +)
        errorCount += other.errorCount
        connectionsOpened += other.connectionsOpened
        connectionFailures.merge(other.connectionFailures, uniquingKeysWith: +)
        connectionsDropped.merge(other.connectionsDropped, uniquingKeysWith: +)
        timeline.add(other.timeline)
        unreadableLines += other.unreadableLines
    }
}
