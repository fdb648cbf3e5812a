import PairsLobby
import PairsRules
import PairsWire

/// How long finished games wait for the store: each game from the moment it is handed to the writer to the
/// moment the writer says it is settled (`StorageEvent.settled`), as `stats`'s `store_latency_us` and
/// `/metrics`'s `pairs_store_write_duration_seconds`. Per game, never per flip.
struct CommitLatency {
    /// Games handed over and not yet settled, oldest first: the writer settles tickets in order.
    private var waiting: [(ticket: UInt64, since: Moment)] = []
    private(set) var histogram = AnswerLatency()

    mutating func submitted(_ ticket: UInt64, at now: Moment) {
        waiting.append((ticket, now))
    }

    /// Every game through `ticket` is committed (or lost, which the store counts as an error).
    mutating func settled(through ticket: UInt64, at now: Moment) {
        let done = waiting.prefix { $0.ticket <= ticket }
        for game in done {
            histogram.record(microseconds: Int(game.since.milliseconds(until: now)) * 1000, answers: 1)
        }
        waiting.removeFirst(done.count)
    }
}
