#if Cluster
import Foundation
import PairsCluster
import PairsTestSupport
import Testing

/// Quick match across real `pairs serve --cluster` instances (the built binary) on one real redis-server,
/// played by the real `pairs bot`, which follows redirects.
@Suite("Quick match across pairs serve instances, on a real redis-server", Tools.needs("redis-server"), .ownThread)
struct ClusterQuickMatchInstancesTests {
    /// Bounds a bot's game and a process's exit: a debug build on a busy machine is slow.
    static let exitSeconds: TimeInterval = 120

    private func quickBot(_ name: String, through instance: ServeInstance) throws -> Subprocess {
        try Subprocess(try Tools.pairs(), ["bot", "--host", "127.0.0.1", "--port", String(instance.port),
                                           "--games", "1", "--think-ms", "0", "--name", name])
    }

    /// The quick rooms queued in the registry, as waiter keys name them.
    private func queuedWaiters(_ redis: RedisServer) throws -> [String] {
        let keys = try redis.client().command("KEYS", "pairs:waiter:*")
        return (keys.elements ?? []).compactMap(\.text).map { String($0.dropFirst("pairs:waiter:".count)) }
    }

    @Test("two bots quick-joining through two instances, nobody else waiting, meet in one room and finish a game")
    func quickMatchAcrossInstances() throws {
        let redis = try RedisServer()
        let (a, b) = (try ServeInstance(redis: redis), try ServeInstance(redis: redis))
        let ann = try quickBot("ann", through: a)
        // Ann waits on the first instance, her room queued in the cluster.
        let queued = try blockingWaitFor("ann's quick room queued", within: Self.exitSeconds) { try queuedWaiters(redis).first }
        #expect(queued.hasPrefix("quick-"), "\(queued)")
        // Bob asks the second, which has nobody waiting: he is sent to ann's room on the first.
        let bob = try quickBot("bob", through: b)
        #expect(try ann.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(ann.errorText)")
        #expect(try bob.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(bob.errorText)")
        #expect(ann.lines.contains { $0.hasPrefix("game 1: ann ") && $0.contains(" bob") }, "\(ann.lines)")
        #expect(bob.lines.contains { $0.hasPrefix("game 1: bob ") && $0.contains(" ann") }, "\(bob.lines)")
        // Taken from the queue once: the waiter's key says who took it (or is gone), and nobody is left queued.
        let left = try redis.client().command("GET", "pairs:waiter:\(queued)").text
        #expect(left == nil || left?.hasPrefix("matched:") == true, "\(left ?? "")")
        #expect(try queuedWaiters(redis).allSatisfy { $0 == queued }, "no other waiter was queued")
    }

    @Test("the Python bot, quick-joining through another instance than a waiting pairs bot, is sent to its room and plays",
          Tools.needs("python3"))
    func pythonBotFollowsAQuickMatchRedirect() throws {
        let redis = try RedisServer()
        let (a, b) = (try ServeInstance(redis: redis), try ServeInstance(redis: redis))
        let ann = try quickBot("ann", through: a)
        _ = try blockingWaitFor("ann's quick room queued", within: Self.exitSeconds) { try queuedWaiters(redis).first }
        // clients/python/pairs_bot.py, found from this source file (Tests/PairsClusterTests/).
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("clients/python/pairs_bot.py")
        let snake = try Subprocess(try Tools.external("python3"), [script.path, "--host", "127.0.0.1", "--port", String(b.port),
                                                                   "--games", "1", "--think-ms", "0", "--name", "snake"])
        #expect(try snake.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(snake.errorText)")
        #expect(try ann.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(ann.errorText)")
        #expect(ann.lines.contains { $0.hasPrefix("game 1: ann ") && $0.contains(" snake") }, "\(ann.lines)")
    }

    @Test("pairs load --host A,B spreads its connections over two instances, follows the redirects, and finishes its games")
    func loadOverTwoInstances() throws {
        let redis = try RedisServer()
        let (a, b) = (try ServeInstance(redis: redis), try ServeInstance(redis: redis))
        let load = try Subprocess(try Tools.pairs(), ["load", "--host", "\(a.address),\(b.address)", "--games", "6",
                                                      "--concurrency", "2", "--loops", "1", "--json"])
        #expect(try load.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(load.errorText)")
        let object = try JSONSerialization.jsonObject(with: Data(load.lines.joined(separator: "\n").utf8)) as? [String: Any]
        let summary = try #require(object, "\(load.lines)")
        #expect(summary["games"] as? Int == 6)
        #expect(summary["games_abandoned"] as? Int == 0 && summary["games_forfeited"] as? Int == 0)
        #expect((summary["errors"] as? [String: Any])?.isEmpty == true, "\(summary["errors"] ?? "")")
        let connections = try #require(summary["connections"] as? [String: Int])
        #expect(connections["failed"] == 0 && connections["dropped"] == 0, "\(connections)")
    }

