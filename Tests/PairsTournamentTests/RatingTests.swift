import PairsRecords
import PairsRules
import PairsTournament
import Testing

/// What an entrant's rating decides, with seeded ratings: the first Swiss round and its bye, the last
/// tie-break, and an arena's pairing of players with equal scores.
@Suite("Ratings in the director")
struct RatingTests {
    private func roundsStarted(_ harness: DirectorHarness) -> [(pairings: [Pairing], bye: String?)] {
        harness.actions.compactMap { if case .roundStarted(_, let pairings, let bye) = $0 { (pairings, bye) } else { nil } }
    }

    @Test("a Swiss's first round ranks by rating, whatever the order of joining: 1 v 2 and 3 v 4, the higher-rated starting, and the bye to the lowest-rated")
    func swissFirstRoundByRating() throws {
        let ratings = ["ann": 1800, "bob": 1600, "cat": 1900, "dan": 1700, "eve": 2000]
        var harness = DirectorHarness(.swiss(rounds: 2))
        try harness.join(["ann", "bob", "cat", "dan", "eve"], rating: { ratings[$0]! })
        try harness.start()
        let first = try #require(roundsStarted(harness).first)
        #expect(first.pairings.map(\.seats) == [["eve", "cat"], ["ann", "dan"]])
        #expect(first.bye == "bob")

        // The same field at one rating is ranked by name: the ratings made the difference.
        var unrated = DirectorHarness(.swiss(rounds: 2))
        try unrated.join(["ann", "bob", "cat", "dan", "eve"])
        try unrated.start()
        let plain = try #require(roundsStarted(unrated).first)
        #expect(plain.pairings.map(\.seats) == [["ann", "bob"], ["cat", "dan"]])
        #expect(plain.bye == "eve")
    }

    @Test("players level on score, Buchholz and Sonneborn-Berger are ranked by rating, not by name")
    func ratingIsTheLastTieBreak() throws {
        let ratings = ["cat": 1900, "dan": 1800, "ann": 1700, "bob": 1600]
        var harness = DirectorHarness(.swiss(rounds: 1))
        try harness.join(["ann", "bob", "cat", "dan"], rating: { ratings[$0]! })
        try harness.start()
        #expect(harness.playing.map(\.seats) == [["cat", "dan"], ["ann", "bob"]])
        harness.seatEveryone()
        try harness.end(gameOf: "dan", .won(by: "dan"))
        try harness.end(gameOf: "ann", .won(by: "ann"))
        let standings = try #require(harness.finished)
        // dan and ann: 1 point, Buchholz 0 (their opponents scored nothing), Sonneborn-Berger 0; cat and
        // bob: 0 points, Buchholz 1, Sonneborn-Berger 0. Each pair is split by rating alone.
        #expect(standings.map(\.name) == ["dan", "ann", "cat", "bob"])
        #expect(standings[0].buchholz == standings[1].buchholz && standings[0].sonnebornBerger == standings[1].sonnebornBerger)
        #expect(standings[2].buchholz == standings[3].buchholz && standings[2].sonnebornBerger == standings[3].sonnebornBerger)
        #expect(standings[0].score == standings[1].score && standings[2].score == standings[3].score)
    }

    @Test("an arena's standings put the higher-rated first among equal points")
    func arenaStandingsByRatingAtEqualPoints() throws {
        var harness = DirectorHarness(.arena(durationMilliseconds: 600_000))
        try harness.join(["ann", "bob"], rating: { $0 == "ann" ? 1400 : 1600 })
        #expect(harness.director.standings.map(\.name) == ["bob", "ann"])
    }

    @Test("players joining an arena late, free at equal scores, are paired by rating: the highest with the next, the lowest waiting")
    func lateJoinersPairedByRating() throws {
        let ratings = ["ann": 1500, "bob": 1500, "cat": 1400, "dan": 2000, "eve": 1450]
        var harness = DirectorHarness(.arena(durationMilliseconds: 600_000))
        try harness.join(["ann", "bob"], rating: { ratings[$0]! })
        try harness.start()
        harness.seatEveryone()
        try harness.join(["cat", "dan", "eve"], rating: { ratings[$0]! })
        harness.advance(by: 1_000)
        #expect(harness.started.count == 2)
        #expect(harness.started.last?.seats == ["dan", "eve"])
        #expect(!harness.playing.contains { $0.seats.contains("cat") })
    }
}
