import Dispatch
import PairsRules

/// The one timer of a room, kept set to the match's next deadline (reveal end, turn clock, grace period).
///
/// A room with no deadline (no clock, nobody away) has no timer source at all, so idle and clockless rooms
/// cost no timer work. Confined to the server's queue.
final class RoomTimer: @unchecked Sendable {
    private var source: DispatchSourceTimer?
    private var deadline: Moment?

    /// Sets the timer to fire `handler` at `deadline` (now, if it has passed), or disarms it for nil.
    func schedule(_ deadline: Moment?, now: Moment, queue: DispatchQueue, handler: @escaping @Sendable () -> Void) {
        guard deadline != self.deadline else { return }
        self.deadline = deadline
        guard let deadline else {
            source?.schedule(deadline: .distantFuture)
            return
        }
        let source = self.source ?? {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler(handler: handler)
            timer.activate()
            self.source = timer
            return timer
        }()
        let delay = max(0, now.milliseconds(until: deadline))
        // Leeway of a millisecond: turn clocks need no more precision, and it lets the kernel batch wakeups.
        source.schedule(deadline: .now() + .milliseconds(Int(delay)), leeway: .milliseconds(1))
    }

    /// Forgets the deadline so the next `schedule` sets the timer again (after it fired).
    func fired() {
        deadline = nil
    }

    func cancel() {
        source?.cancel()
        source = nil
        deadline = nil
    }
}
