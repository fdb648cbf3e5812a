// A tournament's standings as one model for everything that handles them: the director computes them
// (PairsTournament), the wire writes them (PairsWire's `tournament` message), and the store will keep a
// finished tournament's.

/// A score that may hold halves and quarters (a Swiss's draws, Sonneborn-Berger's half of a half), kept
/// exact in quarters and written as the shortest decimal (`2.5`, `6.25`, `3`).
public struct QuarterPoints: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var quarters: Int

    public init(quarters: Int) { self.quarters = quarters }
    public init(halves: Int) { self.quarters = halves * 2 }
    public init(points: Int) { self.quarters = points * 4 }

    /// The decimal, or nil for a number that is no whole number of quarters.
    public init?(_ value: Double) {
        let quarters = value * 4
        guard quarters.isFinite, quarters == quarters.rounded(), abs(quarters) < 1e15 else { return nil }
        self.quarters = Int(quarters)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.quarters < rhs.quarters }

    public var description: String {
        let sign = quarters < 0 ? "-" : ""
        let whole = abs(quarters) / 4
        let fraction = ["", ".25", ".5", ".75"][abs(quarters) % 4]
        return "\(sign)\(whole)\(fraction)"
    }
}

/// One line of a tournament's standings.
public struct TournamentStanding: Sendable, Hashable {
    public var rank: Int
    public var name: String
    /// Swiss: 1 a win or bye, 0.5 a draw. Arena: 2 a win, 1 a draw, doubled on a streak.
    public var score: QuarterPoints
    public var games: Int
    /// Swiss only: the sum of the opponents' scores.
    public var buchholz: QuarterPoints?
    /// Swiss only: the opponents' scores times the results against them.
    public var sonnebornBerger: QuarterPoints?
    /// Wins in a row now (an arena doubles the next game's points from 2 on); 0 in a Swiss.
    public var streak: Int
    /// False for a withdrawn (Swiss) or paused (arena) player.
    public var active: Bool

    public init(rank: Int, name: String, score: QuarterPoints, games: Int, buchholz: QuarterPoints? = nil,
                sonnebornBerger: QuarterPoints? = nil, streak: Int = 0, active: Bool = true) {
        self.rank = rank
        self.name = name
        self.score = score
        self.games = games
        self.buchholz = buchholz
        self.sonnebornBerger = sonnebornBerger
        self.streak = streak
        self.active = active
    }
}
