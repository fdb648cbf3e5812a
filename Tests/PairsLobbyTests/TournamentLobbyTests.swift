import PairsRecords
import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

/// Tournaments run by the lobby on the manual clock: made, joined and started by requests, their games
/// played in rooms the lobby makes and seats, their results in the `tournament` messages.
@Suite("Tournaments in the lobby")
struct TournamentLobbyTests {
    /// The harness's rules without a turn clock, so that only the moves a test makes end games.
    static let rules = RuleSet(pairs: 2, turnSeconds: 0, revealMilliseconds: 1000, againOnMatch: true)

    private func harness(shards: Int = 1) -> LobbyHarness {
        LobbyHarness(shards: shards) { $0.defaultRules = Self.rules }
    }

    /// A connection that said hello as `name` (a free name, when the lobby asks the store).
    private func named(_ name: String, in lobby: LobbyHarness, on shard: Int = 0) -> ConnectionID {
        let id = lobby.connect(on: shard)
        lobby.send(#"{"type":"hello","name":"\#(name)"}"#, from: id)
        if !lobby.lookups.isEmpty { lobby.answerName(.free) }
        _ = lobby.take(id)
        return id
    }

    /// A connection that said hello as `name` and entered `tournament`.
    private func entered(_ name: String, in tournament: String, lobby: LobbyHarness) -> ConnectionID {
        let id = named(name, in: lobby)
        lobby.send("tournament join \(tournament)", from: id)
        return id
    }

    private func tournaments(_ messages: [ServerMessage]) -> [TournamentView] {
        messages.compactMap { if case .tournament(let view) = $0 { view } else { nil } }
    }

    private func errors(_ messages: [ServerMessage]) -> [ErrorCode] {
        messages.compactMap { if case .error(let error) = $0 { error.code } else { nil } }
    }

    private func joinedRooms(_ messages: [ServerMessage]) -> [String] {
        messages.compactMap { if case .joined(let joined) = $0 { joined.room } else { nil } }
    }

    /// The player in seat 0 of the room plays the whole board: with `againOnMatch` every match goes on,
    /// so they take every pair and win.
    private func win(by id: ConnectionID, in lobby: LobbyHarness) throws {
        let faces = try lobby.firstDeal(Self.rules)
        for face in Set(faces).sorted() {
            for card in faces.indices where faces[card] == face {
                lobby.advance(by: 100)
                lobby.flip(card, by: id)
            }
        }
    }

    /// Plays every game in progress: seat 0 wins each.
    private func playRound(_ view: TournamentView, players: [String: ConnectionID], in lobby: LobbyHarness) throws {
        for board in view.pairings {
            try win(by: try #require(players[board.players[0]]), in: lobby)
        }
    }

    @Test("a Swiss is made, joined and started: each pairing's players are seated in a room named after the tournament, and every entrant is told")
    func swissStartsAndSeats() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        lobby.send(#"{"type":"tournament_create","name":"cup","format":"swiss","id":1}"#, from: host)
        let made = try #require(tournaments(lobby.take(host)).last)
        #expect(made.status == .open)
        #expect(made.id == .integer(1))
        #expect(made.entrants == 0)
        let names = ["ann", "bob", "cat", "dan"]
        var players: [String: ConnectionID] = [:]
        for name in names {
            let id = named(name, in: lobby)
            lobby.send(#"{"type":"tournament_join","tournament":"cup","id":"j"}"#, from: id)
            players[name] = id
        }
        #expect(tournaments(lobby.take(players["dan"]!)).last?.entrants == 4)
        // The others hear of the later joins in one push, once the push interval has passed.
        lobby.advance(by: TournamentHosting.pushIntervalMilliseconds)
        for name in names.dropLast() { #expect(tournaments(lobby.take(players[name]!)).last?.entrants == 4) }
        lobby.send(#"{"type":"tournament_start","tournament":"cup","id":2}"#, from: host)
        let started = try #require(tournaments(lobby.take(host)).last)
        #expect(started.status == .running)
        #expect(started.round == 1)
        #expect(started.rounds == 2, "ceil(log2 4)")
        #expect(started.pairings.map(\.room).sorted() == ["cup-1", "cup-2"])
        for name in names {
            let messages = lobby.take(players[name]!)
            let board = try #require(started.pairings.first { $0.players.contains(name) })
            #expect(joinedRooms(messages) == [board.room], "\(name) is seated in its game's room")
            #expect(tournaments(messages).last?.pairings == started.pairings, "\(name) sees the pairings")
            let states = messages.compactMap { if case .state(let state) = $0 { state } else { nil } }
            #expect(states.last?.state.phase == .playing)
        }
        #expect(errors(lobby.take(host)).isEmpty)
    }

    /// host makes `cup`, a Swiss that starts by itself at four, and watches it; ann, bob, cat and dan enter,
    /// and seat 0 wins every game of both rounds (5 s apart). Returns host's last message and the entrants.
    private func playSwissOfFour(in lobby: LobbyHarness) throws -> (TournamentView, [String: ConnectionID]) {
        let host = named("host", in: lobby)
        lobby.send("tournament create cup swiss players 4", from: host)
        var players: [String: ConnectionID] = [:]
        for name in ["ann", "bob", "cat", "dan"] { players[name] = entered(name, in: "cup", lobby: lobby) }
        lobby.send("tournament watch cup", from: host)
        var view = try #require(tournaments(lobby.take(host)).last)
        #expect(view.status == .running, "it started by itself at four players")
        for round in 1...2 {
            #expect(view.round == round)
            try playRound(view, players: players, in: lobby)
            lobby.advance(by: 5_000)
            view = try #require(tournaments(lobby.take(host)).last)
        }
        return (view, players)
    }

    @Test("a Swiss of four is played through both its rounds to the end, and everyone's last message has the same final standings")
    func swissPlaysToTheEnd() throws {
        let lobby = LobbyHarness { $0.defaultRules = Self.rules; $0.tournaments.roundBreakMilliseconds = 5_000 }
        let (view, players) = try playSwissOfFour(in: lobby)
        #expect(view.status == .finished)
        #expect(view.pairings.isEmpty)
        #expect(view.standings.map(\.score) == [2, 1, 1, 0].map { QuarterPoints(points: $0) })
        #expect(view.standings.map(\.rank) == [1, 2, 3, 4])
        #expect(view.standings.allSatisfy { $0.games == 2 && $0.buchholz != nil })
        for (name, id) in players {
            #expect(tournaments(lobby.take(id)).last == view, "\(name) ends with the same standings")
        }
        // The games were played once each: a rematch in a tournament room is refused.
        let winner = try #require(players[view.standings[0].name])
        lobby.send(#"{"type":"rematch"}"#, from: winner)
        #expect(errors(lobby.take(winner)) == [.notPlaying])
    }

    @Test("on a server that keeps games, each game of a tournament is kept under its key, and its end hands the final standings to the store behind them")
    func finishedTournamentIsKept() throws {
        let lobby = LobbyHarness { $0.defaultRules = Self.rules; $0.tournaments.roundBreakMilliseconds = 5_000; $0.keepsGames = true }
        let (view, _) = try playSwissOfFour(in: lobby)
        #expect(view.status == .finished)
        #expect(lobby.records.count == 4)
        let keys = Set(lobby.records.map(\.tournament))
        let key = try #require(keys.first ?? nil)
        #expect(keys == [key], "every game carries the one key")
        #expect(key.hasPrefix("cup-") && key.count == "cup-".count + 8)
        let kept = try #require(lobby.tournamentRecords.first)
        #expect(lobby.tournamentRecords.count == 1)
        #expect(kept.key == key && kept.name == "cup" && kept.format == .swiss && kept.creator == "host")
        #expect(kept.standings == view.standings)
        #expect(kept.started <= kept.ended)

        // Once it is forgotten, another tournament of the same name is kept under another key.
        // (Everyone of the first has long been closed as idle by then: the second is played by newcomers.)
        lobby.advance(by: TournamentHosting().keepFinishedMilliseconds)
        let maker = named("maker", in: lobby)
        lobby.send("tournament create cup swiss players 2", from: maker)
        #expect(try #require(tournaments(lobby.take(maker)).last).status == .open)
        let newcomers = ["eve": named("eve", in: lobby), "fay": named("fay", in: lobby)]
        for id in newcomers.values { lobby.send("tournament join cup", from: id) }
        let pairing = try #require(tournaments(lobby.take(newcomers["eve"]!)).last?.pairings.first)
        try win(by: try #require(newcomers[pairing.players[0]]), in: lobby)
        #expect(lobby.records.count == 5)
        let second = try #require(lobby.records.last?.tournament ?? nil)
        #expect(second != key && second.hasPrefix("cup-"))
        #expect(lobby.tournamentRecords.map(\.key) == [key, second])
    }

    @Test("an arena pairs free players again within its pairing delay; at time up no one is paired and the game in progress counts")
    func arenaRunsToTimeUp() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        lobby.send(#"{"type":"tournament_create","name":"bots","format":"arena","minutes":0.5}"#, from: host)
        var players: [String: ConnectionID] = [:]
        for name in ["b1", "b2", "b3", "b4"] {
            players[name] = named(name, in: lobby)
            lobby.send("tournament join bots", from: players[name]!)
        }
        lobby.send("tournament start bots", from: host)
        lobby.send("tournament watch bots", from: host)
        var view = try #require(tournaments(lobby.take(host)).last)
        #expect(view.status == .running)
        #expect(view.millisecondsLeft == 30_000)
        #expect(view.pairings.count == 2)
        let first = view.pairings[0]
        try win(by: players[first.players[0]]!, in: lobby)
        // The pair is free; a second later they meet again (nobody else is free) in a room of its own, which
        // the watcher hears of within the push interval.
        lobby.advance(by: 1_000)
        lobby.advance(by: TournamentHosting.pushIntervalMilliseconds)
        view = try #require(tournaments(lobby.take(host)).last)
        #expect(view.pairings.count == 2)
        let again = try #require(view.pairings.first { Set($0.players) == Set(first.players) })
        #expect(again.room != first.room)
        #expect(joinedRooms(lobby.take(players[first.players[1]]!)).last == again.room)
        #expect(view.standings.first?.name == first.players[0])
        #expect(view.standings.first?.score == QuarterPoints(points: 2))
        // Time is up while both games go on: it is finishing, and ends once they have.
        lobby.advance(by: 30_000)
        view = try #require(tournaments(lobby.take(host)).last)
        #expect(view.status == .finishing)
        #expect(view.millisecondsLeft == 0)
        for board in view.pairings { try win(by: players[board.players[0]]!, in: lobby) }
        view = try #require(tournaments(lobby.take(host)).last)
        #expect(view.status == .finished)
        #expect(view.standings.map(\.games).reduce(0, +) == 6, "three games of two players")
    }

    @Test("a Swiss player who drops mid-game keeps the grace period, then forfeits; the tournament goes on to its end")
    func dropForfeitsAfterGrace() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        lobby.send("tournament create cup swiss players 2", from: host)
        let ann = entered("ann", in: "cup", lobby: lobby)
        let bob = entered("bob", in: "cup", lobby: lobby)
        #expect(lobby.lastState(ann)?.state.phase == .playing)
        _ = lobby.take(ann)
        lobby.drop(bob)
        lobby.advance(by: 59_000)
        #expect(tournaments(lobby.take(ann)).isEmpty, "within the grace period nothing is decided")
        lobby.advance(by: 2_000)
        let view = try #require(tournaments(lobby.take(ann)).last)
        #expect(view.status == .finished, "one round for two players")
        #expect(view.standings.map(\.name) == ["ann", "bob"])
        #expect(view.standings.map(\.score) == [QuarterPoints(points: 1), QuarterPoints(points: 0)])
    }

    @Test("an arena player whose connection drops is paused at once, and joins again to be paired")
    func arenaDropPauses() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        lobby.send("tournament create bots arena minutes 5", from: host)
        var players: [String: ConnectionID] = [:]
        for name in ["b1", "b2", "b3"] {
            players[name] = named(name, in: lobby)
            lobby.send("tournament join bots", from: players[name]!)
        }
        lobby.send("tournament start bots", from: host)
        lobby.send("tournament watch bots", from: host)
        _ = lobby.take(host)
        lobby.drop(players["b3"]!)
        lobby.advance(by: TournamentHosting.pushIntervalMilliseconds)
        let view = try #require(tournaments(lobby.take(host)).last)
        #expect(view.standings.first { $0.name == "b3" }?.active == false)
        let back = named("b3", in: lobby)
        lobby.send(#"{"type":"tournament_join","tournament":"bots","id":5}"#, from: back)
        #expect(tournaments(lobby.take(back)).last?.standings.first { $0.name == "b3" }?.active == true)
    }

    @Test("an arena player who drops and resumes their seat is theirs again: unpaused, and seated in their next game")
    func resumeRebindsTheEntrant() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        lobby.send("tournament create bots arena minutes 5", from: host)
        let ann = entered("ann", in: "bots", lobby: lobby)
        let bob = entered("bob", in: "bots", lobby: lobby)
        lobby.send("tournament start bots", from: host)
        let token = try #require(lobby.joined(bob)?.token)
        lobby.drop(bob)
        let back = lobby.connect()
        lobby.send(#"{"type":"resume","token":"\#(token)"}"#, from: back)
        lobby.advance(by: TournamentHosting.pushIntervalMilliseconds)
        let view = try #require(tournaments(lobby.take(back)).last)
        #expect(view.standings.first { $0.name == "bob" }?.active == true)
        // ann (seat 0) wins; a second later the two meet again, bob on his new connection.
        try win(by: ann, in: lobby)
        lobby.advance(by: 1_000)
        #expect(joinedRooms(lobby.take(back)) == ["bots-2"])
    }

    @Test("an entrant sitting in another room when their game is made leaves it, as with leave, and is seated in the game's room")
    func entrantIsMovedOutOfAnotherRoom() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        lobby.send("tournament create cup swiss", from: host)
        let ann = entered("ann", in: "cup", lobby: lobby)
        let bob = entered("bob", in: "cup", lobby: lobby)
        lobby.send("join den", from: ann)
        _ = lobby.take(ann)
        lobby.send("tournament start cup", from: host)
        let messages = lobby.take(ann)
        let left = messages.firstIndex { if case .left(let room, _) = $0 { room == "den" } else { false } }
        let joined = messages.firstIndex { if case .joined(let joined) = $0 { joined.room == "cup-1" } else { false } }
        #expect(left != nil && joined != nil && left! < joined!, "left den, then joined cup-1: \(messages)")
        #expect(lobby.lobby.loopStatistics.rooms == 1, "den, left empty, is gone")
    }

    @Test("a player absent when their game is made forfeits it once the start grace has passed; the one seated wins and is sent back")
    func absentPlayerForfeits() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        lobby.send("tournament create cup swiss", from: host)
        let ann = entered("ann", in: "cup", lobby: lobby)
        let bob = entered("bob", in: "cup", lobby: lobby)
        lobby.send("join den", from: bob)
        lobby.drop(bob)
        _ = lobby.take(ann)
        lobby.send("tournament start cup", from: host)
        #expect(lobby.lastState(ann)?.state.phase == .waiting)
        lobby.advance(by: 60_000)
        let messages = lobby.take(ann)
        #expect(messages.contains { if case .left(let room, _) = $0 { room == "cup-1" } else { false } })
        let view = try #require(tournaments(messages).last)
        #expect(view.status == .finished)
        #expect(view.standings.first?.name == "ann")
        #expect(view.standings.first?.score == QuarterPoints(points: 1))
    }

    @Test("a join from another shard moves the connection to the tournament's shard, where its game is played; the list shows it from every shard")
    func crossShardJoin() throws {
        let lobby = harness(shards: 2)
        let host = named("host", in: lobby, on: 0)
        lobby.send("tournament create cup swiss players 2", from: host)
        let ann = named("ann", in: lobby, on: 0)
        lobby.send("tournament join cup", from: ann)
        let eve = lobby.connect(on: 1)
        lobby.send(#"{"type":"tournament_list","id":4}"#, from: eve)
        let list = try #require(lobby.take(eve).compactMap { if case .tournaments(let list) = $0 { list } else { nil } }.first)
        #expect(list.tournaments.map(\.name) == ["cup"])
        #expect(list.tournaments.first?.entrants == 1)
        let bob = named("bob", in: lobby, on: 1)
        lobby.send("tournament join cup", from: bob)
        #expect(lobby.shard(of: bob) == 0)
        let messages = lobby.take(bob)
        #expect(errors(messages).isEmpty)
        #expect(joinedRooms(messages) == ["cup-1"])
        #expect(tournaments(messages).last?.status == .running)
        #expect(lobby.lobbies.map(\.loopStatistics.rooms) == [1, 0])
    }

    @Test("every refused tournament request gets its typed error and changes nothing")
    func refusals() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        let ann = named("ann", in: lobby)
        func refusal(_ line: String, from id: ConnectionID) -> [ErrorCode] {
            lobby.send(line, from: id)
            return errors(lobby.take(id))
        }
        #expect(refusal("tournament join cup", from: ann) == [.noSuchTournament])
        #expect(refusal(#"{"type":"tournament_create","name":"cup","format":"arena"}"#, from: host) == [.badFormat])
        #expect(refusal(#"{"type":"tournament_create","name":"cup","format":"swiss","rules":{"seats":1}}"#, from: host) == [.badFormat])
        #expect(refusal("tournament create cup swiss", from: host) == [])
        #expect(refusal("tournament create cup arena minutes 1", from: ann) == [.tournamentExists])
        #expect(refusal("tournament leave cup", from: ann) == [.notEntered])
        #expect(refusal("tournament join cup", from: ann) == [])
        #expect(refusal("tournament join cup", from: ann) == [.alreadyEntered])
        #expect(refusal("tournament start cup", from: host) == [.tooFewPlayers])
        #expect(refusal("tournament start cup", from: ann) == [.notTheCreator])
        let bob = named("bob", in: lobby)
        #expect(refusal("tournament join cup", from: bob) == [])
        #expect(refusal("tournament start cup", from: host) == [])
        #expect(refusal("tournament start cup", from: host) == [.tournamentStarted])
        let cat = named("cat", in: lobby)
        #expect(refusal("tournament join cup", from: cat) == [.tournamentStarted])
        #expect(refusal("join cup-1", from: cat) == [.roomFull], "a tournament game's seats are its players'")
        #expect(refusal("watch cup-1", from: cat) == [], "but anyone may watch it")
        #expect(refusal("tournament watch cup", from: cat) == [.alreadyInRoom], "a tournament is followed from no room")
        try win(by: ann, in: lobby)
        #expect(refusal("tournament join cup", from: host) == [.tournamentOver])
        #expect(refusal("tournament leave cup", from: ann) == [.tournamentOver])
        // A tournament of claimed names takes no name the connection did not prove.
        #expect(refusal("tournament create club swiss claimed", from: host) == [])
        #expect(refusal("tournament join club", from: bob) == [.alreadyInRoom], "bob is still in his game's room")
        #expect(refusal("leave", from: bob) == [])
        #expect(refusal("tournament join club", from: bob) == [.claimedOnly])
    }

    @Test("an address makes four unfinished tournaments at most; the fifth is too_many_tournaments")
    func tournamentsPerAddress() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        for number in 1...4 {
            lobby.send("tournament create t\(number) swiss", from: host)
        }
        #expect(errors(lobby.take(host)).isEmpty)
        lobby.send("tournament create t5 swiss", from: host)
        #expect(errors(lobby.take(host)) == [.tooManyTournaments])
        let other = lobby.connect(from: "10.0.0.2")
        lobby.send("tournament create t5 swiss", from: other)
        #expect(errors(lobby.take(other)).isEmpty, "another address may")
    }

    @Test("an entrant waiting for a tournament to start is not closed as idle; a connection following none is")
    func entrantsAreNotIdle() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        lobby.send("tournament create cup swiss", from: host)
        let ann = entered("ann", in: "cup", lobby: lobby)
        lobby.advance(by: 301_000)
        #expect(lobby.closed[ann] == nil)
        #expect(lobby.closed[host] == .idle, "the creator follows it only by watching")
    }

    @Test("a finished tournament is kept an hour for its standings, then forgotten")
    func finishedTournamentsAreForgotten() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        lobby.send("tournament create cup swiss players 2", from: host)
        let ann = entered("ann", in: "cup", lobby: lobby)
        let bob = entered("bob", in: "cup", lobby: lobby)
        try win(by: ann, in: lobby)
        lobby.send("tournament watch cup", from: host)
        #expect(tournaments(lobby.take(host)).last?.status == .finished)
        lobby.advance(by: 3_600_000)
        // The host went idle long ago: a new connection asks.
        let later = lobby.connect()
        lobby.send("tournament watch cup", from: later)
        #expect(errors(lobby.take(later)) == [.noSuchTournament])
        #expect(lobby.lobby.sharedDirectory.tournamentCount == 0)
        let lines = lobby.log.compactMap { if case .tournament(let name, let status, let entrants) = $0.event { "\(name) \(status) \(entrants)" } else { nil } }
        #expect(lines == ["cup open 0", "cup running 2", "cup finished 2", "cup gone 2"], "the operator's log has a line per status")
    }

    @Test("a tournament's changes reach its followers at most once a push interval, one message with the latest state; a change of status goes out at once")
    func pushesAreCoalesced() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        lobby.send("tournament create bots arena minutes 5", from: host)
        var players: [String: ConnectionID] = [:]
        for name in ["b1", "b2", "b3", "b4"] { players[name] = entered(name, in: "bots", lobby: lobby) }
        lobby.send("tournament watch bots", from: host)
        _ = lobby.take(host)
        lobby.send("tournament start bots", from: host)
        // b1's answer; the later joins held back (the creation was pushed this very moment, to nobody); then the
        // start at once, with every join since.
        let heard = tournaments(lobby.take(players["b1"]!))
        #expect(heard.map(\.status) == [.open, .running])
        #expect(heard.map(\.entrants) == [1, 4])
        let started = try #require(heard.last)
        #expect(started.pairings.count == 2)
        _ = lobby.take(host)
        // Both games end within the interval (four flips 100 ms apart each): nothing goes out yet.
        for board in started.pairings { try win(by: try #require(players[board.players[0]]), in: lobby) }
        #expect(tournaments(lobby.take(host)).isEmpty)
        // At the interval's end, one message with both results.
        lobby.advance(by: TournamentHosting.pushIntervalMilliseconds - 800)
        let ended = tournaments(lobby.take(host))
        #expect(ended.count == 1)
        #expect(ended.last?.standings.map(\.games).reduce(0, +) == 4)
        #expect(ended.last?.pairings.isEmpty == true)
        // The new pairings (a second after the first player was free) wait for the next interval's end.
        lobby.advance(by: 400)
        #expect(joinedRooms(lobby.take(players["b1"]!)).count == 1)
        #expect(tournaments(lobby.take(host)).isEmpty)
        lobby.advance(by: TournamentHosting.pushIntervalMilliseconds - 400)
        let paired = tournaments(lobby.take(host))
        #expect(paired.count == 1)
        #expect(paired.last?.pairings.count == 2)
    }

    @Test("a follower that asks for standings N is sent the top N rows, its own row and their games; one that does not is sent every row")
    func followersChooseTheirStandings() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        lobby.send("tournament create bots arena minutes 5", from: host)
        var players: [String: ConnectionID] = [:]
        for name in ["b1", "b2", "b3"] { players[name] = entered(name, in: "bots", lobby: lobby) }
        let own = named("b4", in: lobby)
        players["b4"] = own
        lobby.send(#"{"type":"tournament_join","tournament":"bots","standings":0,"id":7}"#, from: own)
        let answer = try #require(tournaments(lobby.take(own)).last)
        #expect(answer.id == .integer(7))
        #expect(answer.entrants == 4)
        #expect(answer.standings.map(\.name) == ["b4"], "its own row alone")
        lobby.send("tournament watch bots standings 1", from: host)
        #expect(tournaments(lobby.take(host)).last?.standings.map(\.name) == ["b1"], "the top row; a watcher has no row of its own")
        let whole = named("eve", in: lobby)
        lobby.send("tournament watch bots", from: whole)
        #expect(tournaments(lobby.take(whole)).last?.standings.count == 4)

        lobby.send("tournament start bots", from: host)
        let full = try #require(tournaments(lobby.take(whole)).last)
        #expect(full.pairings.count == 2)
        let mine = try #require(tournaments(lobby.take(own)).last)
        #expect(mine.status == .running)
        #expect(mine.standings.map(\.name) == ["b4"])
        #expect(mine.pairings == full.pairings.filter { $0.players.contains("b4") })
        // After the games, each row as ranked in the whole standings.
        for board in full.pairings { try win(by: try #require(players[board.players[0]]), in: lobby) }
        lobby.advance(by: TournamentHosting.pushIntervalMilliseconds)
        let after = try #require(tournaments(lobby.take(whole)).last)
        let top = try #require(tournaments(lobby.take(host)).last)
        #expect(top.standings == Array(after.standings.prefix(1)))
        #expect(tournaments(lobby.take(own)).last?.standings == after.standings.filter { $0.name == "b4" })
    }

    @Test("an entrant that asked for standings 0 and resumes its seat on a new connection is still sent its own row alone")
    func resumeKeepsTheStandingsAsked() throws {
        let lobby = harness()
        let host = named("host", in: lobby)
        lobby.send("tournament create bots arena minutes 5", from: host)
        let ann = entered("ann", in: "bots", lobby: lobby)
        let bob = named("bob", in: lobby)
        lobby.send("tournament join bots standings 0", from: bob)
        lobby.send("tournament start bots", from: host)
        let token = try #require(lobby.joined(bob)?.token)
        lobby.drop(bob)
        lobby.advance(by: TournamentHosting.pushIntervalMilliseconds)
        let back = lobby.connect()
        lobby.send(#"{"type":"resume","token":"\#(token)"}"#, from: back)
        try win(by: ann, in: lobby)
        lobby.advance(by: TournamentHosting.pushIntervalMilliseconds)
        let view = try #require(tournaments(lobby.take(back)).last)
        #expect(view.standings.map(\.name) == ["bob"])
        #expect(tournaments(lobby.take(ann)).last?.standings.count == 2, "ann asked for every row")
    }
}
