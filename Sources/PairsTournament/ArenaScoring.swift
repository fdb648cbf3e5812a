/// An arena player's points and streak, as lichess's arena counts them.
///
/// A win is 2, a draw 1, a loss 0. Two wins in a row start a streak: every following game is worth double
/// (a win 4, a draw 2) until one is not won, which ends the streak (a draw on a streak still scores its
/// double 2). So win, win, draw is 2 + 2 + 2 = 6. (lichess's arena help, https://lichess.org/tournament/help,
/// as quoted on https://chandlersfordchess.org.uk/results-of-online-tournament-23rd-june/: "If you win two
/// games consecutively you will start a double point streak ... The following games will continue to be
/// worth double points until you fail to win a game ... two wins followed by a draw will be worth 6 points:
/// 2 + 2 + (2 x 1)". Berserk is not part of Pairs.)
public struct ArenaScore: Sendable, Hashable {
    public private(set) var points = 0
    /// Wins in a row up to now.
    public private(set) var wins = 0
    public private(set) var games = 0

    public init() {}

    /// Whether the next game is worth double.
    public var onStreak: Bool { wins >= 2 }

    /// What a result is worth now: 2, 1 or 0, doubled on a streak.
    public enum Result: Sendable, Hashable { case win, draw, loss }

    /// Counts a finished game and returns the points it gave.
    @discardableResult
    public mutating func record(_ result: Result) -> Int {
        let base = switch result { case .win: 2; case .draw: 1; case .loss: 0 }
        let gained = onStreak ? base * 2 : base
        points += gained
        games += 1
        wins = result == .win ? wins + 1 : 0
        return gained
    }
}

/// Who an arena pairs, once a wave of free players is due.
///
/// Free players are ranked by arena score, then rating (so at the start, by rating), then name. From the
/// top, each is paired with the nearest in that order among those left, skipping the opponent of their
/// last game (and anyone whose last game was against them). Players left over have just played each
/// other: two of them trade with the first pair made (from the top) with which neither meets their last
/// opponent, or, if none, play each other, as nobody else is left free. So at most one player waits for
/// the next wave.
public enum ArenaPairing {
    public struct Candidate: Sendable, Hashable {
        public var name: String
        public var score: Int
        public var rating: Int
        public var lastOpponent: String?
        /// Games started (seat 0) minus games second.
        public var seatBalance: Int

        public init(name: String, score: Int, rating: Int, lastOpponent: String? = nil, seatBalance: Int = 0) {
            self.name = name
            self.score = score
            self.rating = rating
            self.lastOpponent = lastOpponent
            self.seatBalance = seatBalance
        }
    }

    /// The pairs of a wave, seat 0 first (the one who started less often; equal, the higher-ranked).
    public static func pair(_ free: [Candidate]) -> [[String]] {
        var left = free.sorted { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.rating != b.rating { return a.rating > b.rating }
            return a.name < b.name
        }
        func clash(_ a: Candidate, _ b: Candidate) -> Bool { a.name == b.lastOpponent || b.name == a.lastOpponent }
        var pairs: [(Candidate, Candidate)] = []
        var waiting: [Candidate] = []
        while !left.isEmpty {
            let top = left.removeFirst()
            guard let partner = left.firstIndex(where: { !clash(top, $0) }) else { waiting.append(top); continue }
            pairs.append((top, left.remove(at: partner)))
        }
        // Players left over have all just played each other (each skipped the others). Two of them trade
        // with a pair already made when that makes no rematch; failing that they are the only free players
        // left, and play each other rather than wait.
        while waiting.count >= 2 {
            let x = waiting.removeFirst(), y = waiting.removeFirst()
            if let index = pairs.firstIndex(where: { !clash(x, $0.0) && !clash(y, $0.1) || !clash(x, $0.1) && !clash(y, $0.0) }) {
                let (a, b) = pairs[index]
                pairs[index] = !clash(x, a) && !clash(y, b) ? (x, a) : (x, b)
                pairs.append(!clash(x, a) && !clash(y, b) ? (y, b) : (y, a))
            } else {
                pairs.append((x, y))
            }
        }
        return pairs.map { top, other in
            other.seatBalance < top.seatBalance ? [other.name, top.name] : [top.name, other.name]
        }
    }
}
