import Foundation

/// A condition that did not come true before its deadline.
public struct TimedOut: Error, CustomStringConvertible {
    public var what: String
    public var description: String { "timed out waiting for \(what)" }

    public init(what: String) {
        self.what = what
    }
}

/// How often a blocking wait looks at its condition again: short, so a test moves on as soon as it holds.
public let blockingPollInterval: TimeInterval = 0.002

/// Blocks the calling thread until `condition` holds, looking every `blockingPollInterval`, for at most
/// `seconds`; throws `TimedOut` naming `what` otherwise. For synchronous tests, and for the steps of an
/// async test that run on a thread of their own.
public func blockingWaitUntil(_ what: String, within seconds: TimeInterval = 10, _ condition: () throws -> Bool) throws {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while true {
        if try condition() { return }
        guard Date() < deadline else { throw TimedOut(what: what) }
        Thread.sleep(forTimeInterval: blockingPollInterval)
    }
}
