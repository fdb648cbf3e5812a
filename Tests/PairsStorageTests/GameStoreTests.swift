import Foundation
import PairsRecords
@testable import PairsStorage
import PairsTestSupport
import Testing

@Test("a recorded game reads back field by field, awkward faces and every kind of move included", arguments: BackEnd.tested)
func recordedGameReadsBack(_ backEnd: BackEnd) throws {
    let fixture = try BackEndFixture(backEnd)
    let store = fixture.store
    let game = sampleTwoSeatGame()
    try fixture.record([game])

    let history = try store.history()
    try #require(history.count == 1)
    let entry = history[0]
    #expect(entry.flips == 5)
    #expect(entry.summary.room == "kitchen")
    #expect(entry.summary.rules == classicRules)
    #expect(entry.summary.players == game.summary.players)
    #expect(entry.summary.outcome == .won(seat: 0))
    #expect(entry.summary.ending == .forfeit(.left))
    #expect(entry.summary.started.unixMilliseconds == sampleStart)
    #expect(entry.summary.ended.iso8601 == "2025-11-13T02:14:00.000Z")
    #expect(entry.summary.rated == false)

    let replay = try #require(try store.replay(entry.id))
    #expect(replay.id == entry.id)
    #expect(replay.record.deal == awkwardDeal)
    #expect(replay.record.moves == game.moves)
    #expect(replay.record == game)
    #expect(store.gamesStored == 1)
    #expect(store.storageErrors == 0)
    #expect(fixture.log.all.isEmpty)
}

@Test("every outcome, ending and move kind survives the round trip through the database", arguments: BackEnd.tested)
func everyCodeRoundTrips(_ backEnd: BackEnd) throws {
    let fixture = try BackEndFixture(backEnd)
    var games: [GameRecord] = []
    for ending in GameEnding.all {
        for outcome in [GameOutcome.won(seat: 0), .won(seat: 1), .draw] {
            var game = sampleTwoSeatGame(outcome: outcome)
            game.summary.ending = ending
            game.moves = ForfeitReason.allCases.map { GameMove(milliseconds: 5, action: .forfeit(seat: 1, reason: $0)) }
            games.append(game)
        }
    }
    games.append(sampleSoloGame(name: "solo", cleared: true, flips: 8, milliseconds: 9_000))
    games.append(sampleSoloGame(name: "solo", cleared: false, flips: 3, milliseconds: 60_000))
    try fixture.record(games)

    let stored = try fixture.store.history(limit: 100).reversed()
    #expect(stored.count == games.count)
    for (entry, game) in zip(stored, games) {
        #expect(try fixture.store.replay(entry.id)?.record == game)
    }
}

@Test("reopening the file keeps every game, name and rating", arguments: BackEnd.tested)
func reopeningKeepsEverything(_ backEnd: BackEnd) throws {
    let (location, directory) = try BackEndFixture.newLocation(backEnd)
    defer { withExtendedLifetime(directory) {} }
    var before: (history: [HistoryEntry], board: [Ranked<RatingRecord>], profile: Profile?)
    do {
        let store = try BackEndFixture.open(backEnd, location)
        #expect(try store.claimOrVerify(name: "alice", password: "correct horse") == .claimed)
        #expect(try store.claimOrVerify(name: "bob", password: "battery staple") == .claimed)
        try store.record(ratedGame("alice", "bob", winner: 0))
        try store.record(sampleTwoSeatGame())
        store.flush()
        before = (try store.history(), try store.leaderboard(ladder: classicRules.ladder), try store.profile(name: "alice"))
    }
    let reopened = try BackEndFixture.open(backEnd, location)
    #expect(reopened.gamesStored == 2)
    #expect(try reopened.history() == before.history)
    #expect(try reopened.leaderboard(ladder: classicRules.ladder) == before.board)
    #expect(try reopened.profile(name: "alice") == before.profile)
    #expect(try reopened.claimOrVerify(name: "alice", password: "correct horse") == .verified)
}

@Test("history pages back with before, newest first, and filters by name and ladder", arguments: BackEnd.tested)
func historyPagesBack(_ backEnd: BackEnd) throws {
    let fixture = try BackEndFixture(backEnd)
    let store = fixture.store
    try fixture.record((0..<25).map { index in
        let names = index % 2 == 0 ? ("alice", "bob") : ("carol", "dave")
        return sampleTwoSeatGame(room: "room\(index)", names: names, started: sampleStart + Int64(index) * 60_000)
    } + [sampleSoloGame(name: "alice", cleared: true, flips: 8, milliseconds: 9_000)])

    let first = try store.history(limit: 10)
    #expect(first.map(\.summary.room) == ["solo-alice"] + (16...24).reversed().map { "room\($0)" })
    let second = try store.history(name: nil, ladder: nil, limit: 10, before: first.last?.id)
    #expect(second.map(\.summary.room) == (6...15).reversed().map { "room\($0)" })
    let third = try store.history(name: nil, ladder: nil, limit: 10, before: second.last?.id)
    #expect(third.map(\.summary.room) == (0...5).reversed().map { "room\($0)" })
    #expect(try store.history(name: nil, ladder: nil, limit: 10, before: third.last?.id).isEmpty)

    let alice = try store.history(name: "alice", limit: 100)
    #expect(alice.count == 14)
    #expect(alice.allSatisfy { $0.summary.players.contains { $0.name == "alice" } })
    let aliceClassic = try store.history(name: "alice", ladder: classicRules.ladder, limit: 100)
    #expect(aliceClassic.count == 13)
    #expect(try store.history(ladder: soloRules.ladder).map(\.summary.room) == ["solo-alice"])
    #expect(try store.history(name: "nobody").isEmpty)
}

