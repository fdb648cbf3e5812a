import PairsRules
import PairsTournament
import Testing

/// Whether `players` (no more than 20) can be paired with nobody meeting an old opponent: an exhaustive
/// search over subsets, written apart from `SwissPairing`'s so that it checks it.
private func repeatFreePairingExists(_ players: [SwissPairing.Player]) -> Bool {
    let count = players.count
    guard count % 2 == 0 else { return false }
    var memo: [Int: Bool] = [:]
    func solvable(_ left: Int) -> Bool {
        if left == 0 { return true }
        if let known = memo[left] { return known }
        let first = left.trailingZeroBitCount
        var found = false
        for other in (first + 1)..<count where left & (1 << other) != 0
            && !players[first].opponents.contains(players[other].name) {
            if solvable(left & ~(1 << first) & ~(1 << other)) { found = true; break }
        }
        memo[left] = found
        return found
    }
    return solvable((1 << count) - 1)
}

/// A seeded field played for several rounds by `SwissPairing`, each game decided at random (the better
/// rating more often), with what every round checked handed to `check`.
private func playSeededField(seed: UInt64, check: (_ before: [SwissPairing.Player], _ round: SwissPairing.Round) -> Void) {
    var random = SplitMix64(seed: seed)
    let count = 3 + random.next(below: 14)
    var players = (0..<count).map { SwissPairing.Player(name: "p\($0)", rating: 1200 + random.next(below: 800)) }
    let rounds = min(count - 1, SwissPairing.defaultRounds(players: count) + 2)
    for _ in 0..<rounds {
        let round = SwissPairing.pair(players)
        check(players, round)
        var index: [String: Int] = [:]
        for (position, player) in players.enumerated() { index[player.name] = position }
        if let bye = round.bye { players[index[bye]!].hadBye = true; players[index[bye]!].score += 2 }
        for seats in round.pairs {
            let (first, second) = (index[seats[0]]!, index[seats[1]]!)
            let roll = random.next(below: 10)
            let firstPoints = roll < 4 ? 2 : roll < 6 ? 1 : 0
            players[first].score += firstPoints
            players[second].score += 2 - firstPoints
            players[first].opponents.insert(seats[1]); players[second].opponents.insert(seats[0])
            players[first].seatBalance += 1; players[second].seatBalance -= 1
            players[first].lastSeat = 0; players[second].lastSeat = 1
        }
    }
}

