import Dispatch
import PairsPolling

/// A load run on `configuration.loops` event loops: the games dealt out among that many `LoadRunner`s, each
/// with its own serial queue and epoll set, so one `pairs load` process keeps as many cores busy as a
/// server on several loops needs. With one loop it is the one runner, as before loops existed.
///
/// Nothing is shared between the loops while they play: each counts into its own `LoadStatistics`. The
/// group's own queue reads the process's CPU time at each second's start (it is the whole process's, so no
/// loop can read its own), asks each loop for its progress counts once a second (`queue.sync` onto each
/// loop's queue: a hop per loop per second, never per flip), and once every loop has reported, merges their
/// counts exactly: histograms bucket by bucket, the timelines second by second on the group's seconds.
/// Every mutable property is used only on `queue`: that is the `@unchecked Sendable` promise.
public final class LoadRunGroup: @unchecked Sendable {
    /// How late the once-a-second tick may fire: the CPU reading marks its second a little late at worst.
    static let tickLeewayMilliseconds = 10

    public let configuration: LoadConfiguration
    /// One per loop in use (`configuration.loopsInUse`).
    let runners: [LoadRunner]
    private let queue = DispatchQueue(label: "pairs.load.group")

    /// The seconds of the whole run, carrying the CPU readings; the loops' counts are added at the end.
    private var timeline = LoadTimeline()
    private var startCPU = 0.0
    private var stopCPU = 0.0
    private var startServerCPU: Double?
    private var stopServerCPU: Double?
    private var ticker: DeadlineTimer?
    private var nextSecond = 1
    /// Loops still measuring; the run's measured span ends when the last one stops.
    private var loopsMeasuring = 0
    private var reports: [LoadReport?]
    private var progress: (@Sendable (String) -> Void)?
    private var completion: (@Sendable (LoadReport) -> Void)?

    /// Makes the loops (checking the run fits in the descriptor limit and resolving the server's address);
    /// nothing connects until `start`.
    public init(configuration: LoadConfiguration) throws(LoadError) {
        self.configuration = configuration
        var runners: [LoadRunner] = []
        do throws(LoadError) {
            if configuration.loopsInUse == 1 {
                runners.append(try LoadRunner(configuration: configuration))
            } else {
                for share in configuration.loopShares { runners.append(try LoadRunner(configuration: share)) }
            }
        } catch {
            // Each runner watches its sockets from the start (a thread of its own): the ones made let go of it.
            for runner in runners { runner.discard() }
            throw error
        }
        self.runners = runners
        reports = Array(repeating: nil, count: runners.count)
    }

    /// Starts the run. `progress` gets one line a second; `completion` gets the report once every loop's
    /// connections have said goodbye.
    public func start(progress: (@Sendable (String) -> Void)? = nil,
                      completion: @escaping @Sendable (LoadReport) -> Void) {
        guard runners.count > 1 else { return runners[0].start(progress: progress, completion: completion) }
        queue.async { [self] in
            guard self.completion == nil, loopsMeasuring == 0 else { return }
            self.progress = progress
            self.completion = completion
            begin()
        }
    }

    /// Ends the run early (Ctrl-C): every loop stops, and the report follows.
    public func stop() {
        guard runners.count > 1 else { return runners[0].stop() }
        queue.async { [self] in
            for runner in runners { runner.stop() }
        }
    }

    private func begin() {
        let start = MonotonicClock.nanoseconds()
        startCPU = ProcessCPU.ownSeconds()
        startServerCPU = configuration.serverPID.flatMap { ProcessCPU.seconds(ofProcess: $0) }
        timeline.begin(at: start, cpu: startCPU, serverCPU: startServerCPU)
        loopsMeasuring = runners.count
        let ticker = DeadlineTimer(queue: queue, leeway: .milliseconds(Self.tickLeewayMilliseconds)) { [self] in tick() }
        ticker.arm(atNanoseconds: timeline.startOfSecond(1))
        self.ticker = ticker
        for (index, runner) in runners.enumerated() {
            runner.start(asPartFrom: start,
                         finished: { [self] in queue.async { self.loopFinished() } },
                         completion: { [self] report in queue.async { self.loopCompleted(index, report) } })
        }
    }

    /// The start of each second: the CPU readings, and the progress line of every loop together.
    private func tick() {
        guard loopsMeasuring > 0 else { return }
        timeline.readCPU(second: nextSecond, cpu: ProcessCPU.ownSeconds(),
                         serverCPU: configuration.serverPID.flatMap { ProcessCPU.seconds(ofProcess: $0) })
        if let progress {
            var total = LoadProgress()
            for runner in runners { total.add(runner.queue.sync { runner.takeProgress() }) }
            progress(total.line(elapsed: Double(MonotonicClock.nanoseconds() - timeline.startOfSecond(0)) / 1e9))
        }
        nextSecond += 1
        ticker?.arm(atNanoseconds: timeline.startOfSecond(nextSecond))
    }

    /// A loop stopped measuring; when the last one has, the run's span ends and its CPU is read.
    private func loopFinished() {
        loopsMeasuring -= 1
        guard loopsMeasuring == 0 else { return }
        let now = MonotonicClock.nanoseconds()
        stopCPU = ProcessCPU.ownSeconds()
        stopServerCPU = configuration.serverPID.flatMap { ProcessCPU.seconds(ofProcess: $0) }
        ticker?.cancel()
        ticker = nil
        timeline.close(at: now, cpu: stopCPU, serverCPU: stopServerCPU)
    }

    /// A loop's report; once every loop's is in (each loop says it finished before it reports, on the same
    /// queue, so the span is closed by then), the merged one goes out.
    private func loopCompleted(_ index: Int, _ report: LoadReport) {
        reports[index] = report
        let all = reports.compactMap { $0 }
        guard all.count == runners.count, let completion else { return }
        self.completion = nil
        progress = nil
        completion(merged(all))
    }

    private func merged(_ parts: [LoadReport]) -> LoadReport {
        var report = parts[0]
        var counts = LoadStatistics()
        counts.timeline = timeline
        for part in parts { counts.add(part.counts) }
        report.counts = counts
        report.loops = parts.count
        report.concurrency = configuration.gamesInFlight
        report.durationSeconds = Double(timeline.durationNanoseconds) / 1e9
        report.connectionsRequested = parts.reduce(0) { $0 + $1.connectionsRequested }
        report.serverVersion = parts.lazy.compactMap(\.serverVersion).first
        report.cpuSeconds = stopCPU - startCPU
        if let start = startServerCPU, let stop = stopServerCPU { report.serverCPUSeconds = stop - start }
        return report
    }
}
