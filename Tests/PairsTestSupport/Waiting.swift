import Foundation

/// A condition that did not come true before its deadline.
public struct TimedOut: Error, CustomStringConvertible {
    public var what: String
    public var description: String { "timed out waiting for \(what)" }

    public init(what: String) {
        self.what = what
    }
}

/// How often an async wait looks at its condition again. Short, so tests finish as soon as the condition
/// holds.
public let pollInterval: Duration = .milliseconds(20)

/// Waits until `condition` holds, looking every `pollInterval`, for at most `timeout`; throws `TimedOut`
/// naming `what` otherwise. Every wait in these tests is bounded this way: none sleeps blindly.
public func waitUntil(_ what: String, timeout: Duration = .seconds(10), _ condition: () throws -> Bool) async throws {
    _ = try await waitFor(what, timeout: timeout) { try condition() ? () : nil }
}

/// Like `waitUntil`, but for a value: returns the first non-nil result of `probe`.
public func waitFor<T>(_ what: String, timeout: Duration = .seconds(10), _ probe: () throws -> T?) async throws -> T {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try probe() { return value }
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
        try await Task.sleep(for: pollInterval)
    }
}

/// How often a blocking wait looks at its condition again: short, so a test moves on as soon as it holds.
public let blockingPollInterval: TimeInterval = 0.002

/// Blocks the calling thread until `condition` holds, looking every `blockingPollInterval`, for at most
/// `seconds`; throws `TimedOut` naming `what` otherwise. For synchronous tests, and for the steps of an
/// async test that run on a thread of their own.
public func blockingWaitUntil(_ what: String, within seconds: TimeInterval = 10, _ condition: () throws -> Bool) throws {
    _ = try blockingWaitFor(what, within: seconds) { try condition() ? () : nil }
}

/// Like `blockingWaitUntil`, but for a value: returns the first non-nil result of `probe`.
public func blockingWaitFor<T>(_ what: String, within seconds: TimeInterval = 10, _ probe: () throws -> T?) throws -> T {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while true {
        if let value = try probe() { return value }
        guard Date() < deadline else { throw TimedOut(what: what) }
        Thread.sleep(forTimeInterval: blockingPollInterval)
    }
}
