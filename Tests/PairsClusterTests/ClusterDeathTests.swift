#if Cluster
import Foundation
import PairsCluster
import PairsTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The death of an instance in the middle of a game, end to end: three real `pairs serve --cluster` instances
/// (the built binary) on one real redis-server, keeping their games in one real PostgreSQL, played by clients
/// speaking the line protocol over sockets and by the real `pairs bot`.
@Suite("an instance of a cluster killed mid-game, on real Redis and PostgreSQL", Tools.needs("redis-server"),
       .enabled(if: PostgresServer.binDirectory() != nil || Tools.isRequiringTools, Comment(rawValue: PostgresServer.missingReason)),
       .ownThread)
struct ClusterDeathTests {
    /// Bounds a bot's game, a process's exit and a start: a debug build on a busy machine is slow.
    static let exitSeconds: TimeInterval = 120
    /// Bounds waiting for a dead instance's entries to expire: their TTL is 5 s (`ClusterRegistry.defaultEntryTTL`).
    static let expirySeconds: TimeInterval = 30
    /// The rules of the killed room: the smallest board, and no clocks, so that nothing but the test's flips
    /// moves the game (a turn clock could end the second game before the kill).
    static let smallRoom = #""pairs":2,"turn_seconds":0,"reveal_ms":0"#

