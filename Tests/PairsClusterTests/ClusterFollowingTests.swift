#if Cluster
import Foundation
import PairsCluster
import PairsTestSupport
import Testing

/// Clients sent between three real `pairs serve --cluster` instances (the built binary) on one real
/// redis-server: spectators, resumed seats and the last seat of a room, each reached through an instance that
/// does not own the room, as a client that follows redirects reaches it.
@Suite("Clients sent between pairs serve instances, on a real redis-server", Tools.needs("redis-server"), .ownThread)
struct ClusterFollowingTests {
    /// Bounds waiting for the registry: a debug build on a busy machine is slow.
    static let waitSeconds: TimeInterval = 120

    /// Where the test looks at the registry, as an instance would (it owns nothing).
    private func registry(_ redis: RedisServer) -> ClusterRegistry {
        ClusterRegistry(client: redis.client(), address: "test:1")
    }

    /// `request` asked of `instance` by a client that follows redirects, and repeated where the redirect
    /// sends it; returns the connection that got the answer, and the answer.
    private func ask(_ request: String, as name: String, through instance: ServeInstance, owner: ServeInstance) throws -> (LineClient, String) {
        let first = try LineClient(port: instance.port)
        first.helloFollowingRedirects(as: name)
        first.send(request)
        let redirect = try first.answer()
        #expect(redirect.contains("\"port\":\(owner.port)"), "\(redirect)")
        let followed = try LineClient.following(redirect, as: name)
        followed.send(request)
        return (followed, try followed.answer())
    }

    /// Whether a line is a `state` whose event turned card `card` (a flip, a match or a mismatch).
    private func isMove(of card: Int) -> (String) -> Bool {
        { line in
            line.contains("\"type\":\"state\"") && ["flip", "match", "mismatch"].contains { line.contains("\"event\":{\"kind\":\"\($0)\"") }
                && (line.contains("\"card\":\(card),") || line.contains("\"card\":\(card)}"))
        }
    }

