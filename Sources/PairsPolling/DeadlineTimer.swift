import Dispatch
import PairsRules

/// One Dispatch timer on its owner's queue, pointed at the owner's next deadline: the server's lobby timer
/// and the load generator's timer heap each keep one, however many deadlines they track.
///
/// `arm` is cheap to call after every event: it reschedules only when the deadline changed. Deadlines are
/// on `MonotonicClock`, which is the clock Dispatch schedules on, so the timer fires at the deadline itself
/// (plus at most `leeway`), never before.
///
/// Confined to `queue`, which is what makes `@unchecked Sendable` true.
public final class DeadlineTimer: @unchecked Sendable {
    private let source: DispatchSourceTimer
    private let leeway: DispatchTimeInterval
    /// The deadline the source is set for, in nanoseconds; nil when it is set for none.
    private var armed: UInt64?
    private var isCancelled = false

    /// A timer that calls `fired` on `queue` at each deadline it is armed for, up to `leeway` late. Not
    /// armed yet.
    public init(queue: DispatchQueue, leeway: DispatchTimeInterval, fired: @escaping @Sendable () -> Void) {
        self.leeway = leeway
        source = DispatchSource.makeTimerSource(queue: queue)
        source.setEventHandler { [weak self] in
            guard let self else { return }
            armed = nil
            fired()
        }
        source.activate()
    }

    deinit {
        source.cancel()
    }

    /// Points the timer at `deadline` (`MonotonicClock` nanoseconds), or at nothing when nil.
    public func arm(atNanoseconds deadline: UInt64?) {
        guard !isCancelled, deadline != armed else { return }
        armed = deadline
        guard let deadline else { return source.schedule(deadline: .distantFuture) }
        source.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: leeway)
    }

    /// Points the timer at `deadline` (a `MonotonicClock` moment), or at nothing when nil.
    public func arm(at deadline: Moment?) {
        arm(atNanoseconds: deadline.map { UInt64(max(0, $0.milliseconds)) * MonotonicClock.nanosecondsPerMillisecond })
    }

    /// Stops the timer for good: it fires no more, and lets go of its handler.
    public func cancel() {
        isCancelled = true
        source.cancel()
    }
}
