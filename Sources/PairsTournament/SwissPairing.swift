/// One Swiss round's pairings, by the Monrad system with backtracking.
///
/// The rule: rank the players by score, then rating, then name. With an odd number, the bye goes to the
/// lowest-ranked player who has not had one and whose absence leaves a round without repeat pairings
/// (failing that, the lowest-ranked who has not had one). Then the highest-ranked unpaired player meets
/// the next-ranked one they have not met, and so on down; when that leaves players who have all met, the
/// search backtracks to the latest choice that had another candidate. So a round pairs equal or nearest
/// scores and repeats no pairing unless every pairing of the round would.
///
/// Why Monrad and not FIDE's Dutch system (C.04.3): the Dutch rules (score brackets split in halves,
/// floaters, colour preferences in five strengths, a dozen quality criteria) need a weighted matching to
/// be right, and their point, colours in chess, matters little where the first mover's advantage is a
/// card's; a LAN party of eight playing three rounds needs what Monrad gives (scores close, no repeat, one
/// bye) in a rule a player can check by hand on the big screen.
///
/// The search is bounded (`searchSteps`): past it (only for fields of hundreds where repeats are forced),
/// the round is paired greedily, each player with the nearest unmet one left, else the nearest.
public enum SwissPairing {
    /// What the pairing knows of a player.
    public struct Player: Sendable, Hashable {
        public var name: String
        /// Half-points.
        public var score: Int
        public var rating: Int
        public var opponents: Set<String>
        public var hadBye: Bool
        /// Games started (seat 0) minus games second (seat 1).
        public var seatBalance: Int
        /// The seat of the player's last game, if any.
        public var lastSeat: Int?

        public init(name: String, score: Int = 0, rating: Int = 1500, opponents: Set<String> = [], hadBye: Bool = false,
                    seatBalance: Int = 0, lastSeat: Int? = nil) {
            self.name = name
            self.score = score
            self.rating = rating
            self.opponents = opponents
            self.hadBye = hadBye
            self.seatBalance = seatBalance
            self.lastSeat = lastSeat
        }
    }

    /// A round: the pairs, seat 0 first, best-ranked board first, and the bye.
    public struct Round: Sendable, Hashable {
        public var pairs: [[String]]
        public var bye: String?
    }

    /// Candidate pairings the backtracking search tries per round before it settles for a greedy one:
    /// enough for an exhaustive search of any field a repeat-free round exists for in practice, bounded
    /// so that a field of hundreds where repeats are forced costs milliseconds, not years.
    public static let searchSteps = 200_000

    /// The order of the standings before tie-breaks: score, then rating, then name (so the order is total).
    public static func ranked(_ players: [Player]) -> [Player] {
        players.sorted { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.rating != b.rating { return a.rating > b.rating }
            return a.name < b.name
        }
    }

    /// Pairs one round of `players` (the active ones).
    public static func pair(_ players: [Player]) -> Round {
        let ranked = ranked(players)
        var budget = searchSteps
        var bye: Int?
        var order = Array(ranked.indices)
        if ranked.count % 2 == 1 {
            let eligible = order.reversed().filter { !ranked[$0].hadBye }
            // Every active player has had a bye only after withdrawals past all reason (rounds are fewer than
            // players): then the lowest-ranked takes a second one rather than sit out with nothing.
            let candidates = eligible.isEmpty ? [order.last!] : eligible
            bye = candidates.first { candidate in
                search(order.filter { $0 != candidate }, in: ranked, budget: &budget) != nil
            } ?? candidates[0]
            order.removeAll { $0 == bye }
        }
        let pairs = search(order, in: ranked, budget: &budget) ?? greedy(order, in: ranked)
        return Round(pairs: pairs.map { seated($0.0, $0.1, in: ranked) }, bye: bye.map { ranked[$0].name })
    }

    /// A repeat-free pairing of `order` (indices in rank order), top down, or nil when none exists or the
    /// budget ran out.
    private static func search(_ order: [Int], in ranked: [Player], budget: inout Int) -> [(Int, Int)]? {
        guard let top = order.first else { return [] }
        for candidate in order.dropFirst() where !ranked[top].opponents.contains(ranked[candidate].name) {
            budget -= 1
            if budget < 0 { return nil }
            let rest = order.filter { $0 != top && $0 != candidate }
            if let pairs = search(rest, in: ranked, budget: &budget) { return [(top, candidate)] + pairs }
        }
        return nil
    }

    private static func greedy(_ order: [Int], in ranked: [Player]) -> [(Int, Int)] {
        var left = order
        var pairs: [(Int, Int)] = []
        while left.count >= 2 {
            let top = left.removeFirst()
            let index = left.firstIndex { !ranked[top].opponents.contains(ranked[$0].name) } ?? 0
            pairs.append((top, left.remove(at: index)))
        }
        return pairs
    }

    /// Who starts: the one who started fewer games than they went second; equal, the one who went second
    /// last time (alternation); still equal, the higher-ranked (`higher` comes first in rank order).
    static func seated(_ higher: Int, _ lower: Int, in ranked: [Player]) -> [String] {
        let a = ranked[higher], b = ranked[lower]
        // How much a player wants to start after their last game: went second 1, none yet 0, started -1.
        func urge(_ player: Player) -> Int { player.lastSeat.map { $0 == 1 ? 1 : -1 } ?? 0 }
        let aStarts = a.seatBalance != b.seatBalance ? a.seatBalance < b.seatBalance : urge(a) >= urge(b)
        return aStarts ? [a.name, b.name] : [b.name, a.name]
    }

    /// Rounds a Swiss of `players` plays when its creator does not say: enough to find a single winner,
    /// ceil(log2 players), at least 1.
    public static func defaultRounds(players: Int) -> Int {
        var rounds = 0
        while (1 << rounds) < players { rounds += 1 }
        return max(1, rounds)
    }
}
