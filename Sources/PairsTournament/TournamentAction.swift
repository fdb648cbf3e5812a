import PairsRules

/// What a director asks its caller (the lobby) to do, in order.
public enum TournamentAction: Sendable, Hashable {
    /// Make a room for the pairing, seat its players (seat 0 starts) and play one game of `rules`; report
    /// `seated`, then `gameEnded` or `gameNeverStarted`. Whoever is not seated by `startBy` forfeits.
    case startGame(Pairing, rules: RuleSet, startBy: Moment)
    /// A Swiss round began: its pairings (each also sent as `startGame`), and who has the bye.
    case roundStarted(round: Int, pairings: [Pairing], bye: String?)
    /// The standings moved (a game ended, a bye, a player joined, paused or withdrew): tell entrants and
    /// watchers what `standings` says now. Without the rows, so that a caller that coalesces several
    /// changes into one message computes them once (an arena of 1,000 sorts 1,000 rows a time).
    case standingsChanged
    /// A Swiss player was withdrawn (left, or forfeited twice): they are paired no more.
    case withdrawn(String)
    /// An arena player is paused (left or disconnected): not paired until they join again.
    case paused(String)
    /// An arena's time is up: no new pairings; the games in progress finish and count.
    case timeUp
    /// Over: the final standings.
    case finished([StandingRow])
}

/// One line of the standings.
public struct StandingRow: Sendable, Hashable {
    public var rank: Int
    public var name: String
    /// Swiss: half-points (a win is 2, so 5 means 2.5). Arena: points (a win is 2, or 4 on a streak).
    public var score: Int
    /// Games played (a forfeit counts, a bye does not).
    public var games: Int
    /// Swiss: the Buchholz score, in half-points; nil in an arena.
    public var buchholz: Int?
    /// Swiss: the Sonneborn-Berger score, in quarter-points (a draw against 2.5 is worth 1.25, 5 quarters);
    /// nil in an arena.
    public var sonnebornBerger: Int?
    /// Arena: wins in a row now (from 2 on, the next game's points are doubled). 0 in a Swiss.
    public var streak: Int
    public var rating: Int
    /// Swiss: withdrawn; arena: paused.
    public var inactive: Bool

    public init(rank: Int, name: String, score: Int, games: Int, buchholz: Int? = nil, sonnebornBerger: Int? = nil,
                streak: Int = 0, rating: Int, inactive: Bool = false) {
        self.rank = rank
        self.name = name
        self.score = score
        self.games = games
        self.buchholz = buchholz
        self.sonnebornBerger = sonnebornBerger
        self.streak = streak
        self.rating = rating
        self.inactive = inactive
    }
}
