#if Cluster
import Foundation
import PairsCluster
import PairsTestSupport
import Testing

@Suite("The cluster agent, against a real redis-server", Tools.needs("redis-server"), .ownThread)
struct ClusterAgentTests {
    /// Renewals every second: a stall of a busy machine shorter than the whole TTL loses nothing.
    static let ttl: Duration = .seconds(3)

    /// Runs `body` on the agent's queue and waits for its result.
    private func perform<Value: Sendable>(_ agent: ClusterAgent,
                                          _ body: @escaping @Sendable (ClusterRegistry) throws(RedisError) -> Value) throws -> Result<Value, RedisError> {
        let answer = Locked<Result<Value, RedisError>?>(nil)
        agent.perform(body) { result in answer.withLock { $0 = result } }
        return try blockingWaitFor("the agent's answer", within: 30) { answer.value }
    }

    @Test("renews on its timer what it owns, past the TTL")
    func renewsOnItsTimer() throws {
        let redis = try RedisServer()
        let agent = ClusterAgent(endpoint: redis.endpoint, address: "a:1", entryTTL: Self.ttl) { _ in }
        let id = agent.instance
        try agent.start()
        defer { agent.stop(leaving: false) }
        #expect(try perform(agent) { registry throws(RedisError) in try registry.claimRoom("kitchen") } == .success(.claimed))
        // Four renewals take longer than the TTL: without them the room would be gone.
        try blockingWaitUntil("four renewals", within: 30) { agent.renewalsAttempted >= 4 }
        let peer = ClusterRegistry(client: redis.client(), address: "b:1")
        #expect(try peer.owner(ofRoom: "kitchen")?.instance == id)
    }

    @Test("says once that Redis is gone and once that it is back, refuses work meanwhile, then writes its entries back")
    func redisGoesAndComesBack() throws {
        let redis = try RedisServer()
        let events = Locked([ClusterEvent]())
        let agent = ClusterAgent(endpoint: redis.endpoint, address: "a:1", entryTTL: Self.ttl) { event in
            events.withLock { $0.append(event) }
        }
        let id = agent.instance
        try agent.start()
        defer { agent.stop(leaving: false) }
        #expect(try perform(agent) { registry throws(RedisError) in try registry.claimRoom("kitchen") } == .success(.claimed))
        try redis.stop()
        let lookup = try perform(agent) { registry throws(RedisError) in try registry.owner(ofRoom: "kitchen") }
        guard case .failure(let error) = lookup, error.isUnavailable else {
            Issue.record("a lookup while Redis is down gave \(lookup)")
            return
        }
        // Two more renewals fail while Redis is down, and are not reported again.
        let attempts = agent.renewalsAttempted
        try blockingWaitUntil("two failed renewals", within: 30) { agent.renewalsAttempted >= attempts + 2 }
        #expect(events.value.count == 1)
        guard case .unavailable? = events.value.first else {
            Issue.record("events while Redis is down: \(events.value)")
            return
        }
        try redis.start()
        try blockingWaitUntil("Redis back", within: 30) { events.value.contains(.available) }
        // The renewal that writes the room back reports it once it is done, which may be after a peer sees it.
        try blockingWaitUntil("the write-back reported", within: 30) { events.value.count >= 3 }
        let peer = ClusterRegistry(client: redis.client(), address: "b:1")
        #expect(try peer.owner(ofRoom: "kitchen")?.instance == id)
        var rewritten = RefreshReport()
        rewritten.rewritten = 1
        #expect(Array(events.value.dropFirst()) == [.available, .changed(rewritten)])
    }

    @Test("leaving removes the instance and its entries at once")
    func leavingRemovesEntries() throws {
        let redis = try RedisServer()
        let agent = ClusterAgent(endpoint: redis.endpoint, address: "a:1", entryTTL: .seconds(60)) { _ in }
        let id = agent.instance
        try agent.start()
        #expect(try perform(agent) { registry throws(RedisError) in try registry.claimRoom("kitchen") } == .success(.claimed))
        #expect(try perform(agent) { registry throws(RedisError) in try registry.registerToken("t0k3n") } == .success(.claimed))
        let peer = ClusterRegistry(client: redis.client(), address: "b:1")
        #expect(try peer.address(ofInstance: id) == "a:1")
        agent.stop(leaving: true)
        #expect(try peer.owner(ofRoom: "kitchen") == nil)
        #expect(try peer.owner(ofToken: "t0k3n") == nil)
        #expect(try peer.address(ofInstance: id) == nil)
        #expect(try redis.client().command("DBSIZE") == .integer(0))
    }

    @Test("cannot start while Redis is out of reach, and says why")
    func startWithoutRedis() throws {
        let redis = try RedisServer()
        try redis.stop()
        let agent = ClusterAgent(endpoint: redis.endpoint, address: "a:1") { _ in }
        let error = #expect(throws: RedisError.self) { try agent.start() }
        #expect(error?.isUnavailable == true)
        #expect(error?.description.contains("cannot reach Redis") == true, "\(String(describing: error))")
    }
}
#endif
