import Dispatch
import PairsLobby

/// The threads that hash passwords (claims and verifications, each about 30 ms of yescrypt), apart from the
/// storage queue, so that a flood of password guesses delays neither history queries nor game writes nor
/// any `hello` without a password. A fixed number of workers take jobs from one bounded queue; a job that
/// finds the queue full is refused at once (`submit` returns false), and the client is told `busy`.
public final class NameCheckPool: Sendable {
    /// Workers: two, the cores of a small server, so hashing can never take every core from the rooms.
    public static let defaultWorkers = 2
    /// Jobs that may wait for a worker: about a second of hashing on two workers, enough for every player
    /// of a LAN logging in at once, while a guesser's flood is refused rather than queued for minutes.
    public static let defaultQueueLimit = 64

    private struct State {
        var waiting: [@Sendable () -> Void] = []
        /// Index of the first job in `waiting` not yet taken (taken ones are dropped in batches).
        var head = 0
        /// Workers with nothing to do.
        var idle: [Int]
    }

    private let queueLimit: Int
    private let workers: [DispatchQueue]
    /// Behind a pthread mutex (`PthreadLocked`), not `Synchronization.Mutex`: ThreadSanitizer cannot see
    /// the latter, and reports the job handed from `submit` to a worker as a race.
    private let state: PthreadLocked<State>

    init(workers: Int = defaultWorkers, queueLimit: Int = defaultQueueLimit) {
        self.queueLimit = queueLimit
        self.workers = (0..<workers).map { DispatchQueue(label: "pairs.names.\($0)") }
        state = PthreadLocked(State(idle: Array(0..<workers)))
    }

    /// Runs `job` on a worker when one is free; false, without running it, when `queueLimit` jobs are
    /// already waiting.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let outcome: (accepted: Bool, wake: Int?) = state.withLock { state in
            guard state.waiting.count - state.head < queueLimit else { return (false, nil) }
            state.waiting.append(job)
            return (true, state.idle.popLast())
        }
        if let worker = outcome.wake {
            workers[worker].async { [self] in drain(worker) }
        }
        return outcome.accepted
    }

    /// Jobs waiting for a worker now.
    var waiting: Int {
        state.withLock { $0.waiting.count - $0.head }
    }

    /// Runs jobs on worker `worker` until none is waiting, then marks it idle.
    private func drain(_ worker: Int) {
        while let job = next(for: worker) { job() }
    }

    private func next(for worker: Int) -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard state.head < state.waiting.count else {
                state.waiting.removeAll(keepingCapacity: true)
                state.head = 0
                state.idle.append(worker)
                return nil
            }
            let job = state.waiting[state.head]
            state.head += 1
            if state.head >= 256, state.head * 2 >= state.waiting.count {
                state.waiting.removeFirst(state.head)
                state.head = 0
            }
            return job
        }
    }
}
