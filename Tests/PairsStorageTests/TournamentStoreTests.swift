import PairsRecords
@testable import PairsStorage
import PairsTestSupport
import Testing

/// A finished tournament as a caller would hand it over, its games carrying `key`.
private func sampleTournament(key: String = "cup#1", name: String = "cup", ended: Int64 = sampleStart + 600_000) -> TournamentRecord {
    TournamentRecord(
        key: key, name: name, format: "swiss", creator: "host", rules: classicRules,
        started: WallClockTime(unixMilliseconds: sampleStart), ended: WallClockTime(unixMilliseconds: ended),
        standings: [
            TournamentStanding(rank: 1, name: "alice", score: QuarterPoints(halves: 5), games: 3, buchholz: QuarterPoints(quarters: 25),
                               sonnebornBerger: QuarterPoints(quarters: 1)),
            TournamentStanding(rank: 2, name: "bob", score: QuarterPoints(points: 0), games: 3, buchholz: QuarterPoints(points: 0),
                               sonnebornBerger: QuarterPoints(points: 0), streak: 0, active: false),
            TournamentStanding(rank: 3, name: "Ω ♠ 🂡", score: QuarterPoints(points: 14), games: 7, streak: 3),
        ])
}

/// A game of the tournament `key` (or of none).
private func gameOf(_ key: String?, room: String, names: (String, String) = ("alice", "bob"), winner: Int = 0) -> GameRecord {
    var game = sampleTwoSeatGame(room: room, names: names, outcome: .won(seat: winner))
    game.summary.tournament = key
    return game
}

@Suite("Finished tournaments in the store")
struct TournamentStoreTests {
    @Test("a finished tournament reads back field by field, and its games carry its key", arguments: BackEnd.tested)
    func tournamentReadsBack(_ backEnd: BackEnd) throws {
        let fixture = try BackEndFixture(backEnd)
        try fixture.record([gameOf("cup#1", room: "cup-1"), gameOf(nil, room: "kitchen")])
        let tournament = sampleTournament()
        try fixture.store.record(tournament)
        fixture.store.flush()

        let found = try #require(try fixture.store.tournament(key: "cup#1"))
        #expect(found.record == tournament)
        #expect(found.record.standings.map(\.score.description) == ["2.5", "0", "14"])
        #expect(try fixture.store.tournament(key: "cup#2") == nil)
        #expect(try fixture.store.tournaments(limit: 10, before: nil).map(\.record) == [tournament])
        let games = try fixture.store.history(limit: 10)
        #expect(games.map(\.summary.tournament) == [nil, "cup#1"])
        // Tournaments are not games.
        #expect(fixture.store.gamesStored == 2)
        #expect(fixture.log.all.isEmpty)
    }

