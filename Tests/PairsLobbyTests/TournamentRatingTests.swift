import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

/// Entrants' ratings in the lobby, on the manual clock: a claimed name's rating is asked of the store before
/// its `join` is carried out, and the director ranks by it; everyone else counts at the default.
@Suite("Tournament ratings in the lobby")
struct TournamentRatingTests {
    static let rules = RuleSet(pairs: 2, turnSeconds: 0, revealMilliseconds: 1000, againOnMatch: true)

    private func tournaments(_ messages: [ServerMessage]) -> [TournamentView] {
        messages.compactMap { if case .tournament(let view) = $0 { view } else { nil } }
    }

    /// A connection that said hello as `name`: with a password the store says it is theirs (claimed).
    private func named(_ name: String, claimed: Bool, in lobby: LobbyHarness) -> ConnectionID {
        let id = lobby.connect()
        let password = claimed ? #","password":"secret""# : ""
        lobby.send(#"{"type":"hello","name":"\#(name)"\#(password)}"#, from: id)
        lobby.answerName(claimed ? .verified : .free)
        _ = lobby.take(id)
        return id
    }

    @Test("a claimed entrant's rating is asked of the store on the tournament's ladder before the join is answered, and ranks the first round: the bye goes to the lowest-rated")
    func joiningEntrantsRatingIsAskedAndUsed() throws {
        let lobby = LobbyHarness { $0.defaultRules = Self.rules; $0.keepsGames = true }
        let host = named("host", claimed: false, in: lobby)
        lobby.send("tournament create cup swiss players 3", from: host)
        _ = lobby.take(host)

        let ann = named("ann", claimed: true, in: lobby)
        lobby.send("tournament join cup", from: ann)
        #expect(tournaments(lobby.take(ann)).isEmpty, "the join waits for the store")
        let asked = try #require(lobby.ratingLookups.first)
        #expect(asked.name == "ann" && asked.connection == ann)
        #expect(asked.ladder == RulesJSON.ladder(of: Self.rules.variant))
        // A request sent meanwhile waits behind the join, in order.
        lobby.send("ping", from: ann)
        #expect(lobby.take(ann).isEmpty)
        lobby.answerRating(1400)
        let annsAnswers = lobby.take(ann)
        #expect(tournaments(annsAnswers).last?.entrants == 1)
        #expect(annsAnswers.last.map { if case .pong = $0 { true } else { false } } == true, "the ping is answered after the join")

        // An unclaimed name has no rating: it is not asked for, and counts at the default, 1500.
        let bob = named("bob", claimed: false, in: lobby)
        lobby.send("tournament join cup", from: bob)
        #expect(lobby.ratingLookups.isEmpty)
        #expect(tournaments(lobby.take(bob)).last?.entrants == 2)

        // The third entrant starts the Swiss, once the store has said their rating.
        let cat = named("cat", claimed: true, in: lobby)
        lobby.send("tournament join cup", from: cat)
        #expect(tournaments(lobby.take(cat)).isEmpty)
        lobby.answerRating(2000)
        let started = try #require(tournaments(lobby.take(cat)).last)
        #expect(started.status == .running)
        // By rating cat 2000, bob 1500, ann 1400 (by name it would be ann, bob, cat: ann v bob, cat's bye).
        #expect(started.pairings.map(\.players) == [["cat", "bob"]])
        #expect(started.bye == "ann")
    }

    @Test("a claimed entrant the store has no rating for (or gave no answer for in time) counts at the default")
    func noRatingCountsAtTheDefault() throws {
        let lobby = LobbyHarness { $0.defaultRules = Self.rules; $0.keepsGames = true }
        let host = named("host", claimed: false, in: lobby)
        lobby.send("tournament create cup swiss players 3", from: host)
        var players: [String: ConnectionID] = [:]
        for (name, rating) in [("ann", 1400), ("bob", nil), ("cat", 1450)] as [(String, Int?)] {
            players[name] = named(name, claimed: true, in: lobby)
            lobby.send("tournament join cup", from: players[name]!)
            lobby.answerRating(rating)
        }
        let started = try #require(tournaments(lobby.take(players["cat"]!)).last)
        // bob 1500, cat 1450, ann 1400.
        #expect(started.pairings.map(\.players) == [["bob", "cat"]])
        #expect(started.bye == "ann")
    }

    @Test("a join the director would refuse is refused at once, without asking the store")
    func refusedJoinAsksNothing() throws {
        let lobby = LobbyHarness { $0.defaultRules = Self.rules; $0.keepsGames = true }
        let host = named("host", claimed: false, in: lobby)
        lobby.send("tournament create cup swiss players 2", from: host)
        for name in ["ann", "bob"] {
            lobby.send("tournament join cup", from: named(name, claimed: false, in: lobby))
        }
        let cat = named("cat", claimed: true, in: lobby)
        lobby.send("tournament join cup", from: cat)
        let refusals = lobby.take(cat).compactMap { if case .error(let error) = $0 { error.code } else { nil } }
        #expect(refusals == [.tournamentStarted])
        #expect(lobby.ratingLookups.isEmpty)
    }
}
