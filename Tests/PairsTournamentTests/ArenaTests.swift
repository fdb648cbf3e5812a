import PairsRecords
import PairsRules
import PairsTournament
import Testing

@Suite("Arena")
struct ArenaTests {
    @Test("a win is 2, a draw 1, a loss 0, and after two wins in a row every game counts double until one is not won (lichess: win, win, draw is 6)")
    func streaks() {
        func points(_ results: [ArenaScore.Result]) -> (Int, Int) {
            var score = ArenaScore()
            for result in results { score.record(result) }
            return (score.points, score.wins)
        }
        #expect(points([.win, .win, .draw]) == (6, 0))
        #expect(points([.win, .win, .win]) == (8, 3))
        #expect(points([.win, .win, .win, .loss, .win]) == (10, 1))
        #expect(points([.draw, .win, .win, .win, .win]) == (1 + 2 + 2 + 4 + 4, 4))
        #expect(points([.win, .loss, .win, .draw]) == (5, 0))
    }

    @Test("the first wave pairs by rating, nearest with nearest")
    func firstWaveByRating() throws {
        var harness = DirectorHarness(.arena(durationMilliseconds: 600_000))
        try harness.join(["ann", "bob", "cat", "dan"], rating: { ["ann": 1100, "bob": 2000, "cat": 1200, "dan": 1900][$0]! })
        try harness.start()
        #expect(harness.started.map { Set($0.seats) } == [["bob", "dan"], ["ann", "cat"]])
    }

    @Test("a player who joins late is paired within the pairing delay, with a free player other than the one they just played")
    func lateJoinerPaired() throws {
        var harness = DirectorHarness(.arena(durationMilliseconds: 600_000))
        try harness.join(["ann", "bob"], rating: { $0 == "ann" ? 1600 : 1500 })
        try harness.start()
        harness.seatEveryone()
        try harness.join(["eve"])
        // Alone while the others play: nobody to pair with.
        harness.advance(by: 5_000)
        #expect(harness.started.count == 1)
        try harness.end(gameOf: "ann", .won(by: "ann"))
        #expect(harness.director.nextDeadline == harness.now.adding(milliseconds: 1_000))
        harness.advance(by: 1_000)
        let second = try #require(harness.started.last)
        #expect(harness.started.count == 2)
        // ann (2 points) meets the nearest score that is not bob, whom she just played: eve.
        #expect(Set(second.seats) == ["ann", "eve"])
        #expect(!harness.playing.contains { $0.seats.contains("bob") })
    }

    @Test("two players alone in an arena play each other again rather than wait, and a streak builds")
    func twoAlonePlayAgain() throws {
        var harness = DirectorHarness(.arena(durationMilliseconds: 600_000))
        try harness.join(["ann", "bob"])
        try harness.start()
        for _ in 0..<3 {
            harness.seatEveryone()
            try harness.end(gameOf: "ann", .won(by: "ann"))
            harness.advance(by: 1_000)
        }
        #expect(harness.started.count == 4)
        #expect(harness.row("ann")?.score.points == 8)
        #expect(harness.row("ann")?.streak == 3)
        #expect(harness.row("bob")?.score.points == 0)
        // Seats alternate between the two.
        #expect(harness.started.map { $0.seats[0] } == ["ann", "bob", "ann", "bob"] || harness.started.map { $0.seats[0] } == ["bob", "ann", "bob", "ann"])
    }

    @Test("a player who leaves or disconnects is paused: not paired until they join again, and then paired within the delay")
    func pauseAndDisconnect() throws {
        var harness = DirectorHarness(.arena(durationMilliseconds: 600_000))
        try harness.join(["ann", "bob", "cat", "dan"], rating: { ["ann": 1900, "bob": 1800, "cat": 1700, "dan": 1600][$0]! })
        try harness.start()
        harness.seatEveryone()
        harness.take(try harness.director.leave("ann", at: harness.now))
        harness.take(harness.director.disconnected("cat", at: harness.now))
        #expect(harness.actions.contains(.paused("ann")) && harness.actions.contains(.paused("cat")))
        // The lobby forfeits their games.
        try harness.end(gameOf: "ann", .forfeited(by: ["ann"]))
        try harness.end(gameOf: "cat", .forfeited(by: ["cat"]))
        harness.advance(by: 1_000)
        // bob and dan are free, and each other's only partner, though neither just played the other.
        let third = try #require(harness.started.last)
        #expect(Set(third.seats) == ["bob", "dan"])
        #expect(harness.row("ann")?.active == false)
        try harness.join(["ann"])
        #expect(harness.row("ann")?.active == true)
        // Alone while bob and dan play: nobody to pair with yet.
        harness.advance(by: 5_000)
        #expect(harness.started.count == 3)
        harness.seatEveryone()
        try harness.end(gameOf: "bob", .won(by: "bob"))
        harness.advance(by: 1_000)
        // ann meets one of them; the other, who just played his partner, waits for the next wave.
        #expect(harness.started.count == 4)
        #expect(harness.started.last!.seats.contains("ann"))
        #expect(!harness.started.last!.seats.contains("cat"))
    }

    @Test("when the time is up nobody is paired again, the games in progress finish and count, and then the arena is over")
    func timeUpWithGamesInProgress() throws {
        var harness = DirectorHarness(.arena(durationMilliseconds: 60_000))
        try harness.join(["ann", "bob", "cat", "dan"], rating: { ["ann": 1900, "bob": 1800, "cat": 1700, "dan": 1600][$0]! })
        try harness.start()
        harness.seatEveryone()
        harness.advance(by: 59_500)
        try harness.end(gameOf: "cat", .won(by: "cat"))
        harness.advance(by: 500)
        #expect(harness.actions.contains(.timeUp))
        #expect(harness.director.status == .finishing)
        #expect(harness.started.count == 2)
        harness.advance(by: 30_000)
        #expect(harness.director.status == .finishing)
        try harness.end(gameOf: "ann", .draw)
        #expect(harness.director.status == .finished)
        let standings = try #require(harness.finished)
        #expect(standings.map(\.name) == ["cat", "ann", "bob", "dan"])
        #expect(standings.map(\.score.points) == [2, 1, 1, 0])
        #expect(harness.started.count == 2)
        #expect(harness.director.nextDeadline == nil)
    }

    @Test("a pairing wave skips the opponent just played when someone else is free, and leaves that player waiting for the next wave")
    func waveSkipsLastOpponent() {
        let pairs = ArenaPairing.pair([
            ArenaPairing.Candidate(name: "a", score: 4, rating: 1500, lastOpponent: "b"),
            ArenaPairing.Candidate(name: "b", score: 4, rating: 1500, lastOpponent: "a"),
            ArenaPairing.Candidate(name: "c", score: 0, rating: 1500, lastOpponent: "d"),
        ])
        #expect(pairs.map(Set.init) == [["a", "c"]])
    }
}
