import PairsRecords
import PairsRules
import PairsTournament
import Testing

@Suite("Swiss director")
struct SwissDirectorTests {
    private let eight = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]

    /// Plays every game in progress: seat 0 wins on even boards, odd boards are drawn.
    private func playRound(_ harness: inout DirectorHarness) throws {
        harness.seatEveryone()
        for (board, pairing) in harness.playing.enumerated() {
            try harness.end(gameOf: pairing.seats[0], board % 2 == 0 ? .won(by: pairing.seats[0]) : .draw)
        }
    }

    private func roundsStarted(_ harness: DirectorHarness) -> [(round: Int, pairings: [Pairing], bye: String?)] {
        harness.actions.compactMap { if case .roundStarted(let round, let pairings, let bye) = $0 { (round, pairings, bye) } else { nil } }
    }

    @Test("eight players play ceil(log2 8) = 3 rounds, each starting when the last game of the one before ends, meet nobody twice, and finish with every point counted")
    func eightPlayersThreeRounds() throws {
        var harness = DirectorHarness(.swiss(rounds: nil))
        try harness.join(eight, rating: { 2000 - 50 * (eight.firstIndex(of: $0) ?? 0) })
        try harness.start()
        for round in 1...3 {
            #expect(roundsStarted(harness).count == round)
            #expect(harness.playing.count == 4)
            #expect(harness.playing.allSatisfy { $0.round == round })
            try playRound(&harness)
        }
        #expect(harness.director.status == .finished)
        let standings = try #require(harness.finished)
        let total = standings.map(\.score.halves).reduce(0, +)
        #expect(total == 24)
        #expect(standings.allSatisfy { $0.games == 3 })
        let met = harness.started.map { Set($0.seats) }
        #expect(Set(met).count == met.count)
        #expect(harness.started.allSatisfy { $0.seats.count == 2 })
    }

    @Test("the next round waits for the break between rounds, and starts at its end")
    func roundBreak() throws {
        var harness = DirectorHarness(.swiss(rounds: 2), roundBreak: 10_000)
        try harness.join(["ann", "bob", "cat", "dan"])
        try harness.start()
        try playRound(&harness)
        #expect(roundsStarted(harness).count == 1)
        #expect(harness.director.nextDeadline == harness.now.adding(milliseconds: 10_000))
        harness.advance(by: 9_999)
        #expect(roundsStarted(harness).count == 1)
        harness.advance(by: 1)
        #expect(roundsStarted(harness).map(\.round) == [1, 2])
    }

    @Test("seven players: each round's bye goes to a different player and is worth a win")
    func byesToDifferentPlayers() throws {
        var harness = DirectorHarness(.swiss(rounds: 3))
        let seven = Array(eight.prefix(7))
        try harness.join(seven, rating: { 2000 - 50 * (seven.firstIndex(of: $0) ?? 0) })
        try harness.start()
        for _ in 1...3 { try playRound(&harness) }
        let byes = roundsStarted(harness).compactMap(\.bye)
        #expect(byes.count == 3)
        #expect(Set(byes).count == 3)
        // Round 1's bye is the lowest-rated player's.
        #expect(byes.first == "gus")
        let standings = try #require(harness.finished)
        let total = standings.map(\.score.halves).reduce(0, +)
        let gamesAndByes: Int = 3 * 3 * 2 + 3 * 2
        #expect(total == gamesAndByes)
        for bye in byes { #expect(standings.first { $0.name == bye }?.games == 2) }
    }

    @Test("a game not started in time is forfeited by whoever did not sit down, and a second forfeit withdraws the player, who is paired no more")
    func forfeitsWithdraw() throws {
        var harness = DirectorHarness(.swiss(rounds: 3))
        try harness.join(["ann", "bob", "cat", "dan"], rating: { ["ann": 1900, "bob": 1800, "cat": 1700, "dan": 1600][$0]! })
        try harness.start()
        for _ in 1...2 {
            let dansGame = try #require(harness.playing.first { $0.seats.contains("dan") })
            let opponent = dansGame.seats.first { $0 != "dan" }!
            harness.director.seated(opponent, in: dansGame.game, at: harness.now)
            for pairing in harness.playing where pairing.game != dansGame.game {
                for name in pairing.seats { harness.director.seated(name, in: pairing.game, at: harness.now) }
                try harness.end(gameOf: pairing.seats[0], .won(by: pairing.seats[0]))
            }
            #expect(harness.director.nextDeadline == harness.now.adding(milliseconds: 60_000))
            harness.advance(by: 59_999)
            #expect(harness.playing.contains { $0.game == dansGame.game })
            harness.advance(by: 1)
            #expect(!harness.playing.contains { $0.game == dansGame.game })
            #expect(harness.row(opponent)?.score.halves ?? 0 >= 2)
        }
        #expect(harness.actions.contains(.withdrawn("dan")))
        #expect(harness.row("dan")?.active == false)
        #expect(harness.row("dan")?.score.halves == 0)
        let third = try #require(roundsStarted(harness).last)
        #expect(third.round == 3)
        #expect(!third.pairings.contains { $0.seats.contains("dan") })
        #expect(third.bye != nil && third.bye != "dan")
    }

    @Test("a game neither player sat down for is lost by both")
    func doubleForfeit() throws {
        var harness = DirectorHarness(.swiss(rounds: 1))
        try harness.join(["ann", "bob"])
        try harness.start()
        harness.advance(by: 60_000)
        #expect(harness.director.status == .finished)
        #expect(harness.finished?.map(\.score.halves) == [0, 0])
    }

    @Test("only the creator starts a tournament, with two players at least; a Swiss takes nobody once started")
    func startRules() throws {
        var harness = DirectorHarness(.swiss(rounds: 2))
        try harness.join(["ann"])
        #expect(throws: TournamentError.tooFewPlayers) { try harness.director.start(by: "host", at: harness.now) }
        try harness.join(["bob"])
        #expect(throws: TournamentError.notTheCreator) { try harness.director.start(by: "ann", at: harness.now) }
        #expect(throws: TournamentError.alreadyEntered) { try harness.director.join("ann", rating: 1500, at: harness.now) }
        try harness.start()
        #expect(throws: TournamentError.alreadyStarted) { try harness.director.join("cat", rating: 1500, at: harness.now) }
        #expect(throws: TournamentError.alreadyStarted) { try harness.director.start(by: "host", at: harness.now) }
    }

    @Test("a tournament set to start at four players starts by itself when the fourth joins; one of claimed names refuses others")
    func startsByItself() throws {
        var harness = DirectorHarness(.swiss(rounds: 2), start: .players(4))
        try harness.join(["ann", "bob", "cat"])
        #expect(harness.director.status == .open)
        try harness.join(["dan"])
        #expect(harness.director.status == .running)
        #expect(harness.playing.count == 2)

        let claimed = TournamentConfiguration(name: "c", format: .swiss(rounds: 1), claimedOnly: true)
        var director = TournamentDirector(configuration: claimed, creator: "host")
        #expect(throws: TournamentError.claimedNamesOnly) { try director.join("anon", rating: 1500, claimed: false, at: harness.now) }
    }

    @Test("every game is started with the tournament's rules")
    func gamesHaveTheRules() throws {
        var rules = RuleSet.standard
        rules.pairs = 4
        var harness = DirectorHarness(.swiss(rounds: 1), rules: rules)
        try harness.join(["ann", "bob", "cat", "dan"])
        try harness.start()
        let started = harness.actions.compactMap { if case .startGame(_, let rules, _) = $0 { rules } else { nil } }
        #expect(started == [rules, rules])
    }
}

