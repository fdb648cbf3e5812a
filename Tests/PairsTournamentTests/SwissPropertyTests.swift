import PairsRecords
import PairsRules
import PairsTournament
import Testing

@Suite("Swiss properties")
struct SwissPropertyTests {
    @Test("over 150 seeded Swiss tournaments with no-shows, leavers and random results: every round pairs each active player once or gives them the bye, the withdrawn are never paired, nobody has two byes, two forfeits withdraw, and it ends after its rounds", arguments: 0..<150)
    func seededSwiss(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let count = 3 + random.next(below: 18)
        let names = (1...count).map { "p\($0)" }
        let asked: Int? = random.next(below: 2) == 0 ? nil : 1 + random.next(below: 6)
        // A break between rounds, so each round is looked at as it starts, before anything happens in it.
        var harness = DirectorHarness(.swiss(rounds: asked), roundBreak: 1_000)
        try harness.join(names, rating: { _ in 1000 + random.next(below: 1000) })
        let noShows = Set(names.filter { _ in random.next(below: 7) == 0 })
        try harness.start()
        let rounds = try #require(harness.director.rounds)
        #expect(rounds == min(asked ?? SwissPairing.defaultRounds(players: count), count - 1))
        var byes: [String: Int] = [:]
        var checkedRounds = 0
        /// The rounds started since the last look: everyone active is paired once or has the bye.
        func checkNewRounds() {
            let started = harness.actions.compactMap { if case .roundStarted(let round, let pairings, let bye) = $0 { (round, pairings, bye) } else { nil } }
            for (round, pairings, bye) in started.dropFirst(checkedRounds) {
                let active = Set(harness.director.standings.filter { $0.active }.map(\.name))
                let seen = pairings.flatMap(\.seats) + (bye.map { [$0] } ?? [])
                #expect(Set(seen) == active && seen.count == active.count, "seed \(seed) round \(round)")
                if let bye {
                    byes[bye, default: 0] += 1
                    let everyoneHadOne = active.allSatisfy { byes[$0, default: 0] > 0 }
                    #expect(byes[bye]! == 1 || everyoneHadOne, "seed \(seed): \(bye) has two byes")
                }
            }
            checkedRounds = started.count
        }
        for _ in 0..<100 where harness.director.status != .finished {
            checkNewRounds()
            // Play the round: no-shows never sit down; now and then a player leaves, forfeiting; the rest finish.
            for pairing in harness.playing {
                for name in pairing.seats where !noShows.contains(name) { harness.director.seated(name, in: pairing.game, at: harness.now) }
            }
            for pairing in harness.playing where pairing.seats.allSatisfy({ !noShows.contains($0) }) {
                guard harness.playing.contains(pairing) else { continue }
                let roll = random.next(below: 20)
                let result: TournamentGameResult
                if roll == 0 {
                    harness.take(try harness.director.leave(pairing.seats[1], at: harness.now))
                    result = .forfeited(by: [pairing.seats[1]])
                } else {
                    result = roll < 9 ? .won(by: pairing.seats[0]) : roll < 17 ? .won(by: pairing.seats[1]) : .draw
                }
                harness.take(try harness.director.gameEnded(pairing.game, result, at: harness.now))
            }
            harness.advance(by: 60_000)
        }
        checkNewRounds()
        #expect(harness.director.status == .finished, "seed \(seed)")
        let standings = try #require(harness.finished)
        #expect(checkedRounds <= rounds)
        for row in standings where row.active {
            // An active player was in every round: a game or the bye each.
            #expect(row.games + byes[row.name, default: 0] == checkedRounds, "seed \(seed): \(row.name)")
        }
        for name in noShows {
            // Two games never sat down for withdraw a player.
            let row = try #require(standings.first { $0.name == name })
            if row.games >= 2 { #expect(!row.active, "seed \(seed): \(name)") }
        }
    }
}