@Test("limits outside 1-100 are refused with the offending value", arguments: BackEnd.tested)
func limitsAreChecked(_ backEnd: BackEnd) throws {
    let store = try BackEndFixture(backEnd).store
    #expect(throws: StoreError.limitOutOfRange(0)) { try store.history(limit: 0) }
    #expect(throws: StoreError.limitOutOfRange(101)) { try store.history(limit: 101) }
    #expect(throws: StoreError.limitOutOfRange(-1)) { try store.leaderboard(ladder: "x", limit: -1) }
    #expect(throws: StoreError.limitOutOfRange(1000)) { try store.soloLeaderboard(ladder: "x", ranking: .bestTime, limit: 1000) }
    #expect(try store.history(limit: 100).isEmpty)
}

@Test("a game that does not exist has no replay", arguments: BackEnd.tested)
func missingReplayIsNil(_ backEnd: BackEnd) throws {
    #expect(try BackEndFixture(backEnd).store.replay(GameID(1)) == nil)
}

@Test("records that contradict themselves are refused before they are queued", arguments: BackEnd.tested)
func contradictoryRecordsAreRefused(_ backEnd: BackEnd) throws {
    let store = try BackEndFixture(backEnd).store
    let good = sampleTwoSeatGame()
    func refused(_ expected: GameRecordError, _ change: (inout GameRecord) -> Void) {
        var game = good
        change(&game)
        #expect(throws: expected) { try store.record(game) }
    }
    refused(.seatCount(0)) { $0.summary.players = [] }
    refused(.seatCount(3)) { $0.summary.players += [FinishedPlayer(name: "carol", claimed: false, score: 0)] }
    refused(.outcomeDoesNotFitSeats) { $0.summary.outcome = .soloCleared }
    refused(.outcomeDoesNotFitSeats) { $0.summary.outcome = .won(seat: 2) }
    refused(.ratedWithUnclaimedName(seat: 0)) { $0.summary.rated = true }
    refused(.ratedWithUnclaimedName(seat: 1)) { $0.summary.rated = true; $0.summary.players[0].claimed = true }
    refused(.ratedAgainstItself) { $0 = ratedGame("alice", "alice", winner: 0) }
    refused(.endedBeforeStarted) { $0.summary.ended = WallClockTime(unixMilliseconds: sampleStart - 1) }
    refused(.dealSize(0)) { $0.deal = []; $0.moves = [] }
    refused(.dealSize(GameRecord.maxCards + 1)) { $0.deal = Array(repeating: "x", count: GameRecord.maxCards + 1) }
    refused(.tooManyMoves(GameRecord.maxMoves + 1)) {
        $0.moves = Array(repeating: GameMove(milliseconds: 1, action: .timeout(seat: 0)), count: GameRecord.maxMoves + 1)
    }
    refused(.moveOutOfRange(index: 0)) { $0.moves[0].action = .flip(seat: 0, card: awkwardDeal.count) }
    refused(.moveOutOfRange(index: 1)) { $0.moves[1].action = .timeout(seat: 2) }
    refused(.moveOutOfOrder(index: 0)) { $0.moves[0].milliseconds = -1 }
    refused(.moveOutOfOrder(index: 2)) { $0.moves[2].milliseconds = 10 }
    refused(.textLength(.room, bytes: 0)) { $0.summary.room = "" }
    refused(.textLength(.name, bytes: 1025)) { $0.summary.players[1].name = String(repeating: "n", count: 1025) }
    refused(.textLength(.face, bytes: 1025)) { $0.deal[3] = String(repeating: "é", count: 512) + "e" }
    refused(.textLength(.rules, bytes: 8193)) { $0.summary.rules.json = String(repeating: " ", count: 8193) }
    refused(.textLength(.ladder, bytes: 0)) { $0.summary.rules.ladder = "" }
    // The limits themselves are allowed.
    var longest = good
    longest.summary.players[1].name = String(repeating: "n", count: RecordText.name.maxBytes)
    try store.record(longest)
    store.flush()
    #expect(store.gamesStored == 1)
}

@Test("a game the database refuses costs only itself; the rest of its batch is stored and the failure counted", arguments: BackEnd.tested)
func refusedGameCostsOnlyItself(_ backEnd: BackEnd) throws {
    let fixture = try BackEndFixture(backEnd)
    var broken = sampleTwoSeatGame(room: "broken")
    broken.summary.rules.json = "{not json"
    try fixture.record([sampleTwoSeatGame(room: "before"), broken, sampleTwoSeatGame(room: "after")])
    #expect(try fixture.store.history().map(\.summary.room) == ["after", "before"])
    #expect(fixture.store.gamesStored == 2)
    #expect(fixture.store.storageErrors == 1)
    let failures = fixture.log.all
    try #require(failures.count == 1)
    guard case .gameRefused(let error, let room) = failures[0] else {
        Issue.record("expected a refused game, got \(failures[0])")
        return
    }
    #expect(room == "broken")
    #expect(error.refusesRow)
}

@Test("a stored game with a code no version wrote is reported as damaged, not misread", arguments: BackEnd.tested)
func damagedRowIsReported(_ backEnd: BackEnd) throws {
    let fixture = try BackEndFixture(backEnd)
    let store = fixture.store
    try fixture.record([sampleTwoSeatGame()])
    let id = try #require(try store.history().first?.id)
    try fixture.outsideExecute("UPDATE games SET ending = 'eaten_by_dog' WHERE id = \(id.rawValue)")
    #expect(throws: StoreError.damagedGame(id)) { try store.history() }
    try fixture.outsideExecute("UPDATE games SET ending = 'cleared', moves = '[[0,99,0,null]]' WHERE id = \(id.rawValue)")
    #expect(throws: StoreError.damagedGame(id)) { try store.replay(id) }
}
