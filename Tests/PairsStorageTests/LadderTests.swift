@testable import PairsStorage
import Testing

/// A new store in which `names` are claimed.
private func storeWithClaims(_ names: [String], on backEnd: BackEnd) throws -> BackEndFixture {
    let fixture = try BackEndFixture(backEnd)
    for name in names { #expect(try fixture.store.claimOrVerify(name: name, password: "pw-\(name)") == .claimed) }
    return fixture
}

@Test("a rated game moves both ratings in the transaction that stores it, exactly as Glicko-2 computes", arguments: BackEnd.tested)
func ratedGameMovesRatings(_ backEnd: BackEnd) throws {
    let fixture = try storeWithClaims(["alice", "bob"], on: backEnd)
    let store = fixture.store
    try fixture.record([ratedGame("alice", "bob", winner: 0)])
    let expectedWinner = Glicko2Rating.initial.updated(with: [(Glicko2Rating.initial, 1)], tau: Glicko2Rating.productionTau)
    let expectedLoser = Glicko2Rating.initial.updated(with: [(Glicko2Rating.initial, 0)], tau: Glicko2Rating.productionTau)
    let board = try store.leaderboard(ladder: classicRules.ladder)
    #expect(board.map(\.rank) == [1, 2])
    #expect(board.map(\.record.name) == ["alice", "bob"])
    #expect(board[0].record.rating == Int(expectedWinner.rating.rounded()))
    #expect(board[0].record.deviation == Int(expectedWinner.deviation.rounded()))
    #expect(board[1].record.rating == Int(expectedLoser.rating.rounded()))
    #expect(board[0].record.isProvisional && board[1].record.isProvisional)
    #expect((board[0].record.games, board[0].record.wins, board[0].record.losses, board[0].record.draws) == (1, 1, 0, 0))
    #expect((board[1].record.games, board[1].record.wins, board[1].record.losses, board[1].record.draws) == (1, 0, 1, 0))
    // Another ladder knows nothing of it.
    #expect(try store.leaderboard(ladder: "seats=2,match=3").isEmpty)
}

@Test("the leaderboard ranks by rating, and follows the order of strength over many games", arguments: BackEnd.tested)
func leaderboardOrdersByStrength(_ backEnd: BackEnd) throws {
    let names = ["ann", "ben", "cat", "dan"]
    let fixture = try storeWithClaims(names, on: backEnd)
    let store = fixture.store
    // Every pair plays ten times; the name earlier in the alphabet always wins, except that every other
    // game between ann and ben is a draw.
    for round in 0..<10 {
        for first in 0..<names.count {
            for second in (first + 1)..<names.count {
                let winner: Int? = (first, second) == (0, 1) && round % 2 == 1 ? nil : 0
                try store.record(ratedGame(names[first], names[second], winner: winner))
            }
        }
    }
    store.flush()
    let board = try store.leaderboard(ladder: classicRules.ladder)
    #expect(board.map(\.record.name) == ["ann", "ben", "cat", "dan"])
    #expect(board.map(\.rank) == [1, 2, 3, 4])
    #expect(zip(board, board.dropFirst()).allSatisfy { $0.record.rating >= $1.record.rating })
    let ann = board[0].record
    #expect((ann.games, ann.wins, ann.losses, ann.draws) == (30, 25, 0, 5))
    // The same forty games through an independent transcription of the paper's steps (Python, double
    // precision, τ 0.75), rounded as the leaderboard rounds.
    #expect(board.map(\.record.rating) == [1893, 1733, 1318, 920])
    #expect(board.map(\.record.deviation) == [114, 103, 107, 128])
    // Unbeaten and winless players teach the system least: their deviations stay highest.
    #expect(board.map(\.record.isProvisional) == [true, false, false, true])
    #expect(try store.leaderboard(ladder: classicRules.ladder, limit: 2).map(\.record.name) == ["ann", "ben"])
}

@Test("solo ladders keep the best time and the fewest flips per name, and rank by either", arguments: BackEnd.tested)
func soloLadderKeepsBests(_ backEnd: BackEnd) throws {
    let fixture = try storeWithClaims(["ann", "ben", "cat"], on: backEnd)
    let store = fixture.store
    try fixture.record([
        sampleSoloGame(name: "ann", cleared: true, flips: 20, milliseconds: 30_000),
        sampleSoloGame(name: "ann", cleared: true, flips: 14, milliseconds: 41_000),
        sampleSoloGame(name: "ann", cleared: false, flips: 9, milliseconds: 60_000),
        sampleSoloGame(name: "ben", cleared: true, flips: 16, milliseconds: 25_000),
        sampleSoloGame(name: "cat", cleared: false, flips: 30, milliseconds: 60_000),
    ])

    let byTime = try store.soloLeaderboard(ladder: soloRules.ladder, ranking: .bestTime)
    #expect(byTime.map(\.record.name) == ["ben", "ann", "cat"])
    let ann = byTime[1].record
    #expect((ann.played, ann.cleared, ann.bestMilliseconds, ann.fewestFlips) == (3, 2, 30_000, 14))
    #expect(byTime[2].record.bestMilliseconds == nil && byTime[2].record.fewestFlips == nil)
    let byFlips = try store.soloLeaderboard(ladder: soloRules.ladder, ranking: .fewestFlips)
    #expect(byFlips.map(\.record.name) == ["ann", "ben", "cat"])
    #expect(byFlips.map(\.rank) == [1, 2, 3])
    // Solo games are not on the rated ladder.
    #expect(try store.leaderboard(ladder: soloRules.ladder).isEmpty)
}

@Test("a profile gathers a name's ratings, solo records, totals over every game, and its last games", arguments: BackEnd.tested)
func profileGathersEverything(_ backEnd: BackEnd) throws {
    let fixture = try storeWithClaims(["ann", "ben"], on: backEnd)
    let store = fixture.store
    try fixture.record([
        ratedGame("ann", "ben", winner: 0), ratedGame("ben", "ann", winner: 0), ratedGame("ann", "ben", winner: nil),
        sampleTwoSeatGame(names: ("ann", "zed")), sampleSoloGame(name: "ann", cleared: true, flips: 12, milliseconds: 20_000),
    ])

    let ann = try #require(try store.profile(name: "ann"))
    #expect(ann.isClaimed)
    #expect(ann.ratings.map(\.ladder) == [classicRules.ladder])
    #expect((ann.ratings[0].games, ann.ratings[0].wins, ann.ratings[0].losses, ann.ratings[0].draws) == (3, 1, 1, 1))
    #expect(ann.solo.map(\.ladder) == [soloRules.ladder])
    #expect(ann.totals == Profile.Totals(games: 4, wins: 2, losses: 1, draws: 1, soloPlayed: 1, soloCleared: 1))
    #expect(ann.lastGames.count == 5)
    #expect(ann.lastGames.first?.summary.room == "solo-ann")

    let zed = try #require(try store.profile(name: "zed"))
    #expect(!zed.isClaimed)
    #expect(zed.ratings.isEmpty && zed.solo.isEmpty)
    #expect(zed.totals == Profile.Totals(games: 1, wins: 0, losses: 1, draws: 0, soloPlayed: 0, soloCleared: 0))
    #expect(try store.profile(name: "nobody") == nil)
}

@Test("a rated game naming a name the store never saw claimed is stored, unrated, and the failure reported", arguments: BackEnd.tested)
func ratedGameWithUnknownNameStaysUnrated(_ backEnd: BackEnd) throws {
    let fixture = try storeWithClaims(["ann"], on: backEnd)
    let (store, log) = (fixture.store, fixture.log)
    try fixture.record([ratedGame("ann", "ghost", winner: 0)])
    #expect(store.gamesStored == 1)
    #expect(try store.history().count == 1)
    #expect(try store.leaderboard(ladder: classicRules.ladder).isEmpty)
    #expect(store.storageErrors == 1)
    guard case .ladderNotUpdated(let error, _)? = log.all.first else {
        Issue.record("expected the ladder failure, got \(log.all)")
        return
    }
    #expect(error.refusesRow)
}

@Test("a name's rating on a ladder is the leaderboard's, rounded; nil for a name that has no rated game there", arguments: BackEnd.tested)
func ratingOfOneName(_ backEnd: BackEnd) throws {
    let fixture = try storeWithClaims(["alice", "bob", "cat"], on: backEnd)
    let store = fixture.store
    try fixture.record([ratedGame("alice", "bob", winner: 0)])
    let board = try store.leaderboard(ladder: classicRules.ladder)
    #expect(try store.rating(of: "alice", ladder: classicRules.ladder) == board[0].record.rating)
    #expect(try store.rating(of: "bob", ladder: classicRules.ladder) == board[1].record.rating)
    #expect(try store.rating(of: "alice", ladder: classicRules.ladder)! > 1500)
    #expect(try store.rating(of: "cat", ladder: classicRules.ladder) == nil, "claimed, never rated")
    #expect(try store.rating(of: "nobody", ladder: classicRules.ladder) == nil)
    #expect(try store.rating(of: "alice", ladder: "seats=2,match=3") == nil, "a rating counts on its own ladder")
}
