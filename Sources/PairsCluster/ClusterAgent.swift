#if Cluster
import Dispatch

/// A `ClusterRegistry` on a serial queue of its own, renewing what it owns on a timer, so that the rooms'
/// loops never wait for Redis: they hand it work (`perform`) and get the answer back later.
///
/// It tells its owner once when Redis goes out of reach (not at every failed call) and once when it is back,
/// and on coming back renews at once, which writes back whatever a restarted Redis lost.
public final class ClusterAgent: @unchecked Sendable {
    // @unchecked: everything below but `queue` and `onEvent` is touched only on `queue` (checked by
    // dispatchPrecondition), and the registry is never handed out but to closures run there.

    /// The queue every Redis call runs on.
    public let queue: DispatchQueue
    /// This instance's id in the registry.
    public let instance: String
    private let registry: ClusterRegistry
    private let onEvent: @Sendable (ClusterEvent) -> Void
    private var timer: DispatchSourceTimer?
    private var isReachable = true
    /// Renewals attempted since `start`, failed ones included: a test waits on it to know the timer runs.
    private var attempts = 0

    /// An agent for an instance reached at `address` (`HOST:PORT`), over a connection of its own to the Redis
    /// at `endpoint` (see `ClusterRegistry` for `entryTTL`). `onEvent` is called on `queue`: keep it short
    /// (log, or hand the event to a rooms' loop).
    /// `instance` is the id it goes by (random by default; the server picks it first, to tag its rooms' names).
    public init(endpoint: RedisEndpoint, address: String, instance: String = ClusterRegistry.newIdentifier(),
                entryTTL: Duration = ClusterRegistry.defaultEntryTTL,
                label: String = "pairs.cluster", onEvent: @escaping @Sendable (ClusterEvent) -> Void) {
        registry = ClusterRegistry(client: RedisClient(endpoint: endpoint), address: address, instance: instance, entryTTL: entryTTL)
        self.instance = registry.instance
        self.onEvent = onEvent
        queue = DispatchQueue(label: label)
    }

    deinit {
        timer?.cancel()
    }

    /// Announces this instance and starts renewing every `registry.refreshInterval`. Throws when Redis is out
    /// of reach: an instance says so and exits rather than serve without its cluster.
    public func start() throws(RedisError) {
        dispatchPrecondition(condition: .notOnQueue(queue))
        let joined: Result<Void, RedisError> = queue.sync { Result { () throws(RedisError) in try registry.join() } }
        try joined.get()
        queue.sync {
            guard timer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let interval = DispatchTimeInterval.milliseconds(Self.milliseconds(registry.refreshInterval))
            timer.schedule(deadline: .now() + interval, repeating: interval)
            timer.setEventHandler { [weak self] in self?.renew() }
            timer.resume()
            self.timer = timer
        }
    }

    /// Stops renewing. With `leaving`, also removes this instance's entries now (an orderly shutdown), so peers
    /// need not wait for them to expire; a Redis out of reach is reported, not waited for.
    public func stop(leaving: Bool) {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync {
            timer?.cancel()
            timer = nil
            if leaving { run { (registry: ClusterRegistry) throws(RedisError) in try registry.leave() } }
        }
    }

    /// Runs `body` with the registry on the agent's queue, then `completion` there with what it returned or
    /// threw. A failure because Redis is out of reach (or its return) is also reported as a `ClusterEvent`.
    public func perform<Value: Sendable>(_ body: @escaping @Sendable (ClusterRegistry) throws(RedisError) -> Value,
                                         completion: @escaping @Sendable (Result<Value, RedisError>) -> Void) {
        queue.async { [self] in
            completion(run(body))
        }
    }

    /// How many renewals the timer has attempted (successful or not).
    public var renewalsAttempted: Int {
        dispatchPrecondition(condition: .notOnQueue(queue))
        return queue.sync { attempts }
    }

    private func renew() {
        dispatchPrecondition(condition: .onQueue(queue))
        attempts += 1
        if case .success(let report) = run({ (registry: ClusterRegistry) throws(RedisError) in try registry.refresh() }), report != RefreshReport() {
            onEvent(.changed(report))
        }
    }

    /// Runs `body` with the registry, keeping track of whether Redis is reachable.
    @discardableResult
    private func run<Value>(_ body: (ClusterRegistry) throws(RedisError) -> Value) -> Result<Value, RedisError> {
        dispatchPrecondition(condition: .onQueue(queue))
        let result = Result { () throws(RedisError) in try body(registry) }
        switch result {
        case .failure(let error) where error.isUnavailable:
            if isReachable {
                isReachable = false
                onEvent(.unavailable(error))
            }
        case .success, .failure:
            if !isReachable {
                isReachable = true
                onEvent(.available)
                // Write back at once what Redis may have lost while it was away.
                renew()
            }
        }
        return result
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}

/// What the agent tells its owner.
public enum ClusterEvent: Sendable, Hashable {
    /// Redis went out of reach: said once, until it is back.
    case unavailable(RedisError)
    /// Redis answers again.
    case available
    /// A renewal found rooms or tokens lost to other instances, waiters matched elsewhere, or entries Redis
    /// had lost and that were written back.
    case changed(RefreshReport)
}
#endif
