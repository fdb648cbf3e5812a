/// What happened in one second of a load run, counted as it happened.
public struct LoadSecond: Sendable, Equatable {
    /// Flips answered by their state.
    public internal(set) var flips = 0
    public internal(set) var games = 0
    /// `error` replies.
    public internal(set) var errors = 0
    /// Connections lost after taking their seat, and connections that never took one.
    public internal(set) var connectionsDropped = 0
    public internal(set) var connectionsFailed = 0
    /// The latencies counted in this second: answered flips, and unanswered ones at their age.
    public internal(set) var latency = LatencyHistogram.Compact()
    /// CPU seconds used in this second by the load client and the server; nil where a reading is missing
    /// (no `--server-pid`, or a tick that came too late to mark the second's edge).
    public internal(set) var cpuSeconds: Double?
    public internal(set) var serverCPUSeconds: Double?

    public init() {}
}

/// A run's seconds, by the runner's clock: every count of `LoadStatistics` is also counted in the second
/// its moment falls in, so a p99 spike at second 41 shows, and the seconds add up to the run's totals.
///
/// The second being counted keeps a whole `LatencyHistogram` (one more bucket increment per flip, no
/// allocation); when the clock passes its end it is kept as its non-empty buckets only.
public struct LoadTimeline: Sendable {
    static let nanosecondsPerSecond: UInt64 = 1_000_000_000
    /// A last second shorter than this is counted into the one before: a sliver of a second (the run's end
    /// lands a moment past a whole number of seconds) would chart a rate from a few milliseconds.
    static let shortestLastSecondNanoseconds: UInt64 = 500_000_000

    /// The seconds that are over, then (once `close` is called) the last one.
    public private(set) var seconds: [LoadSecond] = []
    /// Nanoseconds from the first second's start to the run's end; 0 until `close`.
    public private(set) var durationNanoseconds: UInt64 = 0

    private var start: UInt64 = 0
    /// The end of the second being counted; `.max` before the run starts and after it ends, so every
    /// count lands in the current second.
    private var currentEnd: UInt64 = .max
    private var current = LoadSecond()
    private var currentLatency = LatencyHistogram()
    /// Cumulative CPU readings at the start of a second (index), for the per-second differences.
    private var cpuReadings: [Int: (load: Double, server: Double?)] = [:]
    /// Whether `close` has been called: later counts go to the last second.
    private var isClosed = false

    public init() {}

    /// Starts the first second at `now`, with the CPU used so far.
    mutating func begin(at now: UInt64, cpu: Double, serverCPU: Double?) {
        start = now
        currentEnd = now + Self.nanosecondsPerSecond
        cpuReadings[0] = (cpu, serverCPU)
    }

    /// The moment of second `index`'s start, for the runner's tick.
    func startOfSecond(_ index: Int) -> UInt64 {
        start + UInt64(index) * Self.nanosecondsPerSecond
    }

    /// The second being counted after `now`; the seconds before it are closed.
    @inline(__always)
    mutating func at(_ now: UInt64) -> Int {
        if now >= currentEnd { advance(to: now) }
        return seconds.count
    }

    private mutating func advance(to now: UInt64) {
        let index = Int((now - start) / Self.nanosecondsPerSecond)
        while seconds.count < index {
            closeCurrent()
        }
        currentEnd = startOfSecond(seconds.count + 1)
    }

    private mutating func closeCurrent() {
        current.latency = currentLatency.compact
        seconds.append(current)
        current = LoadSecond()
        currentLatency.reset()
    }

    /// The cumulative CPU readings at the tick that marks the start of second `second`.
    mutating func readCPU(second: Int, cpu: Double, serverCPU: Double?) {
        guard !isClosed else { return }
        cpuReadings[second] = (cpu, serverCPU)
    }

    /// Applies `update` to the second `now` falls in: the current one, or once the run is closed, the last.
    @inline(__always)
    private mutating func update(at now: UInt64, _ change: (inout LoadSecond) -> Void) {
        if isClosed {
            change(&seconds[seconds.count - 1])
        } else {
            _ = at(now)
            change(&current)
        }
    }

    @inline(__always)
    mutating func recordLatency(_ nanoseconds: UInt64, at now: UInt64) {
        if isClosed {
            // Rare (nothing is measured after the end today): the last second's buckets are rebuilt.
            var histogram = seconds[seconds.count - 1].latency.histogram
            histogram.record(nanoseconds)
            seconds[seconds.count - 1].latency = histogram.compact
        } else {
            _ = at(now)
            currentLatency.record(nanoseconds)
        }
    }

    mutating func countGame(at now: UInt64) { update(at: now) { $0.games += 1 } }
    mutating func countFlip(at now: UInt64) { update(at: now) { $0.flips += 1 } }
    mutating func countError(at now: UInt64) { update(at: now) { $0.errors += 1 } }
    mutating func countDrop(at now: UInt64) { update(at: now) { $0.connectionsDropped += 1 } }
    mutating func countFailure(at now: UInt64) { update(at: now) { $0.connectionsFailed += 1 } }

    /// Ends the run at `now` with the CPU used so far: the last second is kept (counted into the one
    /// before when it is a sliver) and the CPU differences are taken. Whatever is counted later (a goodbye
    /// answered with an error) lands in the last second.
    ///
    /// A loop of a run on several loops keeps even a sliver (`keepingSliver`), so each of its counts stays
    /// in the second it happened in until the run's own timeline, closed last, decides for the whole run.
    mutating func close(at now: UInt64, cpu: Double, serverCPU: Double?, keepingSliver: Bool = false) {
        guard !isClosed else { return }
        _ = at(now)
        durationNanoseconds = now &- start
        let lastLength = now &- startOfSecond(seconds.count)
        closeCurrent()
        isClosed = true
        cpuReadings[seconds.count] = (cpu, serverCPU)
        if !keepingSliver, seconds.count > 1, lastLength < Self.shortestLastSecondNanoseconds {
            let last = seconds.removeLast()
            cpuReadings[seconds.count] = cpuReadings[seconds.count + 1]
            seconds[seconds.count - 1].merge(last)
        }
        for index in seconds.indices {
            guard let from = cpuReadings[index], let to = cpuReadings[index + 1] else { continue }
            seconds[index].cpuSeconds = to.load - from.load
            if let server = to.server, let earlier = from.server { seconds[index].serverCPUSeconds = server - earlier }
        }
        cpuReadings = [:]
    }
}

extension LoadTimeline {
    /// Adds the counts of `other`, a closed timeline of another loop of the same run (begun at the same
    /// moment), second by second; the CPU readings are this timeline's own, since CPU time is the whole
    /// process's. This one closes last (the run's end, after every loop's); a loop's last second beyond its
    /// seconds (a sliver, which a loop keeps and this timeline counts into the second before) is counted
    /// into its last, as the sliver's counts of a run on one loop are.
    mutating func add(_ other: LoadTimeline) {
        precondition(isClosed && other.isClosed, "timelines are added once closed")
        for (index, second) in other.seconds.enumerated() {
            seconds[Swift.min(index, seconds.count - 1)].merge(second)
        }
    }
}

extension LoadSecond {
    /// Adds `other`'s counts to this second's.
    mutating func merge(_ other: LoadSecond) {
        flips += other.flips
        games += other.games
        errors += other.errors
        connectionsDropped += other.connectionsDropped
        connectionsFailed += other.connectionsFailed
        var histogram = latency.histogram
        histogram.add(other.latency)
        latency = histogram.compact
    }
}
