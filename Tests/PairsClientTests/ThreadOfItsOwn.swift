import Foundation
import PairsTestSupport

/// How often a wait looks at its condition again. Short, so tests finish as soon as the condition holds.
let pollInterval: Duration = .milliseconds(20)

/// Waits until `condition` holds, looking every `pollInterval`, for at most `timeout`; throws `TimedOut`
/// naming `what` otherwise. Every wait in these tests is bounded this way: none sleeps blindly.
func waitUntil(_ what: String, timeout: Duration = .seconds(10), _ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try condition() { return }
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
        try await Task.sleep(for: pollInterval)
    }
}

/// Like `waitUntil`, but for a value: returns the first non-nil result of `probe`.
func waitFor<T>(_ what: String, timeout: Duration = .seconds(10), _ probe: () throws -> T?) async throws -> T {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try probe() { return value }
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
        try await Task.sleep(for: pollInterval)
    }
}

/// Runs `body` on a thread of its own and returns its result.
///
/// For steps whose timing matters, with `blockingWaitUntil` for their waits: the synchronous network tests
/// of other suites can hold every thread of Swift Testing's cooperative pool (one per core) for seconds,
/// and an `await` that needs one of them to resume waits that long. A plain thread is scheduled by the
/// kernel alone.
func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