@Suite("Swiss director: protocol.md's example")
struct DocumentedSwissTests {
    @Test("five players after round 1 (ann beat bob, cat drew dan, eve's bye) stand and pair as protocol.md's example shows")
    func documentedRound() throws {
        var harness = DirectorHarness(.swiss(rounds: 3))
        let ratings = ["ann": 1900, "bob": 1800, "cat": 1700, "dan": 1600, "eve": 1500]
        try harness.join(["ann", "bob", "cat", "dan", "eve"], rating: { ratings[$0]! })
        try harness.start()
        #expect(harness.playing.map(\.seats) == [["ann", "bob"], ["cat", "dan"]])
        harness.seatEveryone()
        try harness.end(gameOf: "ann", .won(by: "ann"))
        try harness.end(gameOf: "cat", .draw)
        #expect(harness.director.round == 2)
        #expect(harness.playing.map(\.seats) == [["ann", "cat"], ["dan", "eve"]])
        let rows = harness.director.standings
        #expect(rows.map(\.name) == ["ann", "bob", "eve", "cat", "dan"])
        #expect(rows.map(\.score.halves) == [2, 2, 2, 1, 1])
        #expect(rows.map(\.games) == [1, 1, 0, 1, 1])
        #expect(rows.map { $0.buchholz?.halves } == [2, 2, 0, 1, 1])
        #expect(rows.map { $0.sonnebornBerger?.quarters } == [4, 0, 0, 1, 1])
        let bye = harness.actions.compactMap { if case .roundStarted(2, _, let bye) = $0 { bye } else { nil } }
        #expect(bye == ["bob"])
    }
}

@Suite("Director refusals")
struct DirectorRefusalTests {
    @Test("a result naming someone not in the game, a forfeit by nobody, or a game that is not in progress is refused, and changes nothing")
    func badResultsRefused() throws {
        var harness = DirectorHarness(.swiss(rounds: 1))
        try harness.join(["ann", "bob"])
        try harness.start()
        let game = try #require(harness.playing.first).game
        #expect(throws: TournamentError.notInGame) { try harness.director.gameEnded(game, .won(by: "zed"), at: harness.now) }
        #expect(throws: TournamentError.notInGame) { try harness.director.gameEnded(game, .forfeited(by: []), at: harness.now) }
        #expect(throws: TournamentError.unknownGame) { try harness.director.gameEnded(TournamentGameID(99), .draw, at: harness.now) }
        #expect(harness.playing.map(\.game) == [game])
        try harness.end(gameOf: "ann", .won(by: "bob"))
        #expect(throws: TournamentError.unknownGame) { try harness.director.gameEnded(game, .draw, at: harness.now) }
        #expect(harness.finished?.map(\.name) == ["bob", "ann"])
        #expect(throws: TournamentError.finished) { try harness.director.join("cat", rating: 1500, at: harness.now) }
        #expect(throws: TournamentError.finished) { try harness.director.leave("ann", at: harness.now) }
    }
}
