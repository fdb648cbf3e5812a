import Dispatch
import PairsRules

/// The one timer of a room, kept set to the match's next deadline (reveal end, turn clock, grace period).
///
/// A room with no deadline (no clock, nobody away) has no timer source at all, so idle and clockless rooms
/// cost no timer work. Confined to the server's queue.
final class RoomTimer: @unchecked Sendable {
    /// What to do at the deadline, given once when the room opens: `schedule` runs after every change in
    /// every room, and a handler built there would be a closure allocated per change.
    var handler: (@Sendable () -> Void)?
    private var source: DispatchSourceTimer?
    private var deadline: Moment?

    /// Sets the timer to run `handler` at `deadline` (now, if it has passed), or disarms it for nil.
    func schedule(_ deadline: Moment?, now: Moment, queue: DispatchQueue) {
        guard deadline != self.deadline else { return }
        self.deadline = deadline
        guard let deadline else {
            source?.schedule(deadline: .distantFuture)
            return
        }
        guard let source = source ?? makeSource(on: queue) else { return }
        let delay = max(0, now.milliseconds(until: deadline))
        // Leeway of a millisecond: turn clocks need no more precision, and it lets the kernel batch wakeups.
        source.schedule(deadline: .now() + .milliseconds(Int(delay)), leeway: .milliseconds(1))
    }

    /// Forgets the deadline so the next `schedule` sets the timer again (after it fired).
    func fired() {
        deadline = nil
    }

    /// Stops the timer for good, and lets go of the handler (which holds the room).
    func cancel() {
        source?.cancel()
        source = nil
        deadline = nil
        handler = nil
    }

    private func makeSource(on queue: DispatchQueue) -> DispatchSourceTimer? {
        guard let handler else { return nil }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler(handler: handler)
        timer.activate()
        source = timer
        return timer
    }
}
