import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

@Suite("What the lobby keeps and asks the store")
struct StorageLobbyTests {
    private func keeping(_ configure: (inout LobbyConfiguration) -> Void = { _ in }) -> LobbyHarness {
        LobbyHarness {
            $0.keepsGames = true
            configure(&$0)
        }
    }

    @Test("a hello waits for the store's word on its name, and requests sent right after it wait too, so a join sits down under the new name")
    func helloWaitsForTheStore() {
        let lobby = keeping()
        let ann = lobby.connect()
        _ = lobby.take(ann)
        lobby.send(#"{"type":"hello","name":"ann","id":1}"#, from: ann)
        lobby.send(#"{"type":"join","room":"den","id":2}"#, from: ann)
        lobby.send(#"{"type":"ping","id":3}"#, from: ann)
        #expect(lobby.take(ann).isEmpty, "nothing is answered before the name is")
        #expect(lobby.lookups.map(\.name) == ["ann"])
        #expect(lobby.lookups.first?.password == nil)
        lobby.answerName(.free)
        let answers = lobby.take(ann)
        guard case .welcome(let welcome)? = answers.first else { Issue.record("no welcome first: \(answers)"); return }
        #expect(welcome.name == "ann")
        #expect(welcome.id == .integer(1))
        #expect(answers.contains { if case .joined(let joined) = $0 { joined.id == .integer(2) } else { false } })
        #expect(answers.last == .pong(id: .integer(3)))
        let state = answers.compactMap { if case .state(let state) = $0 { state } else { nil } }.first
        #expect(state?.state.players.first??.name == "ann")
    }

    @Test("a name someone claimed is refused without its password or with a wrong one, and set with the right one")
    func claimedNames() {
        let lobby = keeping()
        let client = lobby.connect()
        _ = lobby.take(client)
        lobby.send(#"{"type":"hello","name":"ann","id":1}"#, from: client)
        lobby.answerName(.taken)
        #expect(lobby.errors(client) == [.nameTaken])
        lobby.send(#"{"type":"hello","name":"ann","password":"guess","id":2}"#, from: client)
        #expect(lobby.lookups.first?.password == "guess")
        lobby.answerName(.wrongPassword)
        #expect(lobby.errors(client) == [.badPassword])
        lobby.send(#"{"type":"hello","name":"ann","password":"secret","id":3}"#, from: client)
        lobby.answerName(.verified)
        guard case .welcome(let welcome)? = lobby.take(client).first else { Issue.record("no welcome"); return }
        #expect(welcome.name == "ann")
        let logged = lobby.log.flatMap(\.event.fields).compactMap { if case .text(let text) = $0.value { text } else { nil } }
        #expect(lobby.log.contains { $0.event == .wrongPassword(LoggedConnection(id: client, name: "player1", peer: "127.0.0.1:40001"), name: "ann", inARow: 1) })
        #expect(!logged.contains { $0.contains("secret") || $0.contains("guess") }, "a password is never logged")
    }

    @Test("wrong passwords in a row make each next check wait longer, up to a bound, and a right one starts over")
    func wrongPasswordsSlowDown() {
        // Only the connection's own slowdown here: the limits across connections are off.
        let lobby = keeping { $0.passwordGuesses.freeFailures = .max }
        let client = lobby.connect()
        var delays: [Int64] = []
        for _ in 0..<8 {
            lobby.send(#"{"type":"hello","name":"ann","password":"guess"}"#, from: client)
            delays.append(lobby.lookups.first?.delayMilliseconds ?? -1)
            lobby.answerName(.wrongPassword)
        }
        #expect(delays == [0, 500, 1000, 2000, 4000, 8000, 16_000, 16_000])
        lobby.send(#"{"type":"hello","name":"ann","password":"right"}"#, from: client)
        lobby.answerName(.verified)
        lobby.send(#"{"type":"hello","name":"ann","password":"typo"}"#, from: client)
        #expect(lobby.lookups.first?.delayMilliseconds == 0)
    }

    @Test("a second hello while the first waits is kept in order behind it")
    func secondHelloWaitsItsTurn() {
        let lobby = keeping()
        let client = lobby.connect()
        _ = lobby.take(client)
        lobby.send(#"{"type":"hello","name":"ann"}"#, from: client)
        lobby.send(#"{"type":"hello","name":"bob"}"#, from: client)
        #expect(lobby.lookups.map(\.name) == ["ann"])
        lobby.answerName(.free)
        #expect(lobby.lookups.map(\.name) == ["bob"])
        lobby.answerName(.free)
        let names = lobby.take(client).compactMap { if case .welcome(let welcome) = $0 { welcome.name } else { nil } }
        #expect(names == ["ann", "bob"])
    }

    @Test("a finished game is handed over with its rules, players, outcome, ending, deal and every flip at its moment; rated only between proved names")
    func finishedGamesAreRecorded() throws {
        let lobby = keeping { $0.defaultRules.turnSeconds = 0 }
        let ann = lobby.connect()
        lobby.send(#"{"type":"hello","name":"ann","password":"a"}"#, from: ann)
        lobby.answerName(.claimed)
        lobby.send(#"{"type":"join","room":"den"}"#, from: ann)
        let bob = lobby.connect()
        lobby.send(#"{"type":"hello","name":"bob"}"#, from: bob)
        lobby.answerName(.free)
        lobby.send(#"{"type":"join","room":"den"}"#, from: bob)
        let faces = try lobby.firstDeal(RuleSet(pairs: 2, turnSeconds: 0, revealMilliseconds: 1000, againOnMatch: true))
        var flipped: [Int] = []
        for face in Set(faces).sorted() {
            for card in faces.indices where faces[card] == face {
                lobby.advance(by: 250)
                lobby.flip(card, by: ann)
                flipped.append(card)
            }
        }
        let game = try #require(lobby.records.first)
        #expect(lobby.records.count == 1)
        #expect(game.room == "den")
        #expect(game.players.map(\.name) == ["ann", "bob"])
        #expect(game.players.map(\.claimed) == [true, false])
        #expect(game.players.map(\.score) == [2, 0])
        #expect(!game.isRated, "bob's name is not claimed")
        #expect(game.outcome == .win(.first))
        #expect(game.end == .cleared)
        #expect(game.deal == faces)
        #expect(game.moves.map(\.action) == flipped.map { .flip(card: $0) })
        #expect(game.moves.map(\.milliseconds) == [250, 500, 750, 1000])
        #expect(game.started.milliseconds(until: game.ended) == 1000)
    }

    @Test("history, replay, leaderboard and profile are asked of the store for the client that asked, with the ladder of the rules it names")
    func queriesGoToTheStore() {
        let lobby = keeping()
        let client = lobby.connect()
        lobby.send(#"{"type":"history","name":"ann","limit":5,"before":90,"id":1}"#, from: client)
        lobby.send(#"{"type":"replay","game":12,"id":2}"#, from: client)
        lobby.send(#"{"type":"leaderboard","rules":{"seats":1,"game_seconds":60},"by":"flips","id":3}"#, from: client)
        lobby.send(#"{"type":"profile","name":"ann","id":4}"#, from: client)
        lobby.send(#"{"type":"history","rules":{"match":3}}"#, from: client)
        lobby.send(#"{"type":"history","tournament":"cup-0a1b2c3d","id":5}"#, from: client)
        let queries = lobby.queries.map(\.query)
        let solo = Variant(seats: .one, setSize: .pair, deck: .words, scoring: .classic, gameSeconds: 60, peekMilliseconds: 0)
        let triples = Variant(seats: .two, setSize: .triple, deck: .words, scoring: .classic, gameSeconds: 0, peekMilliseconds: 0)
        #expect(queries == [
            .history(name: "ann", ladder: nil, tournament: nil, limit: 5, before: 90), .replay(game: 12),
            .leaderboard(variant: solo, limit: StorageLimits.defaultLimit, soloBy: .flips), .profile(name: "ann"),
            .history(name: nil, ladder: RulesJSON.ladder(of: triples), tournament: nil, limit: StorageLimits.defaultLimit, before: nil),
            .history(name: nil, ladder: nil, tournament: "cup-0a1b2c3d", limit: StorageLimits.defaultLimit, before: nil),
        ])
        #expect(lobby.queries.map(\.request) == [.integer(1), .integer(2), .integer(3), .integer(4), nil, .integer(5)])
        #expect(lobby.queries.allSatisfy { $0.connection == client })
    }

    @Test("a server that keeps nothing refuses history, replays, leaderboards, profiles and passwords with no_storage, and sets plain names at once")
    func noStorage() {
        let lobby = LobbyHarness()
        let client = lobby.connect()
        _ = lobby.take(client)
        for line in [#"{"type":"history"}"#, #"{"type":"replay","game":1}"#, #"{"type":"leaderboard"}"#,
                     #"{"type":"profile","name":"ann"}"#, #"{"type":"hello","name":"ann","password":"p"}"#] {
            lobby.send(line, from: client)
            #expect(lobby.errors(client) == [.noStorage], "\(line)")
        }
        lobby.send(#"{"type":"hello","name":"ann"}"#, from: client)
        #expect(lobby.lookups.isEmpty)
        guard case .welcome(let welcome)? = lobby.take(client).first else { Issue.record("no welcome"); return }
        #expect(welcome.name == "ann")
        #expect(lobby.records.isEmpty)
    }
}
