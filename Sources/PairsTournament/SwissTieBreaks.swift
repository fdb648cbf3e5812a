import PairsRecords
/// What one round gave a Swiss player.
public struct SwissEntry: Sendable, Hashable {
    /// Nil for a bye.
    public var opponent: String?
    /// Half-points: 2 a win (or a bye), 1 a draw, 0 a loss.
    public var points: Int
    /// 0 when the player started, 1 when second; nil for a bye.
    public var seat: Int?
    /// Won or lost without being played out.
    public var forfeit: Bool

    public init(opponent: String?, points: Int, seat: Int? = nil, forfeit: Bool = false) {
        self.opponent = opponent
        self.points = points
        self.seat = seat
        self.forfeit = forfeit
    }
}

/// The Swiss standings: score, then the tie-breaks, each computed from the final scores.
///
/// - **Buchholz**: the sum of the final scores of every opponent the player was paired with (a forfeit
///   counts, as the pairing was made; a bye adds nothing). A player who met the strong ranks above one who
///   met the weak.
/// - **Sonneborn-Berger**: the sum, over the player's games, of the opponent's final score times the
///   player's result (1 a win, ½ a draw, 0 a loss): a win against the strong counts most.
/// - then the **rating** at the start, then the name, so the order is total.
///
/// All in integers: scores in half-points, Buchholz in half-points, Sonneborn-Berger in quarter-points
/// (a half-point result times a half-point score). These are the plain (uncut) forms, as the Hamilton
/// club championship 2018 computed them (see the tests).
public enum SwissTieBreaks {
    /// Half-points of each player: their entries' points added.
    public static func scores(_ entries: [String: [SwissEntry]]) -> [String: Int] {
        entries.mapValues { $0.reduce(0) { $0 + $1.points } }
    }

    /// The Buchholz of `player`, in half-points.
    public static func buchholz(of player: String, in entries: [String: [SwissEntry]], scores: [String: Int]) -> Int {
        (entries[player] ?? []).reduce(0) { sum, entry in sum + (entry.opponent.flatMap { scores[$0] } ?? 0) }
    }

    /// The Sonneborn-Berger of `player`, in quarter-points.
    public static func sonnebornBerger(of player: String, in entries: [String: [SwissEntry]], scores: [String: Int]) -> Int {
        (entries[player] ?? []).reduce(0) { sum, entry in
            sum + (entry.opponent.flatMap { scores[$0] }.map { $0 * entry.points } ?? 0)
        }
    }

    /// The standings of every player in `entries`, best first.
    public static func standings(_ entries: [String: [SwissEntry]], ratings: [String: Int], withdrawn: Set<String> = []) -> [TournamentStanding] {
        let scores = scores(entries)
        // Ranked on the integers (half-points, quarter-points and the rating, which the rows do not carry).
        let ranked = entries.keys.map { name in
            (name: name, score: scores[name] ?? 0, buchholz: buchholz(of: name, in: entries, scores: scores),
             sonnebornBerger: sonnebornBerger(of: name, in: entries, scores: scores), rating: ratings[name] ?? 0)
        }.sorted { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.buchholz != b.buchholz { return a.buchholz > b.buchholz }
            if a.sonnebornBerger != b.sonnebornBerger { return a.sonnebornBerger > b.sonnebornBerger }
            if a.rating != b.rating { return a.rating > b.rating }
            return a.name < b.name
        }
        return ranked.enumerated().map { index, row in
            TournamentStanding(rank: index + 1, name: row.name, score: QuarterPoints(halves: row.score),
                               games: (entries[row.name] ?? []).filter { $0.opponent != nil }.count,
                               buchholz: QuarterPoints(halves: row.buchholz), sonnebornBerger: QuarterPoints(quarters: row.sonnebornBerger),
                               active: !withdrawn.contains(row.name))
        }
    }
}