    /// What quick room `room`'s waiter key holds: its instance's id while queued, `matched:<id>` once taken.
    private func waiterEntry(_ room: String, _ redis: RedisServer) throws -> String? {
        try redis.client().command("GET", "pairs:waiter:\(room)").text
    }

    @Test("a player whose partner from another instance never came is queued again once the promise lapses, and a later quick joiner through that other instance plays them",
          .timeLimit(.minutes(5)))
    func lapsedPromiseIsQueuedAgain() throws {
        let redis = try RedisServer()
        let (a, b) = (try ServeInstance(redis: redis), try ServeInstance(redis: redis))
        let ann = try quickBot("ann", through: a)
        let queued = try blockingWaitFor("ann's quick room queued", within: Self.exitSeconds) { try queuedWaiters(redis).first }
        do {
            // A client that follows redirects takes ann through the second instance, then goes without coming.
            let ghost = try LineClient(port: b.port)
            ghost.send(#"{"type":"hello","name":"ghost","redirects":true}"#)
            ghost.send(#"{"type":"join","id":1}"#)
            let redirect = try ghost.answer()
            #expect(redirect.contains("\"type\":\"redirect\"") && redirect.contains(queued), "\(redirect)")
        }
        #expect(try waiterEntry(queued, redis)?.hasPrefix("matched:") == true)
        // The seat is kept for the ghost for the promise's 30 s, then ann's room is queued again by its instance.
        try blockingWaitUntil("ann's room queued again", within: Self.exitSeconds) {
            guard let entry = try waiterEntry(queued, redis) else { return false }
            return !entry.hasPrefix("matched:")
        }
        let bob = try quickBot("bob", through: b)
        #expect(try bob.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(bob.errorText)")
        #expect(try ann.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(ann.errorText)")
        #expect(ann.lines.contains { $0.hasPrefix("game 1: ann ") && $0.contains(" bob") }, "\(ann.lines)")
    }

    @Test("a netcat quick joiner is paired on its own instance only: a player waiting on another stays queued")
    func netcatIsPairedLocally() throws {
        let redis = try RedisServer()
        let (a, b) = (try ServeInstance(redis: redis), try ServeInstance(redis: redis))
        let follower = try LineClient(port: a.port)
        follower.send(#"{"type":"hello","name":"ann","redirects":true}"#)
        follower.send(#"{"type":"join","id":1}"#)
        #expect(try follower.answer().contains("\"type\":\"joined\""))
        let queued = try blockingWaitFor("ann's quick room queued", within: Self.exitSeconds) { try queuedWaiters(redis).first }
        let netcat = try LineClient(port: b.port)
        netcat.send("join")
        let joined = try netcat.answer()
        #expect(joined.contains("\"type\":\"joined\"") && !joined.contains(queued), "\(joined)")
        #expect(try queuedWaiters(redis) == [queued])
    }
}
#endif

#if Cluster
/// The registry's quick-match queue carries the room a waiter waits in: its id.
@Suite("The cluster registry's waiters name their rooms", Tools.needs("redis-server"), .ownThread)
struct ClusterWaiterRoomTests {
    @Test("a waiter queued under its room's name is taken under that name, with its owner's address, in one pop")
    func waiterIsItsRoom() throws {
        let redis = try RedisServer()
        let a = ClusterRegistry(client: redis.client(), address: "a:1", entryTTL: .seconds(30))
        let b = ClusterRegistry(client: redis.client(), address: "b:1", entryTTL: .seconds(30))
        try a.join()
        try b.join()
        #expect(try a.matchOrWait(rules: "classic", waiter: "quick-aaaaaa-1") == .waiting(waiter: "quick-aaaaaa-1"))
        #expect(a.ownedWaiters == ["quick-aaaaaa-1"])
        #expect(try b.matchOrWait(rules: "classic", waiter: "quick-bbbbbb-1")
                == .matched(waiter: "quick-aaaaaa-1", owner: ClusterOwner(instance: a.instance, address: "a:1")))
        #expect(try a.withdraw(waiter: "quick-aaaaaa-1") == .matched(byInstance: b.instance))
    }

    @Test("a waiter matched elsewhere and dropped at a renewal still withdraws as matched, not as unknown")
    func matchedWaiterAfterRenewal() throws {
        let redis = try RedisServer()
        let a = ClusterRegistry(client: redis.client(), address: "a:1", entryTTL: .seconds(30))
        let b = ClusterRegistry(client: redis.client(), address: "b:1", entryTTL: .seconds(30))
        try a.join()
        try b.join()
        #expect(try a.matchOrWait(rules: "classic", waiter: "quick-aaaaaa-2") == .waiting(waiter: "quick-aaaaaa-2"))
        guard case .matched = try b.matchOrWait(rules: "classic", waiter: "quick-bbbbbb-2") else { Issue.record("not matched"); return }
        #expect(try a.refresh().matchedWaiters == ["quick-aaaaaa-2": b.instance])
        #expect(try a.withdraw(waiter: "quick-aaaaaa-2") == .matched(byInstance: b.instance))
        #expect(try a.withdraw(waiter: "never-queued") == .unknown)
    }
}
#endif
