import Dispatch
import PairsPolling
import PairsRules
@testable import PairsServer
import Synchronization

/// A transport clock that moves only when a test says so, with timers that fire when it passes their
/// deadline: the transport's waits (welcome, goodbye, drain, request head) tested to the millisecond
/// without waiting for them, as the lobby's are on `LobbyHarness`'s clock.
final class ManualClock: TransportClock {
    private struct State {
        var nanoseconds: UInt64
        var timers: [ManualTimer] = []
    }

    private let state: Mutex<State>

    init(startingAt start: Moment = Moment(milliseconds: 1_000_000)) {
        state = Mutex(State(nanoseconds: UInt64(start.milliseconds) * MonotonicClock.nanosecondsPerMillisecond))
    }

    func nanoseconds() -> UInt64 { state.withLock { $0.nanoseconds } }

    func makeTimer(on queue: DispatchQueue, fired: @escaping @Sendable () -> Void) -> any TransportTimer {
        let timer = ManualTimer(clock: self, queue: queue, fired: fired)
        state.withLock { $0.timers.append(timer) }
        return timer
    }

    /// Moves the clock on by `milliseconds`; every timer due by then fires on its queue.
    func advance(by milliseconds: Int64) {
        let timers = state.withLock { state in
            state.nanoseconds += UInt64(milliseconds) * MonotonicClock.nanosecondsPerMillisecond
            return state.timers
        }
        for timer in timers { timer.fireIfDue(at: now()) }
    }
}

/// A timer of `ManualClock`: armed on its owner's queue, fired from the test's thread onto that queue.
final class ManualTimer: TransportTimer, Sendable {
    private struct State {
        var armed: Moment?
        var isCancelled = false
    }

    private let clock: ManualClock
    private let queue: DispatchQueue
    private let fired: @Sendable () -> Void
    private let state = Mutex(State())

    init(clock: ManualClock, queue: DispatchQueue, fired: @escaping @Sendable () -> Void) {
        self.clock = clock
        self.queue = queue
        self.fired = fired
    }

    func arm(at deadline: Moment?) {
        state.withLock { $0.armed = $0.isCancelled ? nil : deadline }
        // A deadline already past fires at once, as a Dispatch timer does.
        fireIfDue(at: clock.now())
    }

    func cancel() {
        state.withLock { $0.isCancelled = true; $0.armed = nil }
    }

    func fireIfDue(at now: Moment) {
        let due = state.withLock { state in
            guard let armed = state.armed, armed <= now else { return false }
            state.armed = nil
            return true
        }
        if due { queue.async(execute: fired) }
    }
}
