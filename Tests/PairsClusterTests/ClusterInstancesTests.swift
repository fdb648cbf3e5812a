#if Cluster
import Foundation
import PairsCluster
import PairsTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Several real `pairs serve --cluster` instances (the built binary) on one real redis-server, played by the
/// real `pairs bot` and by clients speaking the line protocol over sockets, as netcat does.
@Suite("pairs serve instances as one service, on a real redis-server", Tools.needs("redis-server"), .ownThread)
struct ClusterInstancesTests {
    /// Bounds a bot's game and a process's exit: a debug build on a busy machine is slow.
    static let exitSeconds: TimeInterval = 120
    /// Bounds waiting for a dead instance's entries to expire: their TTL is 5 s (`ClusterRegistry.defaultEntryTTL`).
    static let expirySeconds: TimeInterval = 30

    /// Where the test looks at the registry, as an instance would (it owns nothing).
    private func registry(_ redis: RedisServer) -> ClusterRegistry {
        ClusterRegistry(client: redis.client(), address: "test:1")
    }

    private func bot(_ name: String, through instance: ServeInstance, room: String) throws -> Subprocess {
        try Subprocess(try Tools.pairs(), ["bot", "--host", "127.0.0.1", "--port", String(instance.port), "--room", room,
                                           "--games", "1", "--think-ms", "0", "--name", name])
    }

    @Test("two bots joining one room through different instances play a game there; a netcat user on a third is told where in words")
    func botsMeetAcrossInstances() throws {
        let redis = try RedisServer()
        let (a, b, c) = (try ServeInstance(redis: redis), try ServeInstance(redis: redis), try ServeInstance(redis: redis))
        let peer = registry(redis)
        let ann = try bot("ann", through: a, room: "kitchen")
        let owner = try blockingWaitFor("kitchen owned", within: Self.exitSeconds) { try peer.owner(ofRoom: "kitchen") }
        #expect(owner.address == a.address)
        // A netcat user on the third instance: an error naming the owner's address, and no redirect.
        let netcat = try LineClient(port: c.port)
        netcat.send("watch kitchen")
        let refusal = try netcat.answer()
        #expect(refusal.contains("\"code\":\"owned_elsewhere\""), "\(refusal)")
        #expect(refusal.contains("at \(a.address): connect there and watch kitchen"), "\(refusal)")
        // Bob asks the second instance, is redirected to the first without noticing, and they play.
        let bob = try bot("bob", through: b, room: "kitchen")
        #expect(try ann.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(ann.errorText)")
        #expect(try bob.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(bob.errorText)")
        #expect(ann.lines.contains { $0.hasPrefix("game 1: ann ") && $0.contains(" bob") }, "\(ann.lines)")
        #expect(bob.lines.contains { $0.hasPrefix("game 1: bob ") && $0.contains(" ann") }, "\(bob.lines)")
        #expect(!bob.errorText.contains("reconnect"), "the redirect is not a reconnection: \(bob.errorText)")
    }