@Suite("Swiss pairing")
struct SwissPairingTests {
    @Test("over 300 seeded fields of 3 to 16 players, no round repeats a pairing when a repeat-free round exists, and every active player is paired once or has the bye", arguments: 0..<300)
    func noRepeatsWhileAvoidable(seed: UInt64) {
        playSeededField(seed: seed) { before, round in
            let named = Dictionary(uniqueKeysWithValues: before.map { ($0.name, $0) })
            let seen = round.pairs.flatMap { $0 } + (round.bye.map { [$0] } ?? [])
            #expect(seen.sorted() == before.map(\.name).sorted())
            let repeats = round.pairs.filter { named[$0[0]]!.opponents.contains($0[1]) }.count
            let eligibleByes = before.filter { !$0.hadBye }
            let avoidable = before.count % 2 == 0
                ? repeatFreePairingExists(before)
                : eligibleByes.contains { bye in repeatFreePairingExists(before.filter { $0.name != bye.name }) }
            if avoidable { #expect(repeats == 0, "seed \(seed): \(round.pairs)") }
        }
    }

    @Test("over the same seeded fields no player has the bye twice, and the bye goes to the lowest-ranked player without one whenever that leaves a repeat-free round", arguments: 0..<300)
    func byesNeverTwice(seed: UInt64) {
        playSeededField(seed: seed) { before, round in
            guard let bye = round.bye else {
                #expect(before.count % 2 == 0)
                return
            }
            #expect(before.count % 2 == 1)
            #expect(before.first { $0.name == bye }?.hadBye == false, "seed \(seed): \(bye) had a bye already")
            let lowestFit = SwissPairing.ranked(before).reversed().first { candidate in
                !candidate.hadBye && repeatFreePairingExists(before.filter { $0.name != candidate.name })
            }
            if let lowestFit { #expect(bye == lowestFit.name, "seed \(seed)") }
        }
    }

    @Test("whenever two paired players have started different numbers of games, the one who started fewer starts")
    func seatsEvenOut() {
        for seed in UInt64(0)..<300 {
            playSeededField(seed: seed) { before, round in
                let named = Dictionary(uniqueKeysWithValues: before.map { ($0.name, $0) })
                for seats in round.pairs where named[seats[0]]!.seatBalance != named[seats[1]]!.seatBalance {
                    #expect(named[seats[0]]!.seatBalance < named[seats[1]]!.seatBalance, "seed \(seed)")
                }
            }
        }
    }

    @Test("two players with equal seat counts alternate: the one who went second last time starts")
    func seatsAlternate() {
        let ann = SwissPairing.Player(name: "ann", score: 2, rating: 1900, opponents: ["x"], seatBalance: 0, lastSeat: 0)
        let bob = SwissPairing.Player(name: "bob", score: 2, rating: 1500, opponents: ["y"], seatBalance: 0, lastSeat: 1)
        #expect(SwissPairing.pair([ann, bob]).pairs == [["bob", "ann"]])
        let bobStarted = SwissPairing.Player(name: "bob", score: 2, rating: 1500, opponents: ["y"], seatBalance: 0, lastSeat: 0)
        let annSecond = SwissPairing.Player(name: "ann", score: 2, rating: 1900, opponents: ["x"], seatBalance: 0, lastSeat: 1)
        #expect(SwissPairing.pair([annSecond, bobStarted]).pairs == [["ann", "bob"]])
    }

    @Test("the first round pairs neighbours in rating (Monrad): 1 v 2, 3 v 4, and the bye to the lowest-rated")
    func firstRoundPairsNeighbours() {
        let players = [1500, 1900, 1200, 1700, 1100].enumerated().map { SwissPairing.Player(name: "p\($0.offset)", rating: $0.element) }
        let round = SwissPairing.pair(players)
        #expect(round.bye == "p4")
        #expect(round.pairs.map { Set($0) } == [["p1", "p3"], ["p0", "p2"]])
    }

    @Test("the bye skips the lowest-ranked player when they have had one, and goes to the next one up")
    func byeSkipsPlayerWhoHadOne() {
        let players = [
            SwissPairing.Player(name: "top", score: 4, rating: 1500),
            SwissPairing.Player(name: "mid", score: 2, rating: 1500),
            SwissPairing.Player(name: "low", score: 2, rating: 1400),
            SwissPairing.Player(name: "last", score: 2, rating: 1300, hadBye: true),
            SwissPairing.Player(name: "zero", score: 0, rating: 1600, hadBye: true),
        ]
        #expect(SwissPairing.pair(players).bye == "low")
    }

    @Test("players with equal scores meet before players with different ones: a round pairs within score groups when it can")
    func equalScoresMeet() {
        let players = [
            SwissPairing.Player(name: "a", score: 2, rating: 1500, opponents: ["e"]),
            SwissPairing.Player(name: "b", score: 2, rating: 1400, opponents: ["f"]),
            SwissPairing.Player(name: "c", score: 2, rating: 1300, opponents: ["g"]),
            SwissPairing.Player(name: "d", score: 2, rating: 1200, opponents: ["h"]),
            SwissPairing.Player(name: "e", score: 0, rating: 1900, opponents: ["a"]),
            SwissPairing.Player(name: "f", score: 0, rating: 1800, opponents: ["b"]),
            SwissPairing.Player(name: "g", score: 0, rating: 1700, opponents: ["c"]),
            SwissPairing.Player(name: "h", score: 0, rating: 1600, opponents: ["d"]),
        ]
        let pairs = SwissPairing.pair(players).pairs.map { Set($0) }
        #expect(pairs == [["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"]])
    }

    @Test("rounds by default are enough for a single winner: ceil(log2 players)")
    func defaultRounds() {
        #expect([2, 3, 4, 5, 8, 9, 16, 17].map { SwissPairing.defaultRounds(players: $0) } == [1, 2, 2, 3, 3, 4, 4, 5])
    }
}
