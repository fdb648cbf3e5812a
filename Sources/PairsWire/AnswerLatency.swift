/// How long the server took to answer requests, counted in fixed buckets: from the moment the batch of
/// sockets a request came in was collected until its answers were written to the socket. Fixed buckets, so
/// recording is an increment, `stats` and `/metrics` send a bounded list, and any window's percentiles
/// follow from two snapshots' difference (as Prometheus's `histogram_quantile` and the dashboard do).
public struct AnswerLatency: Sendable, Hashable {
    /// Upper bounds of the buckets, in microseconds: an answer on an idle server takes tens of them, a busy
    /// server's batch a few milliseconds, and a stalled machine seconds, so the bounds span 50 µs to 2.5 s in
    /// roughly log steps (Prometheus's usual 1-2.5-5 series).
    public static let boundsMicroseconds: [Int] = [
        50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000,
    ]

    /// Answers per bucket, not cumulative, one more than the bounds: the last counts those above every bound.
    public private(set) var counts: [Int]
    /// Every recorded answer's time added up, in microseconds.
    public private(set) var sumMicroseconds = 0

    public init() {
        counts = Array(repeating: 0, count: Self.boundsMicroseconds.count + 1)
    }

    /// A histogram read back from its cumulative counts (as `stats` sends them); nil when they are not one
    /// more than the bounds or go down.
    public init?(cumulativeCounts: [Int], sumMicroseconds: Int) {
        guard cumulativeCounts.count == Self.boundsMicroseconds.count + 1 else { return nil }
        var previous = 0
        var counts: [Int] = []
        for total in cumulativeCounts {
            guard total >= previous else { return nil }
            counts.append(total - previous)
            previous = total
        }
        self.counts = counts
        self.sumMicroseconds = sumMicroseconds
    }

    /// Counts `answers` that each took `microseconds`. No allocation: the counts are only incremented.
    public mutating func record(microseconds: Int, answers: Int) {
        var index = 0
        let bounds = Self.boundsMicroseconds
        while index < bounds.count, microseconds > bounds[index] { index += 1 }
        counts[index] += answers
        sumMicroseconds += microseconds * answers
    }

    /// Answers recorded.
    public var count: Int { counts.reduce(0, +) }

    /// Answers at or under each bound, and (last) all of them: Prometheus's `le` buckets, `+Inf` last.
    public var cumulativeCounts: [Int] {
        var total = 0
        return counts.map { total += $0; return total }
    }
}

extension AnswerLatency {
    /// Adds `other`'s answers: the histogram of a server with several event loops is their sum.
    public mutating func add(_ other: AnswerLatency) {
        for index in counts.indices { counts[index] += other.counts[index] }
        sumMicroseconds += other.sumMicroseconds
    }
}
