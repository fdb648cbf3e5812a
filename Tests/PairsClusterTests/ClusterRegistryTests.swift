#if Cluster
import Foundation
import PairsCluster
import PairsTestSupport
import Testing

/// Two or three registries over their own connections to one real Redis stand for instances of a cluster.
@Suite("The cluster registry, against a real redis-server", Tools.needs("redis-server"), .ownThread)
struct ClusterRegistryTests {
    /// A TTL short enough that expiry tests end soon, long enough that a live registry's single calls never
    /// let it lapse.
    static let shortTTL: Duration = .milliseconds(300)
    /// A TTL no stall of a busy machine outlasts, for tests about anything but expiry.
    static let longTTL: Duration = .seconds(30)

    private func instance(_ redis: RedisServer, _ address: String, ttl: Duration = longTTL) throws -> ClusterRegistry {
        let registry = ClusterRegistry(client: redis.client(), address: address, entryTTL: ttl)
        try registry.join()
        return registry
    }

    @Test("of two instances racing for a room, exactly one wins, every time")
    func roomClaimRace() throws {
        let redis = try RedisServer()
        let rounds = 300
        let endpoint = redis.endpoint
        let barrier = Barrier(parties: 2)
        let wins = Locked([Int: [String]]())
        let failures = Locked([String]())
        let threads = (0..<2).map { side in
            RacingThread {
                let registry = ClusterRegistry(client: RedisClient(endpoint: endpoint), address: "10.0.0.\(side):4000")
                do {
                    try registry.join()
                    for round in 0..<rounds {
                        try barrier.arrive()
                        if try registry.claimRoom("race-\(round)") == .claimed {
                            wins.withLock { $0[round, default: []].append(registry.instance) }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                    barrier.breakDown()
                }
            }
        }
        for thread in threads { try thread.join(within: 120) }
        #expect(failures.value.isEmpty, "\(failures.value)")
        let winners = wins.value
        #expect((0..<rounds).allSatisfy { winners[$0]?.count == 1 }, "rounds without exactly one winner: \((0..<rounds).filter { winners[$0]?.count != 1 })")
        // Both sides won some rounds, or the race was not one.
        #expect(Set(winners.values.flatMap { $0 }).count == 2)
    }

    @Test("a claimed room is looked up to its owner's address from another instance, whose claim loses")
    func claimAndLookup() throws {
        let redis = try RedisServer()
        let a = try instance(redis, "a.example:4000"), b = try instance(redis, "b.example:4000")
        #expect(try a.owner(ofRoom: "kitchen") == nil)
        #expect(try a.claimRoom("kitchen") == .claimed)
        let owner = ClusterOwner(instance: a.instance, address: "a.example:4000")
        #expect(try b.owner(ofRoom: "kitchen") == owner)
        #expect(try b.claimRoom("kitchen") == .ownedBy(owner))
        // Claiming again what one owns is no error: a claim resent after a lost connection still wins.
        #expect(try a.claimRoom("kitchen") == .claimed)
        #expect(a.ownedRooms == ["kitchen"])
        #expect(b.ownedRooms.isEmpty)
    }

    @Test("only the owner can release a room")
    func releaseByOwnerOnly() throws {
        let redis = try RedisServer()
        let a = try instance(redis, "a:1"), b = try instance(redis, "b:1")
        #expect(try a.claimRoom("kitchen") == .claimed)
        #expect(try b.releaseRoom("kitchen") == false)
        #expect(try b.owner(ofRoom: "kitchen")?.instance == a.instance)
        #expect(try a.releaseRoom("kitchen") == true)
        #expect(try b.owner(ofRoom: "kitchen") == nil)
        #expect(a.ownedRooms.isEmpty)
        #expect(try b.claimRoom("kitchen") == .claimed)
        // A late release by the former owner leaves the new owner's entry alone.
        #expect(try a.releaseRoom("kitchen") == false)
        #expect(try a.owner(ofRoom: "kitchen")?.instance == b.instance)
    }

    @Test("refresh renews the owner's room, token and waiter")
    func refreshRenews() throws {
        let redis = try RedisServer()
        let ttl: Duration = .seconds(20)
        let a = try instance(redis, "a:1", ttl: ttl)
        let probe = redis.client()
        #expect(try a.claimRoom("kitchen") == .claimed)
        #expect(try a.registerToken("t0k3n") == .claimed)
        guard case .waiting(let waiter) = try a.matchOrWait(rules: "classic") else {
            Issue.record("nobody waited, yet the waiter was matched")
            return
        }
        let keys = ["pairs:room:kitchen", "pairs:token:t0k3n", "pairs:waiter:\(waiter)", "pairs:quick:classic", "pairs:instance:\(a.instance)"]
        func remaining() throws -> [Int64] { try keys.map { try probe.command("PTTL", $0).integer ?? -3 } }
        // Wait until every TTL has visibly run down, then renew: each is back above where it was.
        let before = try blockingWaitFor("the TTLs to run down", within: 30) {
            let now = try remaining()
            return now.allSatisfy { $0 > 0 && $0 < 19_000 } ? now : nil
        }
        let report = try a.refresh()
        #expect(report == RefreshReport())
        let after = try remaining()
        for (key, (old, new)) in zip(keys, zip(before, after)) {
            #expect(new > old, "\(key): \(old) ms before the renewal, \(new) ms after")
        }
    }

    @Test("an instance that stops renewing: its room, token and waiter are gone within a few TTLs, though others renew theirs")
    func deadInstanceExpires() throws {
        let redis = try RedisServer()
        let dead = try instance(redis, "dead:1", ttl: Self.shortTTL)
        // The living instance's entries outlast any stall of a busy machine: only the dead one's may lapse.
        let alive = try instance(redis, "alive:1")
        let probe = redis.client()
        #expect(try dead.claimRoom("kitchen") == .claimed)
        #expect(try dead.registerToken("t0k3n") == .claimed)
        guard case .waiting(let waiter) = try dead.matchOrWait(rules: "classic") else {
            Issue.record("nobody waited, yet the waiter was matched")
            return
        }
        #expect(try alive.claimRoom("hall") == .claimed)
        // The living instance keeps renewing its own while the dead one's entries run out: nobody renews those.
        try blockingWaitUntil("the dead instance's keys to expire", within: 30) {
            _ = try alive.refresh()
            let left = try probe.command("EXISTS", "pairs:instance:\(dead.instance)", "pairs:room:kitchen",
                                         "pairs:token:t0k3n", "pairs:waiter:\(waiter)")
            return left == .integer(0)
        }
        _ = try alive.refresh()
        #expect(try alive.owner(ofRoom: "kitchen") == nil)
        #expect(try alive.owner(ofToken: "t0k3n") == nil)
        #expect(try alive.owner(ofRoom: "hall")?.instance == alive.instance)
        // The dead instance's waiter is not matched: the living one waits instead.
        guard case .waiting = try alive.matchOrWait(rules: "classic") else {
            Issue.record("a dead instance's waiter was matched")
            return
        }
        #expect(try alive.claimRoom("kitchen") == .claimed)
    }

    @Test("a room whose owner's instance key expired is free at once, and its late owner learns it lost it")
    func deadOwnersRoomIsFree() throws {
        let redis = try RedisServer()
        let a = try instance(redis, "a:1"), b = try instance(redis, "b:1")
        let probe = redis.client()
        #expect(try a.claimRoom("kitchen") == .claimed)
        // As if `a` stalled past its TTL: its instance key is gone, its room's key not yet.
        try probe.command("DEL", "pairs:instance:\(a.instance)")
        #expect(try b.owner(ofRoom: "kitchen") == nil)
        #expect(try b.claimRoom("kitchen") == .claimed)
        var report = RefreshReport()
        report.lostRooms = ["kitchen"]
        #expect(try a.refresh() == report)
        #expect(a.ownedRooms.isEmpty)
        #expect(try a.owner(ofRoom: "kitchen")?.instance == b.instance)
    }

    @Test("quick match pairs waiters on two instances, by rule set, and the waiter's owner learns who took it")
    func quickMatchAcrossInstances() throws {
        let redis = try RedisServer()
        let a = try instance(redis, "a:1"), b = try instance(redis, "b:1"), c = try instance(redis, "c:1")
        guard case .waiting(let first) = try a.matchOrWait(rules: "classic") else {
            Issue.record("a waiter on an empty queue was matched")
            return
        }
        // Another rule set's queue is another queue.
        guard case .waiting(let other) = try c.matchOrWait(rules: "triples") else {
            Issue.record("a waiter of another rule set was matched")
            return
        }
        #expect(try b.matchOrWait(rules: "classic") == .matched(waiter: first, owner: ClusterOwner(instance: a.instance, address: "a:1")))
        // The waiter is gone from the queue: the next one waits, and is taken the other way round.
        guard case .waiting(let second) = try b.matchOrWait(rules: "classic") else {
            Issue.record("a waiter was taken twice")
            return
        }
        #expect(try a.matchOrWait(rules: "classic") == .matched(waiter: second, owner: ClusterOwner(instance: b.instance, address: "b:1")))
        // Each waiter's owner learns on its next renewal who took it; the other rule set's waiter still waits.
        #expect(try a.refresh().matchedWaiters == [first: b.instance])
        #expect(try b.refresh().matchedWaiters == [second: a.instance])
        #expect(try c.refresh() == RefreshReport())
        #expect(a.ownedWaiters.isEmpty && b.ownedWaiters.isEmpty)
        #expect(c.ownedWaiters == [other])
    }

    @Test("three instances asking for quick matches at once: every waiter is taken at most once, and only one is left waiting")
    func quickMatchRace() throws {
        let redis = try RedisServer()
        let requests = 300
        let endpoint = redis.endpoint
        let queued = Locked([String]())
        let taken = Locked([String]())
        let failures = Locked([String]())
        let threads = (0..<3).map { side in
            RacingThread {
                let registry = ClusterRegistry(client: RedisClient(endpoint: endpoint), address: "instance\(side):1")
                do {
                    for _ in 0..<requests {
                        switch try registry.matchOrWait(rules: "classic") {
                        case .matched(let waiter, _): taken.withLock { $0.append(waiter) }
                        case .waiting(let waiter): queued.withLock { $0.append(waiter) }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        for thread in threads { try thread.join(within: 120) }
        #expect(failures.value.isEmpty, "\(failures.value)")
        let takenOnce = Set(taken.value)
        #expect(takenOnce.count == taken.value.count, "a waiter was taken twice")
        #expect(takenOnce.isSubset(of: Set(queued.value)))
        // Requests pair up: each took a waiter or became one, so all but at most one waiter were taken.
        let left = Set(queued.value).subtracting(takenOnce)
        #expect(queued.value.count + taken.value.count == 3 * requests)
        #expect(left.count == 3 * requests % 2)
        #expect(try redis.client().command("ZCARD", "pairs:quick:classic") == .integer(Int64(left.count)))
    }

    @Test("a withdrawn waiter is not matched; a waiter taken first cannot be withdrawn, and says by whom")
    func withdrawal() throws {
        let redis = try RedisServer()
        let a = try instance(redis, "a:1"), b = try instance(redis, "b:1")
        guard case .waiting(let gone) = try a.matchOrWait(rules: "classic") else { Issue.record("matched"); return }
        #expect(try a.withdraw(waiter: gone) == .withdrawn)
        #expect(try a.withdraw(waiter: gone) == .unknown)
        guard case .waiting(let waiting) = try b.matchOrWait(rules: "classic") else {
            Issue.record("a withdrawn waiter was matched")
            return
        }
        #expect(try a.matchOrWait(rules: "classic") == .matched(waiter: waiting, owner: ClusterOwner(instance: b.instance, address: "b:1")))
        #expect(try b.withdraw(waiter: waiting) == .matched(byInstance: a.instance))
    }

    @Test("a waiter taken by another instance and queued again by its owner is taken once more, by one instance only, and its owner renews it")
    func requeuedWaiterIsTakenOnce() throws {
        let redis = try RedisServer()
        let a = try instance(redis, "a:1"), b = try instance(redis, "b:1"), c = try instance(redis, "c:1")
        #expect(try a.matchOrWait(rules: "classic", waiter: "quick-a-1") == .waiting(waiter: "quick-a-1"))
        #expect(try b.matchOrWait(rules: "classic") == .matched(waiter: "quick-a-1", owner: ClusterOwner(instance: a.instance, address: "a:1")))
        #expect(try a.refresh().matchedWaiters == ["quick-a-1": b.instance])
        // b's player never came: a queues its waiter again, over b's mark, which has not expired yet.
        try a.requeue(waiter: "quick-a-1", rules: "classic")
        #expect(a.ownedWaiters == ["quick-a-1"])
        #expect(try a.refresh() == RefreshReport(), "renewed as a waiter of a's, not reported taken")
        #expect(try c.matchOrWait(rules: "classic") == .matched(waiter: "quick-a-1", owner: ClusterOwner(instance: a.instance, address: "a:1")))
        guard case .waiting = try b.matchOrWait(rules: "classic") else {
            Issue.record("a waiter queued again was taken twice")
            return
        }
        #expect(try a.refresh().matchedWaiters == ["quick-a-1": c.instance])
    }

    @Test("a waiter queued again is in its queue once however often it is queued, and its owner withdraws it before anyone takes it")
    func requeuedWaiterIsWithdrawn() throws {
        let redis = try RedisServer()
        let a = try instance(redis, "a:1"), b = try instance(redis, "b:1")
        let probe = redis.client()
        try a.requeue(waiter: "quick-a-2", rules: "classic")
        try a.requeue(waiter: "quick-a-2", rules: "classic")
        #expect(try probe.command("ZCARD", "pairs:quick:classic") == .integer(1))
        #expect(try a.withdraw(waiter: "quick-a-2") == .withdrawn)
        #expect(a.ownedWaiters.isEmpty)
        guard case .waiting = try b.matchOrWait(rules: "classic") else {
            Issue.record("a withdrawn waiter was matched")
            return
        }
    }

    @Test("a waiter queued again by an instance that stops renewing expires with it, and is taken by nobody")
    func requeuedWaiterExpiresWithItsOwner() throws {
        let redis = try RedisServer()
        let dead = try instance(redis, "dead:1", ttl: Self.shortTTL)
        let alive = try instance(redis, "alive:1")
        let probe = redis.client()
        try dead.requeue(waiter: "quick-dead-1", rules: "classic")
        try blockingWaitUntil("the dead instance's waiter to expire", within: 30) {
            _ = try alive.refresh()
            return try probe.command("EXISTS", "pairs:instance:\(dead.instance)", "pairs:waiter:quick-dead-1") == .integer(0)
        }
        guard case .waiting = try alive.matchOrWait(rules: "classic") else {
            Issue.record("a dead instance's waiter queued again was matched")
            return
        }
    }

    @Test("a resume token is found from any instance until its holder lets it go")
    func tokens() throws {
        let redis = try RedisServer()
        let a = try instance(redis, "a:1"), b = try instance(redis, "b:1"), c = try instance(redis, "c:1")
        #expect(try a.registerToken("Zm9vYmFy") == .claimed)
        let owner = ClusterOwner(instance: a.instance, address: "a:1")
        #expect(try b.owner(ofToken: "Zm9vYmFy") == owner)
        #expect(try c.owner(ofToken: "Zm9vYmFy") == owner)
        #expect(try c.owner(ofToken: "unknown") == nil)
        #expect(try b.releaseToken("Zm9vYmFy") == false)
        #expect(try a.releaseToken("Zm9vYmFy") == true)
        #expect(try c.owner(ofToken: "Zm9vYmFy") == nil)
    }

    @Test("Redis restarted mid-run: calls fail with a typed error while it is down, and a renewal writes everything back")
    func redisRestartMidRun() throws {
        let redis = try RedisServer()
        let a = try instance(redis, "a:1"), b = try instance(redis, "b:1")
        #expect(try a.claimRoom("kitchen") == .claimed)
        #expect(try a.registerToken("t0k3n") == .claimed)
        guard case .waiting(let waiter) = try a.matchOrWait(rules: "classic") else { Issue.record("matched"); return }
        try redis.stop()
        let failures = [
            #expect(throws: RedisError.self) { try a.refresh() },
            #expect(throws: RedisError.self) { try b.owner(ofRoom: "kitchen") },
            #expect(throws: RedisError.self) { try b.matchOrWait(rules: "classic") },
        ]
        #expect(failures.allSatisfy { $0?.isUnavailable == true }, "\(failures)")
        try redis.start()
        // The new Redis is empty until the owner's renewal, which writes back its key, room, token and waiter.
        #expect(try b.owner(ofRoom: "kitchen") == nil)
        #expect(try a.refresh().rewritten == 3)
        let owner = ClusterOwner(instance: a.instance, address: "a:1")
        #expect(try b.owner(ofRoom: "kitchen") == owner)
        #expect(try b.owner(ofToken: "t0k3n") == owner)
        #expect(try b.matchOrWait(rules: "classic") == .matched(waiter: waiter, owner: owner))
    }

    @Test("names with NUL, CR LF, RESP, key separators, emoji or 10,000 characters are rooms like any other")
    func binaryAndGarbageNames() throws {
        let redis = try RedisServer()
        let a = try instance(redis, "a:1"), b = try instance(redis, "b:1")
        let names = ["", "a\0b", "a", "a\0", "\r\n*1\r\n$4\r\nPING\r\n", "🃏 kitchen", ":", "*", "instance:\(a.instance)",
                     "../instance:\(b.instance)", String(repeating: "x", count: 10_000), "\u{FFFD}\u{202E}"]
        for name in names { #expect(try a.claimRoom(name) == .claimed, "\(name.debugDescription)") }
        for name in names { #expect(try b.owner(ofRoom: name)?.instance == a.instance, "\(name.debugDescription)") }
        #expect(try b.owner(ofRoom: "a\0c") == nil)
        // A room named like an instance's key leaves that instance's key alone.
        #expect(try a.address(ofInstance: b.instance) == "b:1")
        #expect(try a.refresh() == RefreshReport())
        for name in names { #expect(try a.releaseRoom(name), "\(name.debugDescription)") }
        #expect(try redis.client().command("KEYS", "pairs:room:*") == .array([]))
    }
}

/// A value shared by test threads, behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&stored) }
    }
}

/// A thread of a race, whose end a test waits for with a deadline.
final class RacingThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        let finished = finished
        Thread {
            body()
            finished.signal()
        }.start()
    }

    func join(within seconds: TimeInterval) throws {
        guard finished.wait(timeout: .now() + seconds) == .success else { throw TimedOut(what: "a racing thread to finish") }
    }
}

/// Holds each of `parties` threads until all have arrived, round after round, so that their next commands
/// race. Bounded: a party that waits longer than the deadline, or after another party failed, throws.
final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let parties: Int
    private var arrived = 0
    private var generation = 0
    private var isBroken = false

    init(parties: Int) { self.parties = parties }

    func arrive(within seconds: TimeInterval = 30) throws {
        condition.lock()
        defer { condition.unlock() }
        let mine = generation
        arrived += 1
        if arrived == parties {
            arrived = 0
            generation += 1
            condition.broadcast()
            return
        }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while generation == mine && !isBroken {
            guard condition.wait(until: deadline) else { throw TimedOut(what: "the other threads at the barrier") }
        }
        if isBroken { throw TimedOut(what: "a thread that failed before the barrier") }
    }

    /// Releases every waiting party with an error: one of them failed.
    func breakDown() {
        condition.lock()
        isBroken = true
        condition.broadcast()
        condition.unlock()
    }
}
#endif