    @Test("history filters by tournament, alone and with a name, and pages back", arguments: BackEnd.tested)
    func historyFiltersByTournament(_ backEnd: BackEnd) throws {
        let fixture = try BackEndFixture(backEnd)
        try fixture.record([
            gameOf("cup#1", room: "cup-1"), gameOf("cup#2", room: "cup-1"), gameOf("cup#1", room: "cup-2", names: ("cat", "dan")),
            gameOf(nil, room: "kitchen"), gameOf("cup#1", room: "cup-3", names: ("alice", "cat")),
        ])
        let store = fixture.store
        #expect(try store.history(name: nil, ladder: nil, tournament: "cup#1", limit: 10, before: nil).map(\.summary.room)
                == ["cup-3", "cup-2", "cup-1"])
        #expect(try store.history(name: "alice", ladder: nil, tournament: "cup#1", limit: 10, before: nil).map(\.summary.room)
                == ["cup-3", "cup-1"])
        let firstPage = try store.history(name: nil, ladder: nil, tournament: "cup#1", limit: 2, before: nil)
        let secondPage = try store.history(name: nil, ladder: nil, tournament: "cup#1", limit: 2, before: firstPage.last?.id)
        #expect(secondPage.map(\.summary.room) == ["cup-1"])
        #expect(try store.history(name: nil, ladder: classicRules.ladder, tournament: "cup#2", limit: 10, before: nil).count == 1)
        #expect(try store.history(name: nil, ladder: nil, tournament: "none", limit: 10, before: nil).isEmpty)
    }

    @Test("a profile filtered by a tournament counts that tournament's games only", arguments: BackEnd.tested)
    func profileFiltersByTournament(_ backEnd: BackEnd) throws {
        let fixture = try BackEndFixture(backEnd)
        try fixture.record([
            gameOf("cup#1", room: "cup-1"), gameOf("cup#1", room: "cup-2", winner: 1), gameOf(nil, room: "kitchen"),
        ])
        let all = try #require(try fixture.store.profile(name: "alice"))
        #expect(all.totals.games == 3)
        let inCup = try #require(try fixture.store.profile(name: "alice", tournament: "cup#1"))
        #expect(inCup.totals.games == 2)
        #expect(inCup.totals.wins == 1)
        #expect(inCup.totals.losses == 1)
        #expect(inCup.lastGames.map(\.summary.room) == ["cup-2", "cup-1"])
    }

    @Test("a second tournament with a key already stored is refused alone: the games around it are kept", arguments: BackEnd.tested)
    func duplicateKeyCostsOnlyItself(_ backEnd: BackEnd) throws {
        let fixture = try BackEndFixture(backEnd)
        try fixture.store.record(sampleTournament())
        try fixture.store.record(gameOf("cup#1", room: "cup-9"))
        try fixture.store.record(sampleTournament(name: "again"))
        try fixture.store.record(gameOf(nil, room: "after"))
        fixture.store.flush()

        #expect(try fixture.store.tournaments(limit: 10, before: nil).map(\.record.name) == ["cup"])
        #expect(try fixture.store.history(limit: 10).map(\.summary.room) == ["after", "cup-9"])
        let refusals = fixture.log.all.filter { if case .tournamentRefused(_, name: "again") = $0 { true } else { false } }
        #expect(refusals.count == 1)
        #expect(fixture.store.isHealthy)
    }

    @Test("finished tournaments list the last first and page back by id, each with its own standings", arguments: BackEnd.tested)
    func tournamentsPageBack(_ backEnd: BackEnd) throws {
        let fixture = try BackEndFixture(backEnd)
        // Each tournament's standings differ (the first `index` rows of the sample, t4 with none), so a
        // page that read another's rows, or dropped an empty one's, would show it.
        var recorded: [String: TournamentRecord] = [:]
        for index in 1...5 {
            var tournament = sampleTournament(key: "t#\(index)", name: "t\(index)")
            tournament.standings = Array(tournament.standings.prefix(index == 4 ? 0 : index))
            recorded[tournament.name] = tournament
            try fixture.store.record(tournament)
        }
        fixture.store.flush()
        let first = try fixture.store.tournaments(limit: 2, before: nil)
        #expect(first.map(\.record.name) == ["t5", "t4"])
        let rest = try fixture.store.tournaments(limit: 10, before: first.last?.id)
        #expect(rest.map(\.record.name) == ["t3", "t2", "t1"])
        for listed in first + rest { #expect(listed.record == recorded[listed.record.name]) }
        #expect(throws: StoreError.limitOutOfRange(0)) { try fixture.store.tournaments(limit: 0, before: nil) }
        #expect(throws: StoreError.limitOutOfRange(21)) { try fixture.store.tournaments(limit: 21, before: nil) }
    }

    @Test("standings one row over their limit or naming a player twice, an empty key or an end before the start are refused before they are queued")
    func recordsThatContradictThemselvesAreRefused() throws {
        var tournament = sampleTournament()
        tournament.standings = (1...TournamentRecord.maxStandings).map {
            TournamentStanding(rank: $0, name: "p\($0)", score: QuarterPoints(points: 0), games: 0)
        }
        #expect(throws: Never.self) { try tournament.validate() }
        tournament.standings.append(TournamentStanding(rank: 0, name: "one more", score: QuarterPoints(points: 0), games: 0))
        #expect(throws: GameRecordError.tooManyStandings(TournamentRecord.maxStandings + 1)) { try tournament.validate() }

        var twice = sampleTournament()
        twice.standings[1].name = "alice"
        #expect(throws: GameRecordError.standingsRepeatAName) { try twice.validate() }

        var unnamed = sampleTournament()
        unnamed.key = ""
        #expect(throws: GameRecordError.textLength(.tournament, bytes: 0)) { try unnamed.validate() }

        var backwards = sampleTournament()
        backwards.ended = WallClockTime(unixMilliseconds: sampleStart - 1)
        #expect(throws: GameRecordError.endedBeforeStarted) { try backwards.validate() }

        var game = gameOf(String(repeating: "k", count: RecordText.tournament.maxBytes + 1), room: "cup-1")
        #expect(throws: GameRecordError.textLength(.tournament, bytes: RecordText.tournament.maxBytes + 1)) { try game.validate() }
        game.summary.tournament = String(repeating: "k", count: RecordText.tournament.maxBytes)
        #expect(throws: Never.self) { try game.validate() }
    }
}
