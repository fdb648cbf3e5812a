import Dispatch
import PairsPolling
import PairsRules
import Synchronization
import Testing

/// When a timer fired, by `MonotonicClock`, as its handler saw it on the queue.
private final class Firings: Sendable {
    let times = Mutex<[UInt64]>([])
    let fired = DispatchSemaphore(value: 0)

    func record(on queue: DispatchQueue) {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = MonotonicClock.nanoseconds()
        times.withLock { $0.append(now) }
        fired.signal()
    }

    var count: Int { times.withLock { $0.count } }
}

/// A timer on a queue of its own that records when it fires.
private func recordingTimer() -> (DispatchQueue, Firings, DeadlineTimer) {
    let queue = DispatchQueue(label: "timer test")
    let firings = Firings()
    return (queue, firings, DeadlineTimer(queue: queue, leeway: .milliseconds(1)) { firings.record(on: queue) })
}

@Suite("The deadline timer of the server's lobby and the load generator's timer heap")
struct DeadlineTimerTests {
    @Test("armed for a deadline, it fires once on its queue, not before the deadline")
    func firesOnceAtTheDeadline() throws {
        let (queue, firings, timer) = recordingTimer()
        let deadline = MonotonicClock.nanoseconds() + 20 * MonotonicClock.nanosecondsPerMillisecond
        queue.sync { timer.arm(atNanoseconds: deadline) }
        #expect(firings.fired.wait(timeout: .now() + 10) == .success)
        let times = firings.times.withLock { $0 }
        #expect(times.count == 1)
        #expect(times.allSatisfy { $0 >= deadline })
        queue.sync { timer.cancel() }
    }

    @Test("a moment deadline fires when the clock's moments reach it")
    func firesAtAMoment() throws {
        let (queue, firings, timer) = recordingTimer()
        let deadline = MonotonicClock.now().adding(milliseconds: 15)
        queue.sync { timer.arm(at: deadline) }
        #expect(firings.fired.wait(timeout: .now() + 10) == .success)
        #expect(MonotonicClock.now() >= deadline)
        queue.sync { timer.cancel() }
    }

    @Test("re-armed for no deadline, or cancelled, it does not fire")
    func disarmedOrCancelledDoesNotFire() throws {
        let queue = DispatchQueue(label: "timer test")
        let firings = Firings()
        let disarmed = DeadlineTimer(queue: queue, leeway: .milliseconds(1)) { firings.record(on: queue) }
        let cancelled = DeadlineTimer(queue: queue, leeway: .milliseconds(1)) { firings.record(on: queue) }
        let soon = MonotonicClock.nanoseconds() + 10 * MonotonicClock.nanosecondsPerMillisecond
        queue.sync {
            disarmed.arm(atNanoseconds: soon)
            disarmed.arm(atNanoseconds: nil)
            cancelled.arm(atNanoseconds: soon)
            cancelled.cancel()
            cancelled.arm(atNanoseconds: soon)
        }
        // Ten times the deadline: either timer would have fired by then.
        #expect(firings.fired.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
        #expect(firings.count == 0)
        queue.sync { disarmed.cancel() }
    }
}
