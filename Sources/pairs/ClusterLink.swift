#if Cluster
import PairsCluster
import PairsLobby
import PairsWire

/// The lobby's cluster (`LobbyCluster`) kept in Redis: every question and change goes to the
/// `ClusterAgent`'s queue, so a rooms' loop never waits for Redis. Made before the server (whose lobby
/// names rooms after `instanceTag`), and given its agent once the server listens and knows the address
/// peers reach it by; until then every question is answered `unavailable`.
final class ClusterLink: LobbyCluster, @unchecked Sendable {
    // @unchecked: `agent` is set once and read behind its lock; `missed` is behind its own.
    /// Changes kept while Redis is out of reach, at most: an outage under heavy churn must not grow memory
    /// without bound. Past it the oldest are dropped (a room or token then found only on this instance).
    static let maxMissedChanges = 10_000

    let instance: String
    let instanceTag: String
    private let agent = PthreadLocked<ClusterAgent?>(nil)
    /// Changes Redis did not take because it was out of reach, oldest first: written once it is back.
    private let missed = PthreadLocked<[ClusterChange]>([])

    init(instance: String) {
        self.instance = instance
        // Six hex digits of the random id: names stay short, and two instances sharing them is one in 16 million.
        instanceTag = String(instance.prefix(6))
    }

    func attach(_ agent: ClusterAgent) {
        self.agent.withLock { $0 = agent }
    }

    private var current: ClusterAgent? { agent.withLock { $0 } }

    func ask(_ question: ClusterQuestion, answer: @escaping @Sendable (ClusterAnswer) -> Void) {
        guard let agent = current else { return answer(.unavailable) }
        agent.perform({ (registry: ClusterRegistry) throws(RedisError) -> ClusterAnswer in
            switch question {
            case .claimRoom(let name): Self.answer(try registry.claimRoom(name), in: registry)
            case .findRoom(let name): Self.answer(try registry.owner(ofRoom: name), in: registry)
            case .findToken(let token): Self.answer(try registry.owner(ofToken: token), in: registry)
            case .quickMatch(let room, let rules): try Self.quickMatch(room, rules: RulesJSON.text(of: rules), in: registry)
            case .withdrawWaiter(let room):
                switch try registry.withdraw(waiter: room) {
                case .withdrawn: .here
                case .unknown: .nowhere
                case .matched: .takenElsewhere
                }
            case .requeueWaiter(let room, let rules): try Self.requeue(room, rules: RulesJSON.text(of: rules), in: registry)
            }
        }, completion: { result in
            answer((try? result.get()) ?? .unavailable)
        })
    }

    func note(_ change: ClusterChange) {
        // A change Redis misses while out of reach is kept and written when it is back (`replayMissed`), in
        // order, so that a token issued and retired meanwhile ends retired.
        current?.perform({ (registry: ClusterRegistry) throws(RedisError) in
            switch change {
            case .roomOpened(let name): _ = try registry.claimRoom(name)
            case .roomClosed(let name): try registry.releaseRoom(name)
            case .tokenIssued(let token, let retiring):
                if let retiring { try registry.releaseToken(retiring) }
                _ = try registry.registerToken(token)
            case .tokenRetired(let token): try registry.releaseToken(token)
            case .waiterWithdrawn(let room): _ = try registry.withdraw(waiter: room)
            }
        }, completion: { [missed] result in
            guard case .failure(let error) = result, error.isUnavailable else { return }
            missed.withLock { changes in
                changes.append(change)
                if changes.count > Self.maxMissedChanges { changes.removeFirst(changes.count - Self.maxMissedChanges) }
            }
        })
    }

    /// Writes the changes Redis missed while out of reach; called when it answers again.
    func replayMissed() {
        let changes = missed.withLock { changes in
            defer { changes = [] }
            return changes
        }
        for change in changes { note(change) }
    }

    /// Stale waiters of this instance popped in a row, at most, before the question is given up as
    /// unanswerable (each is one Redis round trip).
    static let maxStaleOwnWaiters = 8

    /// A partner waiting on another instance, or this room queued. A waiter of this very instance can be
    /// popped only if it is stale (the lobby asks only when no quick room waits here, and withdraws a room
    /// before it stops waiting, on this same queue, ahead of any later question): it is skipped.
    private static func quickMatch(_ room: String, rules: String, in registry: ClusterRegistry) throws(RedisError) -> ClusterAnswer {
        for _ in 0..<maxStaleOwnWaiters {
            switch try registry.matchOrWait(rules: rules, waiter: room) {
            case .waiting: return .here
            case .matched(_, let owner) where owner.instance == registry.instance: continue
            case .matched(let waiter, let owner):
                // An address its instance advertised, checked at its start: never unreadable in practice.
                return ServerEndpoint(owner.address).map { .matchedWith(room: waiter, at: $0) } ?? .unavailable
            }
        }
        return .unavailable
    }

    /// Quick room `room` queued again after a lapsed promise: `.here` once it is.
    private static func requeue(_ room: String, rules: String, in registry: ClusterRegistry) throws(RedisError) -> ClusterAnswer {
        try registry.requeue(waiter: room, rules: rules)
        return .here
    }

    private static func answer(_ outcome: ClaimOutcome, in registry: ClusterRegistry) -> ClusterAnswer {
        switch outcome {
        case .claimed: .here
        case .ownedBy(let owner): answer(owner, in: registry)
        }
    }

    private static func answer(_ owner: ClusterOwner?, in registry: ClusterRegistry) -> ClusterAnswer {
        guard let owner else { return .nowhere }
        guard owner.instance != registry.instance else { return .here }
        return ServerEndpoint(owner.address).map { .elsewhere($0) } ?? .unavailable
    }
}
#endif
