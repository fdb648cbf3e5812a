import Dispatch
import PairsPolling
import PairsRules

/// The transport's clock and its one kind of timer, injected as the lobby's moments are: the server runs on
/// `MonotonicClock`, and a test on a manual clock whose timers fire when the test moves it, so that welcome
/// waits, goodbye deadlines and the shutdown drain are tested without waiting for real time to pass.
protocol TransportClock: Sendable {
    /// Now, in nanoseconds since the clock's origin.
    func nanoseconds() -> UInt64
    /// A timer that calls `fired` on `queue` once the clock reaches the deadline it is armed for.
    func makeTimer(on queue: DispatchQueue, fired: @escaping @Sendable () -> Void) -> any TransportTimer
}

extension TransportClock {
    /// Now, in whole milliseconds.
    func now() -> Moment {
        Moment(milliseconds: Int64(nanoseconds() / MonotonicClock.nanosecondsPerMillisecond))
    }
}

/// One timer pointed at its owner's next deadline, confined to the owner's queue.
protocol TransportTimer: AnyObject {
    /// Points the timer at `deadline`, or at nothing when nil. Cheap when the deadline did not change.
    func arm(at deadline: Moment?)
    /// Stops the timer for good.
    func cancel()
}

/// The real clock: `MonotonicClock`, with Dispatch timers, which schedule on the same clock.
struct SystemTransportClock: TransportClock {
    /// Slack given to the timer: turn clocks and goodbyes need no more precision, and it lets the kernel
    /// batch wakeups.
    static let timerLeewayMilliseconds = 1

    func nanoseconds() -> UInt64 { MonotonicClock.nanoseconds() }

    func makeTimer(on queue: DispatchQueue, fired: @escaping @Sendable () -> Void) -> any TransportTimer {
        DeadlineTimer(queue: queue, leeway: .milliseconds(Self.timerLeewayMilliseconds), fired: fired)
    }
}

extension DeadlineTimer: TransportTimer {}