    /// The JSON object of a line.
    private func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    @Test("a spectator asking a third instance is sent to the room's owner and sees the game's states as they happen")
    func spectatorThroughAThirdInstance() throws {
        let redis = try RedisServer()
        let (a, b, c) = (try ServeInstance(redis: redis), try ServeInstance(redis: redis), try ServeInstance(redis: redis))
        let ann = try LineClient(port: a.port)
        ann.send("name ann")
        ann.send("join porch")
        #expect(try ann.answer().contains("\"type\":\"joined\""))
        let (bob, bobJoined) = try ask(#"{"type":"join","room":"porch","id":1}"#, as: "bob", through: b, owner: a)
        #expect(bobJoined.contains("\"type\":\"joined\"") && bobJoined.contains("\"seat\":1"), "\(bobJoined)")
        let (eve, eveWatching) = try ask(#"{"type":"watch","room":"porch","id":2}"#, as: "eve", through: c, owner: a)
        #expect(eveWatching.contains("\"type\":\"joined\"") && eveWatching.contains("\"seat\":null"), "\(eveWatching)")
        try eve.line(containing: "\"phase\":\"playing\"")
        // Whoever is on turn flips card 0 (the other is told it is not their turn); then card 1, which the
        // room answers as a match or a mismatch.
        for card in 0...1 {
            ann.send("flip \(card)")
            bob.send("flip \(card)")
            let seen = try object(try ann.line("the state of card \(card)'s flip", where: isMove(of: card)))
            let watched = try object(try eve.line("the state of card \(card)'s flip, watched", where: isMove(of: card)))
            // The same moment of the same room: the spectator on the owner sees what the players see.
            #expect(watched["seq"] as? Int == seen["seq"] as? Int, "\(watched) \(seen)")
            #expect((watched["cards"] as? NSArray) == (seen["cards"] as? NSArray), "\(watched) \(seen)")
        }
    }

    @Test("a token from joined, resumed through another instance than the one the player joined on, takes the seat back there")
    func resumeThroughAnotherInstance() throws {
        let redis = try RedisServer()
        let (a, b) = (try ServeInstance(redis: redis), try ServeInstance(redis: redis))
        let ann = try LineClient(port: a.port)
        ann.send("name ann")
        ann.send("join study")
        let joined = try ann.answer()
        let token = try field("token", of: joined)
        let bob = try LineClient(port: a.port)
        bob.send("name bob")
        bob.send("join study")
        #expect(try bob.answer().contains("\"type\":\"joined\""))
        // The owner records the token off its loops, just after answering: the test waits for it to land.
        try blockingWaitUntil("the token registered", within: Self.waitSeconds) { try registry(redis).owner(ofToken: token) != nil }
        ann.hangUp()
        try bob.line(containing: "\"kind\":\"disconnect\"")
        let (back, answer) = try ask(#"{"type":"resume","token":"\#(token)","id":3}"#, as: "ann", through: b, owner: a)
        #expect(answer.contains("\"type\":\"joined\"") && answer.contains("\"room\":\"study\"") && answer.contains("\"seat\":0"), "\(answer)")
        #expect(try field("token", of: answer) != token, "each token works once: the seat gets a new one")
        try bob.line(containing: "\"kind\":\"reconnect\"")
        // Back in her seat: her flip on turn, or the refusal of one off turn, comes from the room.
        back.send("flip 0")
        bob.send("flip 0")
        try back.line("her room's state of card 0's flip", where: isMove(of: 0))
    }

    @Test("two clients racing for a room's last seat through two instances that do not own it: exactly one sits, the other gets room_full as on one server")
    func raceForTheLastSeat() throws {
        let redis = try RedisServer()
        let (a, b, c) = (try ServeInstance(redis: redis), try ServeInstance(redis: redis), try ServeInstance(redis: redis))
        // Rounds, each room new: the two joins leave together, so either client may win any round.
        for round in 1...4 {
            let room = "den-\(round)"
            let ann = try LineClient(port: a.port)
            ann.send("join \(room)")
            #expect(try ann.answer().contains("\"type\":\"joined\""))
            let request = #"{"type":"join","room":"\#(room)","id":5}"#
            let (cy, dee) = (try LineClient(port: b.port), try LineClient(port: c.port))
            cy.helloFollowingRedirects(as: "cy")
            dee.helloFollowingRedirects(as: "dee")
            cy.send(request)
            dee.send(request)
            let (cyThere, deeThere) = (try LineClient.following(try cy.answer(), as: "cy"), try LineClient.following(try dee.answer(), as: "dee"))
            cyThere.send(request)
            deeThere.send(request)
            let answers = [try cyThere.answer(), try deeThere.answer()]
            #expect(answers.filter { $0.contains("\"type\":\"joined\"") && $0.contains("\"seat\":1") }.count == 1, "\(answers)")
            let refused = try #require(answers.first { $0.contains("\"type\":\"error\"") }, "\(answers)")
            // What a third client asking the owner itself is told, word for word.
            let late = try LineClient(port: a.port)
            late.send(request)
            let alone = try late.answer()
            #expect(alone.contains("\"code\":\"room_full\""), "\(alone)")
            #expect(refused == alone, "\(refused) \(alone)")
        }
    }

    @Test("history, leaderboard and profile are the same from all three instances on one PostgreSQL, after games finished on two of them",
          .enabled(if: PostgresServer.binDirectory() != nil || Tools.isRequiringTools, Comment(rawValue: PostgresServer.missingReason)))
    func storeAnswersAlikeEverywhere() throws {
        let postgres = try PostgresServer()
        defer { postgres.stop() }
        let redis = try RedisServer()
        let url = postgres.url()
        // One first: it migrates the empty database, which the others then find at the current version.
        let a = try ServeInstance(redis: redis, data: url)
        let (b, c) = (try ServeInstance(redis: redis, data: url), try ServeInstance(redis: redis, data: url))
        // Claimed names, so the games are rated: one game on a, one on b, each between two bots there.
        func bot(_ name: String, _ instance: ServeInstance, _ room: String) throws -> Subprocess {
            try Subprocess(try Tools.pairs(), ["bot", "--host", "127.0.0.1", "--port", String(instance.port), "--room", room,
                                               "--games", "1", "--think-ms", "0", "--name", name, "--password"],
                           environment: ["PAIRS_PASSWORD": "secret-\(name)"])
        }
        let bots = [try bot("ann", a, "one"), try bot("bob", a, "one"), try bot("cy", b, "two"), try bot("dee", b, "two")]
        for played in bots {
            #expect(try played.blockingWaitForExit(within: Self.waitSeconds) == 0, "\(played.errorText)")
        }
        let requests = [#"{"type":"history","id":1}"#, #"{"type":"leaderboard","id":2}"#,
                        #"{"type":"profile","name":"ann","id":3}"#, #"{"type":"profile","name":"dee","id":4}"#]
        var answers: [[String]] = []
        for instance in [a, b, c] {
            let client = try LineClient(port: instance.port)
            answers.append(try requests.map { request in
                client.send(request)
                return try client.line(containing: "\"id\":\(try object(request)["id"] as! Int)}")
            })
        }
        // A game's last state is sent once it is stored: both games are there for whoever asks.
        let history = try object(answers[0][0])
        #expect(Set((history["games"] as? [[String: Any]] ?? []).compactMap { $0["room"] as? String }) == ["one", "two"], "\(history)")
        #expect(answers[0][1].contains("\"name\":\"ann\"") && answers[0][1].contains("\"name\":\"dee\""), "\(answers[0][1])")
        #expect(answers[0][2].contains("\"type\":\"profile\"") && answers[0][2].contains("\"rated\":true"), "\(answers[0][2])")
        #expect(answers[1] == answers[0], "b answers as a: \(answers[1]) \(answers[0])")
        #expect(answers[2] == answers[0], "c answers as a: \(answers[2]) \(answers[0])")
    }
}
#endif
