/// The counters of a load run while it runs. Used only on the runner's queue; `LoadReport` is what leaves.
struct LoadStatistics {
    /// Every flip's latency, from its intended send to the state carrying its id.
    var latency = LatencyHistogram()
    /// The latencies since the last progress line.
    var recentLatency = LatencyHistogram()

    var flipsSent = 0
    /// Flips answered by their state: the run's throughput.
    var flips = 0
    /// Flips the server refused with an error other than `rate_limited` (the bot then decides again).
    var flipsRefused = 0
    /// Requests sent again after `rate_limited`.
    var resends = 0
    /// Flips still unanswered when the run ended or their game was abandoned, and the oldest one's age.
    var unfinishedFlips = 0
    var unfinishedMaxNanoseconds: UInt64 = 0

    var games = 0
    var gamesForfeited = 0
    var gamesAbandoned = 0
    var gamesUnfinished = 0

    /// `error` replies by code.
    var errors: [String: Int] = [:]
    var errorCount = 0

    var connectionsOpened = 0
    /// Connections that never took their seat, by why: an errno name (`ECONNREFUSED`), `bye server_full`,
    /// `join room_full`, `closed`.
    var connectionFailures: [String: Int] = [:]
    /// Connections lost after taking their seat, by why.
    var connectionsDropped: [String: Int] = [:]

    /// Lines neither the scanner nor the decoder could read (a server bug, or a newer protocol).
    var unreadableLines = 0

    mutating func recordLatency(_ nanoseconds: UInt64) {
        latency.record(nanoseconds)
        recentLatency.record(nanoseconds)
    }

    mutating func recordUnfinished(age: UInt64) {
        unfinishedFlips += 1
        unfinishedMaxNanoseconds = max(unfinishedMaxNanoseconds, age)
        // A flip that never came back took at least this long: leaving it out would flatter the server.
        latency.record(age)
    }

    mutating func count(error code: String) {
        errors[code, default: 0] += 1
        errorCount += 1
    }
}
