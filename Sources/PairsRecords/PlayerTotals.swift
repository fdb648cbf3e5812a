/// Games counted over every stored game under a name, as the store counts them and `profile` says them.
public struct PlayerTotals: Sendable, Hashable {
    /// Games of two seats.
    public var games: Int
    public var wins: Int
    public var losses: Int
    public var draws: Int
    /// Solo games.
    public var soloPlayed: Int
    /// Solo games cleared.
    public var soloCleared: Int

    public init(games: Int, wins: Int, losses: Int, draws: Int, soloPlayed: Int, soloCleared: Int) {
        self.games = games
        self.wins = wins
        self.losses = losses
        self.draws = draws
        self.soloPlayed = soloPlayed
        self.soloCleared = soloCleared
    }

    /// No game at all: a name never played, or one whose games were all pruned.
    public static let none = PlayerTotals(games: 0, wins: 0, losses: 0, draws: 0, soloPlayed: 0, soloCleared: 0)
}