    @Test("a client that says it follows redirects gets one naming the owner's host and port and its request")
    func redirectNamesTheOwner() throws {
        let redis = try RedisServer()
        let (a, b) = (try ServeInstance(redis: redis), try ServeInstance(redis: redis))
        let owner = try LineClient(port: a.port)
        owner.send(#"{"type":"join","room":"attic","id":1}"#)
        #expect(try owner.answer().contains("\"type\":\"joined\""))
        let follower = try LineClient(port: b.port)
        follower.send(#"{"type":"hello","name":"cy","redirects":true}"#)
        follower.send(#"{"type":"join","room":"attic","id":7}"#)
        let redirect = try follower.answer()
        #expect(redirect == #"{"type":"redirect","host":"127.0.0.1","port":\#(a.port),"request":"join","room":"attic","id":7}"#)
        // The resume token of the owner's seat, asked on the other instance: the same redirect, for a resume.
        let joinedLine = try LineClient(port: a.port)
        joinedLine.send(#"{"type":"join","room":"cellar","id":1}"#)
        let joined = try joinedLine.answer()
        let token = String(try #require(joined.split(separator: "\"").drop { $0 != "token" }.dropFirst(2).first))
        // The owner records the token off its loops, just after answering: the test waits for it to land.
        let peer = ClusterRegistry(client: redis.client(), address: "test:1")
        try blockingWaitUntil("the token registered", within: Self.exitSeconds) { try peer.owner(ofToken: token) != nil }
        follower.send(#"{"type":"resume","token":"\#(token)","id":8}"#)
        #expect(try follower.answer() == #"{"type":"redirect","host":"127.0.0.1","port":\#(a.port),"request":"resume","token":"\#(token)","id":8}"#)
    }

    @Test("of two instances racing for a room's name, exactly one makes it; the other's client is sent there")
    func raceForARoomHasOneOwner() throws {
        let redis = try RedisServer()
        let (a, b) = (try ServeInstance(redis: redis), try ServeInstance(redis: redis))
        let peer = registry(redis)
        // Rounds, each name new: the two joins leave together, so either instance may win any round.
        for round in 1...8 {
            let (first, second) = (try LineClient(port: a.port), try LineClient(port: b.port))
            first.send("join race-\(round)")
            second.send("join race-\(round)")
            let answers = [try first.answer(), try second.answer()]
            #expect(answers.filter { $0.contains("\"type\":\"joined\"") }.count == 1, "\(answers)")
            let refused = try #require(answers.first { $0.contains("\"type\":\"error\"") }, "\(answers)")
            #expect(refused.contains("\"code\":\"owned_elsewhere\""), "\(refused)")
            let owner = try #require(try peer.owner(ofRoom: "race-\(round)"))
            let winner = answers[0].contains("\"type\":\"joined\"") ? a : b
            #expect(owner.address == winner.address)
            #expect(refused.contains("at \(winner.address):"), "\(refused)")
        }
    }

    @Test("kill -9 of an instance: its rooms expire from the registry, and its peers serve on, the freed names too")
    func deadInstanceExpiresAndPeersServeOn() throws {
        let redis = try RedisServer()
        let (a, b, c) = (try ServeInstance(redis: redis), try ServeInstance(redis: redis), try ServeInstance(redis: redis))
        let peer = registry(redis)
        let doomed = try LineClient(port: a.port)
        doomed.send("join doomed")
        #expect(try doomed.answer().contains("\"type\":\"joined\""))
        let owner = try #require(try peer.owner(ofRoom: "doomed"))
        #expect(owner.address == a.address)
        a.process.kill()
        #expect(try a.process.blockingWaitForExit(within: Self.exitSeconds) == 128 + SIGKILL)
        try blockingWaitUntil("the dead instance's entries to expire", within: Self.expirySeconds) {
            try peer.owner(ofRoom: "doomed") == nil && peer.address(ofInstance: owner.instance) == nil
        }
        // The name is free: a peer makes the room its own.
        let heir = try LineClient(port: b.port)
        heir.send("join doomed")
        #expect(try heir.answer().contains("\"type\":\"joined\""))
        #expect(try peer.owner(ofRoom: "doomed")?.address == b.address)
        // And the peers play on together.
        let ann = try bot("ann", through: b, room: "after")
        _ = try blockingWaitFor("after owned", within: Self.exitSeconds) { try peer.owner(ofRoom: "after") }
        let bob = try bot("bob", through: c, room: "after")
        #expect(try ann.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(ann.errorText)")
        #expect(try bob.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(bob.errorText)")
        #expect(bob.lines.contains { $0.hasPrefix("game 1: bob ") }, "\(bob.lines)")
    }

    @Test("an orderly shutdown leaves the registry at once; a Redis out of reach at start is one line and status 1")
    func leavesOnShutdownAndNeedsRedisAtStart() throws {
        let redis = try RedisServer()
        let a = try ServeInstance(redis: redis)
        let client = try LineClient(port: a.port)
        client.send("join parlour")
        #expect(try client.answer().contains("\"type\":\"joined\""))
        let peer = registry(redis)
        #expect(try peer.owner(ofRoom: "parlour")?.address == a.address)
        a.process.send(SIGTERM)
        #expect(try a.process.blockingWaitForExit(within: Self.exitSeconds) == 0)
        // Gone at once, not after the TTL: the keys themselves are deleted.
        let keys = try redis.client().command("KEYS", "pairs:*")
        #expect(keys.elements?.isEmpty == true, "\(keys)")

        try redis.stop()
        let orphan = try Subprocess(try Tools.pairs(), ["serve", "--cluster", "redis://127.0.0.1:\(redis.port)", "--host", "127.0.0.1",
                                                         "--port", "0", "--data", "none"])
        #expect(try orphan.blockingWaitForExit(within: Self.exitSeconds) == 1)
        let lines = orphan.errorText.split(separator: "\n")
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("pairs serve: cannot reach the cluster's Redis at redis://127.0.0.1:\(redis.port)") == true)
    }

    @Test("Redis lost mid-run: the game under way plays on, what needs Redis is cluster_unavailable, logged once; when it is back, all is written back and works")
    func redisLostAndBack() throws {
        let redis = try RedisServer()
        let a = try ServeInstance(redis: redis)
        let (ann, bob) = (try LineClient(port: a.port), try LineClient(port: a.port))
        ann.send("join steady")
        #expect(try ann.answer().contains("\"type\":\"joined\""))
        bob.send("join steady")
        #expect(try bob.answer().contains("\"type\":\"joined\""))
        try ann.line(containing: "\"phase\":\"playing\"")

        try redis.stop()
        let late = try LineClient(port: a.port)
        late.send("join attic")
        let refusal = try late.answer()
        #expect(refusal.contains("\"code\":\"cluster_unavailable\""), "\(refusal)")
        // A quick match needs nothing of Redis to start: its room is recorded once Redis is back.
        let quick = try LineClient(port: a.port)
        quick.send("join")
        let quickJoined = try quick.answer()
        let quickRoom = String(try #require(quickJoined.split(separator: "\"").drop { $0 != "room" }.dropFirst(2).first))
        #expect(quickRoom.hasPrefix("quick-"), "\(quickJoined)")
        // A flip needs nothing of Redis: whoever is on turn flips, and both see it.
        ann.send("flip 0")
        bob.send("flip 0")
        try ann.line(containing: "\"kind\":\"flip\"")
        try blockingWaitUntil("the log to say Redis is lost", within: Self.exitSeconds) { a.process.errorText.contains(" cluster_unavailable ") }
        // Another refusal after the first line: still one line in the log.
        late.send("join cellar")
        #expect(try late.answer().contains("\"code\":\"cluster_unavailable\""))

        try redis.start()
        try blockingWaitUntil("the log to say Redis is back", within: Self.exitSeconds) { a.process.errorText.contains(" cluster_available") }
        let unavailableLines = a.process.errorText.split(separator: "\n").filter { $0.contains(" cluster_unavailable ") }
        #expect(unavailableLines.count == 1, "\(unavailableLines)")
        // The restarted Redis was empty: the instance wrote its room back, and new names work again.
        let peer = registry(redis)
        try blockingWaitUntil("the room written back", within: Self.exitSeconds) { try peer.owner(ofRoom: "steady")?.address == a.address }
        try blockingWaitUntil("the room made meanwhile recorded", within: Self.exitSeconds) { try peer.owner(ofRoom: quickRoom)?.address == a.address }
        late.send("join attic")
        #expect(try late.answer().contains("\"type\":\"joined\""))
    }
}
#endif
