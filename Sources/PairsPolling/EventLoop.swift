import Dispatch

/// An `EventPoller` served on its owner's Dispatch queue: the one event loop of the server and the load
/// generator.
///
/// A thread of its own sleeps until the epoll descriptor is readable (`ReadinessWaiter`) and then runs the
/// loop on the owner's queue with `queue.sync`, on that very thread: the kernel wakes the thread that
/// handles the batch, where a Dispatch read source woke Dispatch's manager thread, which woke a worker
/// (BENCHMARKS.md, "A thread that waits for the sockets"). Each time, the loop harvests the ready sockets
/// batch after batch (`EventPoller.harvestUntilQuiet`) as its `Policy` says, calls `handle` for each, and
/// then `afterHarvest` once, for the owner's timers. Whether it stopped because every socket was quiet or
/// because it took the batches allowed, it then returns and lets go of the queue: the descriptor stays
/// readable while any socket is ready, so the thread comes back at once, after whatever else waits for
/// the queue (its timers).
///
/// Confined to `queue`, which is what makes `@unchecked Sendable` true: `start` and `cancel` are called
/// there (or before anything runs there), and the handlers run there.
public final class EventLoop: @unchecked Sendable {
    /// How much one wakeup may take before the queue's other sources get their turn.
    public struct Policy: Sendable, Hashable {
        /// Batches harvested per Dispatch wakeup at most, each of up to `EventPoller.maxEvents` sockets.
        public var maxBatchesPerWakeup: Int
        /// How long to wait for more once every socket is quiet.
        public var linger: EventPoller.Linger

        public init(maxBatchesPerWakeup: Int, linger: EventPoller.Linger) {
            self.maxBatchesPerWakeup = maxBatchesPerWakeup
            self.linger = linger
        }
    }

    public let poller: EventPoller
    public let queue: DispatchQueue
    /// The thread that sleeps until a socket is ready; nil before `start` and after `cancel`.
    private var waiter: ReadinessWaiter?
    // What `start` was given, kept for `handleReadySockets`; dropped by `cancel` with the source's.
    private var policy: Policy?
    private var beforeEachBatch: @Sendable () -> Void = {}
    private var afterEachBatch: @Sendable () -> Void = {}
    private var handle: (@Sendable (_ token: UInt64, _ events: UInt32) -> Void)?

    /// A loop with an empty epoll set, not yet watched: add sockets to `poller`, then `start`.
    public init(queue: DispatchQueue) throws(SystemCallError) {
        poller = try EventPoller()
        self.queue = queue
    }

    /// Starts serving the poller's sockets on `queue`. `beforeEachBatch` runs once a batch has been
    /// collected and before it is handled, so a clock read there dates the batch's arrival; `afterEachBatch`
    /// once it has been handled.
    public func start(
        policy: Policy,
        beforeEachBatch: @escaping @Sendable () -> Void = {},
        afterEachBatch: @escaping @Sendable () -> Void = {},
        handle: @escaping @Sendable (_ token: UInt64, _ events: UInt32) -> Void,
        afterHarvest: @escaping @Sendable () -> Void = {}
    ) throws(SystemCallError) {
        try start(policy: policy, beforeEachBatch: beforeEachBatch, afterEachBatch: afterEachBatch, handle: handle,
              wakeup: { [self] in
                  harvest()
                  afterHarvest()
              })
    }

    /// Starts watching the poller's sockets on `queue`, calling `wakeup` when some are ready instead of
    /// harvesting them: for an owner that passes every input through one entry point of its own, which
    /// calls `harvest` there. The other arguments are `start`'s.
    public func start(
        policy: Policy,
        beforeEachBatch: @escaping @Sendable () -> Void = {},
        afterEachBatch: @escaping @Sendable () -> Void = {},
        handle: @escaping @Sendable (_ token: UInt64, _ events: UInt32) -> Void,
        wakeup: @escaping @Sendable () -> Void
    ) throws(SystemCallError) {
        precondition(waiter == nil, "an event loop is started once")
        self.policy = policy
        self.beforeEachBatch = beforeEachBatch
        self.afterEachBatch = afterEachBatch
        self.handle = handle
        waiter = try ReadinessWaiter(watching: poller.descriptor, queue: queue) { [self] in
            #if DEBUG
            dispatchPrecondition(condition: .onQueue(queue))
            #endif
            // The epoll descriptor must stay open while the thread may wait on it: the poller closes it when freed.
            withExtendedLifetime(self) { wakeup() }
        }
    }

    /// Harvests the ready sockets as the policy says, waiting briefly for more once they are quiet: what a
    /// wakeup does (`start`'s `wakeup` calls it).
    public func harvest() {
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
        guard waiter != nil, let policy, let handle else { return }
        poller.harvestUntilQuiet(maxBatches: policy.maxBatchesPerWakeup, lingering: policy.linger,
                                 beforeEachBatch: beforeEachBatch, afterEachBatch: afterEachBatch, handle)
    }

    /// Handles the sockets that are ready now, without waiting for more, before the caller goes on.
    ///
    /// An owner's timer calls this before it judges its deadlines: when the queue was held up (a busy
    /// machine), input that arrived before the timer ran is read first, so a ping that came in time keeps
    /// its connection from being closed as idle, and a flip sent before the turn clock ran out is played.
    /// Dispatch does not order a ready timer and a ready read source on one queue; this does.
    public func handleReadySockets() {
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
        guard waiter != nil, let policy, let handle else { return }
        _ = poller.harvestUntilQuiet(maxBatches: policy.maxBatchesPerWakeup, beforeEachBatch: beforeEachBatch,
                                     afterEachBatch: afterEachBatch, handle)
    }

    /// Stops serving. The handlers are dropped once Dispatch has let go of the descriptor, and with them
    /// whatever they hold (typically the owner). Safe to call more than once.
    public func cancel() {
        waiter?.stop()
        waiter = nil
        handle = nil
        beforeEachBatch = {}
        afterEachBatch = {}
    }
}

extension EventPoller.Linger {
    /// Up to 200 µs at a time, at most 16 times per wakeup: the wait of an owner whose peers answer at once
    /// (the server waiting for a bot's next request, the load generator for the server's next state).
    ///
    /// An answer that arrives during the wait is read at once, with the queue still held, rather than by
    /// going back to sleep and taking the queue again (with a Dispatch read source it was worse: each
    /// answer woke Dispatch's manager thread, which woke a worker). Asleep in `epoll_pwait2`, the wait costs no CPU; a lone human's
    /// line costs one timer wakeup more. At most 16 waits, because nothing else runs on the owner's queue
    /// meanwhile: back-to-back traffic can hold off its timers by 16 x 200 µs = 3.2 ms of waiting at most.
    public static let forQuickAnswers = EventPoller.Linger(microseconds: 200, times: 16)
}