    @Test("kill -9 of the owner mid-game: its players' connections end, a resume elsewhere is told the game was lost as after a restart, the finished game is in PostgreSQL, and the others serve on")
    func ownerKilledMidGame() throws {
        let postgres = try PostgresServer()
        let redis = try RedisServer()
        let database = postgres.url()
        let (a, b, c) = (try ServeInstance(redis: redis, data: database), try ServeInstance(redis: redis, data: database),
                         try ServeInstance(redis: redis, data: database))
        let peer = ClusterRegistry(client: redis.client(), address: "test:1")

        // Ann makes the room on A; Bob asks B, follows its redirect to A, and sits down there.
        let ann = try LineClient(port: a.port)
        ann.send(#"{"type":"hello","name":"ann"}"#)
        ann.send(#"{"type":"join","room":"doomed",\#(Self.smallRoom),"id":1}"#)
        let annJoined = try Self.object(try ann.answer())
        let annToken = try #require(annJoined["token"] as? String, "\(annJoined)")
        let asked = try LineClient(port: b.port)
        asked.send(#"{"type":"hello","name":"bob","redirects":true}"#)
        asked.send(#"{"type":"join","room":"doomed","id":1}"#)
        let redirect = try asked.answer()
        #expect(redirect == #"{"type":"redirect","host":"127.0.0.1","port":\#(a.port),"request":"join","room":"doomed","id":1}"#)
        let bob = try LineClient(port: a.port)
        bob.send(#"{"type":"hello","name":"bob","redirects":true}"#)
        bob.send(#"{"type":"join","room":"doomed","id":1}"#)
        let bobJoined = try Self.object(try bob.answer())
        let (annSeat, bobSeat) = (try #require(annJoined["seat"] as? Int), try #require(bobJoined["seat"] as? Int))
        let seats = [annSeat: ann, bobSeat: bob]
        #expect(seats.count == 2, "\(annJoined) \(bobJoined)")

        // The first game is played to its end, and the second starts: one card of it is up when A dies.
        var table = Table(seats: seats, watching: ann)
        let finished = try table.play { $0.phase == "over" }
        ann.send(#"{"type":"rematch"}"#)
        bob.send(#"{"type":"rematch"}"#)
        _ = try table.play { $0.game == 2 && $0.event == "flip" }
        // The token is in the registry under A before the kill, so that its going away below means something.
        try blockingWaitUntil("ann's token registered", within: Self.exitSeconds) { try peer.owner(ofToken: annToken)?.address == a.address }
        let owner = try #require(try peer.owner(ofRoom: "doomed"))
        #expect(owner.address == a.address)

        a.process.kill()
        #expect(try a.process.blockingWaitForExit(within: Self.exitSeconds) == 128 + SIGKILL)
        // Its players see their connections end (not merely fall silent).
        for player in [ann, bob] {
            while player.nextLine() != nil {}
            #expect(player.closedByServer)
        }
        try blockingWaitUntil("the dead instance's entries to expire", within: Self.expirySeconds) {
            try peer.owner(ofToken: annToken) == nil && peer.owner(ofRoom: "doomed") == nil && peer.address(ofInstance: owner.instance) == nil
        }

        // Ann resumes her seat on C, and is told what a single server tells her after a restart, word for word.
        let resume = { (token: String) in #"{"type":"resume","token":"\#(token)","id":9}"# }
        let elsewhere = try LineClient(port: c.port)
        elsewhere.send(resume(annToken))
        let lost = try elsewhere.answer()
        #expect(lost.contains(#""code":"bad_token""#), "\(lost)")
        let afterRestart = try Self.answerAfterRestart(to: resume)
        #expect(lost == afterRestart)

        // The game A finished is in PostgreSQL, as B and C tell it: its players, their scores and its winner.
        let historian = try LineClient(port: b.port)
        historian.send(#"{"type":"history","name":"ann","id":10}"#)
        let history = try Self.object(try historian.line(containing: #""type":"history""#))
        let games = try #require(history["games"] as? [[String: Any]], "\(history)")
        #expect(games.count == 1, "only the finished game: \(games)")
        let game = try #require(games.first)
        #expect(game["room"] as? String == "doomed")
        let players = (game["players"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? "?")=\($0["score"] ?? "?")" }
        #expect(players == finished.players, "\(game)")
        #expect(game["winner"] as? Int == finished.winner, "\(game)")
        for (name, instance) in [("ann", b), ("bob", c)] {
            let asker = try LineClient(port: instance.port)
            asker.send(#"{"type":"profile","name":"\#(name)","id":11}"#)
            let profile = try Self.object(try asker.line(containing: #""type":"profile""#))
            let totals = try #require(profile["totals"] as? [String: Any], "\(profile)")
            #expect(totals["games"] as? Int == 1, "\(name): \(profile)")
            let decided = [totals["wins"], totals["losses"], totals["draws"]].compactMap { $0 as? Int }.reduce(0, +)
            #expect(decided == 1, "\(name): \(profile)")
        }

        // B and C serve on: two bots meet through them and finish a game.
        let cy = try Self.bot("cy", through: b, room: "after")
        _ = try blockingWaitFor("after owned", within: Self.exitSeconds) { try peer.owner(ofRoom: "after") }
        let di = try Self.bot("di", through: c, room: "after")
        #expect(try cy.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(cy.errorText)")
        #expect(try di.blockingWaitForExit(within: Self.exitSeconds) == 0, "\(di.errorText)")
        #expect(di.lines.contains { $0.hasPrefix("game 1: di ") && $0.contains(" cy") }, "\(di.lines)")
    }

    /// What a single `pairs serve` (no cluster) answers to the `request` of a seat it gave out before it was
    /// killed and started again.
    private static func answerAfterRestart(to request: (_ token: String) -> String) throws -> String {
        let first = try singleServer()
        let player = try LineClient(port: first.port)
        player.send(#"{"type":"join","room":"kitchen"}"#)
        let token = try #require(try object(try player.answer())["token"] as? String)
        first.process.kill()
        _ = try first.process.blockingWaitForExit(within: exitSeconds)
        let second = try singleServer()
        defer { second.process.kill() }
        let back = try LineClient(port: second.port)
        back.send(request(token))
        return try back.answer()
    }

    /// A `pairs serve` of its own, keeping nothing, on 127.0.0.1: the process and its port.
    private static func singleServer() throws -> (process: Subprocess, port: Int) {
        let process = try Subprocess(try Tools.pairs(), ["serve", "--host", "127.0.0.1", "--port", "0", "--data", "none"])
        let (_, line) = try process.blockingWaitForLine(within: exitSeconds, "the listening line") { $0.hasPrefix("pairs listening on ") }
        guard let port = line.split(separator: ":").last.flatMap({ Int($0) }) else {
            process.kill()
            throw Tools.Missing(description: "no port in the listening line: \(line)")
        }
        return (process, port)
    }

    private static func bot(_ name: String, through instance: ServeInstance, room: String) throws -> Subprocess {
        try Subprocess(try Tools.pairs(), ["bot", "--host", "127.0.0.1", "--port", String(instance.port), "--room", room,
                                           "--games", "1", "--think-ms", "0", "--name", name])
    }

    /// A line of JSON as an object.
    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }
}

/// Two players at one table, played by the test: it reads the room's states from one of them and has the
/// player on turn flip, remembering every face it has seen, so a game ends after a few turns.
private struct Table {
    /// One state of the room, the parts the test plays by.
    struct State {
        var game: Int
        var phase: String
        var turn: Int?
        var event: String?
        var eventID: Int?
        /// Each card's state (`down`, `up`, `matched`) and face when shown.
        var cards: [(state: String, face: String?)]
        /// `name=score` for each seat.
        var players: [String]
        var winner: Int?
    }

    let seats: [Int: LineClient]
    let watching: LineClient
    private var faces: [Int: String] = [:]
    private var facesOfGame = 0
    /// The id of the flip sent and not yet seen in a state: nothing more is sent until it is.
    private var pending: Int?
    private var nextID = 100

    init(seats: [Int: LineClient], watching: LineClient) {
        self.seats = seats
        self.watching = watching
    }

    /// Reads states, flipping for the player on turn, until one satisfies `done`: that state.
    mutating func play(until done: (State) -> Bool) throws -> State {
        while true {
            let state = try nextState()
            if state.game != facesOfGame { (faces, facesOfGame) = ([:], state.game) }
            for (index, card) in state.cards.enumerated() { if let face = card.face { faces[index] = face } }
            if let pending, state.eventID == pending { self.pending = nil }
            if done(state) { return state }
            guard state.phase == "playing", pending == nil, let turn = state.turn, let player = seats[turn] else { continue }
            nextID += 1
            pending = nextID
            player.send(#"{"type":"flip","card":\#(choice(in: state)),"id":\#(nextID)}"#)
        }
    }

    /// A card that makes a set when one can, else one never seen.
    private func choice(in state: State) -> Int {
        let down = state.cards.indices.filter { state.cards[$0].state == "down" }
        if let up = state.cards.firstIndex(where: { $0.state == "up" }) {
            return down.first { faces[$0] == state.cards[up].face } ?? down.first { faces[$0] == nil } ?? down[0]
        }
        if let known = down.first(where: { card in down.contains { $0 != card && faces[$0] != nil && faces[$0] == faces[card] } }) {
            return known
        }
        return down.first { faces[$0] == nil } ?? down[0]
    }

    private func nextState() throws -> State {
        for _ in 0..<LineClient.maxSkippedLines {
            guard let line = watching.nextLine() else { break }
            guard line.contains(#""type":"state""#) else { continue }
            let object = try ClusterDeathTests.object(line)
            let event = object["event"] as? [String: Any]
            let cards = (object["cards"] as? [[String: Any]] ?? []).map { ($0["state"] as? String ?? "", $0["face"] as? String) }
            let players = (object["players"] as? [Any] ?? []).map { seat in
                (seat as? [String: Any]).map { "\($0["name"] ?? "?")=\($0["score"] ?? "?")" } ?? "empty"
            }
            return State(game: object["game"] as? Int ?? 0, phase: object["phase"] as? String ?? "", turn: object["turn"] as? Int,
                         event: event?["kind"] as? String, eventID: event?["id"] as? Int, cards: cards, players: players,
                         winner: object["winner"] as? Int)
        }
        throw TimedOut(what: "a state of the room")
    }
}
#endif
