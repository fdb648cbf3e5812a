import PairsRecords
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
    case finished([TournamentStanding])
}
