import Dispatch
import PairsLobby
import PairsPolling
import PairsRules
import PairsWire

/// The operator's log: decides which events become lines, formats them (`LogLine`) and writes them to
/// standard error or the log file, one `write(2)` per line so lines from different threads never
/// interleave.
///
/// Nothing is formatted for a line that is not written: a level check (and under load or churn, the
/// summary's budgets for per-game and per-connection lines) comes before any string is built, and the lobby's events are typed values
/// until then. Nothing is logged per message or per flip at any level.
///
/// Every loop writes to it (the summary's budgets are behind a lock); the summary's timer and the log file's
/// reopening run on one queue: the loop's with one loop, the log's own with several. (The listening line is written before the queue
/// serves anything, by the thread that starts the server.)
final class ServerLog: @unchecked Sendable {
    let level: LogLevel
    let format: LogFormat
    let destination: LogDestination
    /// Behind a lock: every loop writes lines, and counts them against the summary's budgets.
    private let summary: PthreadLocked<LogSummary>
    private var summaryTimer: DispatchSourceTimer?
    /// The lobby's counters, for the summary; set while summaries run.
    private var statistics: (() -> ServerStatistics)?

    init(level: LogLevel, format: LogFormat, destination: LogDestination, summary policy: LogSummaryPolicy) {
        self.level = level
        self.format = format
        self.destination = destination
        summary = PthreadLocked(LogSummary(policy: policy, at: MonotonicClock.now(), statistics: ServerStatistics()))
    }

    deinit {
        summaryTimer?.cancel()
    }

    convenience init(_ configuration: ServerConfiguration) {
        self.init(level: configuration.log.level, format: configuration.log.format, destination: configuration.log.destination,
                  summary: configuration.log.summary)
    }

    /// Whether lines of `severity` are written.
    func writes(_ severity: LogLevel) -> Bool { severity >= level }

    /// A line the lobby asked for. Per-game lines count against the summary's budget whatever the level,
    /// so that the summary says when the server is under load; beyond the budget they are written only at
    /// debug level. Other info lines are per connection, and beyond their kind's rate likewise.
    func write(_ entry: LogEntry) {
        if entry.event.isPerGame {
            if !summary.withLock({ $0.admitGameLine() }), level > .debug { return }
        } else if entry.level == .info, writes(.info), !admitConnectionLine(entry.event.name) {
            return
        }
        guard writes(entry.level) else { return }
        emit(entry.level, entry.event.name, entry.event.fields)
    }

    /// A line of the transport's own. Its per-connection info lines (HTTP requests) are held under churn
    /// as the lobby's are.
    func write(_ severity: LogLevel, _ event: ServerEvent) {
        guard writes(severity) else { return }
        if severity == .info, event.isPerConnection, !admitConnectionLine(event.name) { return }
        emit(severity, event.name, event.fields)
    }

    /// Whether a per-connection info line is written: within its kind's rate, or at debug level, where
    /// every line is (and is still counted, so the summary says the server is under churn).
    private func admitConnectionLine(_ name: String) -> Bool {
        summary.withLock { $0.admitConnectionLine(name, at: MonotonicClock.now()) } || level == .debug
    }

    /// Starts ending a summary interval every `intervalMilliseconds` on `queue`, with the lobby's counters
    /// as `statistics` gives them. Nothing to do when info lines are not written.
    func startSummaries(on queue: DispatchQueue, statistics: @escaping () -> ServerStatistics) {
        guard writes(.info), summaryTimer == nil else { return }
        self.statistics = statistics
        let start = statistics()
        let policy = summary.withLock { summary in
            summary = LogSummary(policy: summary.policy, at: MonotonicClock.now(), statistics: start)
            return summary.policy
        }
        let interval = DispatchTimeInterval.milliseconds(Int(policy.intervalMilliseconds))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // A summary a few milliseconds late says the same; the slack lets the kernel batch the wakeup.
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.endSummaryInterval() }
        timer.activate()
        summaryTimer = timer
    }

    /// Stops the summaries, ending the interval under way: lines held back since the last summary (the
    /// forfeits of a shutdown under load, say) are still counted in one.
    func stopSummaries() {
        guard let timer = summaryTimer else { return }
        timer.cancel()
        summaryTimer = nil
        endSummaryInterval()
        statistics = nil
    }

    private func endSummaryInterval() {
        guard let statistics else { return }
        let now = statistics()
        if let report = summary.withLock({ $0.endInterval(at: MonotonicClock.now(), statistics: now) }) { write(.info, .summary(report)) }
    }

    /// Opens the log file again (after rotation), and says so in the new file; standard error needs nothing.
    func reopen() {
        guard case .file(let file) = destination else { return }
        do {
            try file.reopen()
            write(.info, .logReopened(path: file.path))
        } catch {
            write(.error, .logNotReopened(path: file.path, error: error.description))
        }
    }

    private func emit(_ severity: LogLevel, _ event: String, _ fields: [LogField]) {
        let line = LogLine.format(format, time: WallClock.now(), level: severity, event: event, fields: fields)
        switch destination {
        case .standardError: LogFile.write(line, to: 2)
        case .file(let file): file.write(line)
        }
    }
}
