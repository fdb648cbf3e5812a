import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsLoad
import PairsRules
import PairsServer
import PairsTestSupport

/// A real server on 127.0.0.1 and a free port, with no rate limit, no reveal pause and small boards unless
/// `configure` says otherwise. Stop it with `stop()` (use `defer`).
func startServer(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> Server {
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.lobby.rateLimit = nil
    configuration.lobby.defaultRules = RuleSet(pairs: 4, turnSeconds: 30, revealMilliseconds: 0, againOnMatch: true)
    configuration.log.level = .error
    configure(&configuration)
    let server = Server(configuration: configuration)
    try server.start()
    return server
}

/// A load run against `port` on 127.0.0.1, seeded, with a room prefix of its own, and bounded: every run
/// stops after `safetySeconds` even if its games never finish, so no test can hang on it.
func loadConfiguration(port: Int, concurrency: Int, games: Int? = nil, duration: Double? = nil,
                       safetySeconds: Double = 30) -> LoadConfiguration {
    var configuration = LoadConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = port
    configuration.concurrency = concurrency
    configuration.games = games
    configuration.durationSeconds = duration ?? safetySeconds
    configuration.seed = 42
    configuration.roomPrefix = "t\(nextPrefix())-"
    return configuration
}

private let prefixCounter = PrefixCounter()

private func nextPrefix() -> Int { prefixCounter.next() }

private final class PrefixCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

/// Runs `runner` to its end on another thread, waiting at most `seconds` for the report.
func runToEnd(_ runner: LoadRunner, within seconds: Double = 60) throws -> LoadReport {
    let done = DispatchSemaphore(value: 0)
    let box = ReportBox()
    runner.start { report in
        box.set(report)
        done.signal()
    }
    guard done.wait(timeout: .now() + seconds) == .success, let report = box.get() else {
        runner.stop()
        throw TimedOut(what: "the load run's report")
    }
    return report
}

final class ReportBox: @unchecked Sendable {
    private let lock = NSLock()
    private var report: LoadReport?
    func set(_ value: LoadReport) { lock.lock(); report = value; lock.unlock() }
    func get() -> LoadReport? { lock.lock(); defer { lock.unlock() }; return report }
}
