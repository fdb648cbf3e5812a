import PairsRecords

/// A name's standing on a rated ladder (games of two seats).
public struct RatingRecord: Sendable, Hashable {
    public var ladder: String
    public var name: String
    /// The Glicko-2 rating, rounded to an integer for showing.
    public var rating: Int
    /// The rating deviation, rounded.
    public var deviation: Int
    /// Whether the deviation is still above `Glicko2Rating.provisionalDeviation` (shown with a `?`).
    public var isProvisional: Bool
    public var games: Int
    public var wins: Int
    public var losses: Int
    public var draws: Int
}

/// A name's records on a solo ladder.
public struct SoloRecord: Sendable, Hashable {
    public var ladder: String
    public var name: String
    /// Solo games played on the ladder.
    public var played: Int
    /// Solo games in which the board was cleared.
    public var cleared: Int
    /// The fastest clear, in milliseconds from the start to the last flip; nil before the first clear.
    public var bestMilliseconds: Int?
    /// The fewest flips in a clear; nil before the first clear.
    public var fewestFlips: Int?
}

/// A record with its place on a leaderboard, from 1.
public struct Ranked<Record: Sendable & Hashable>: Sendable, Hashable {
    public var rank: Int
    public var record: Record
}

/// What a solo leaderboard ranks by; the other record breaks ties.
public enum SoloRanking: Sendable, Hashable {
    /// The fastest clear first.
    case bestTime
    /// The fewest flips in a clear first.
    case fewestFlips
}

/// Everything the store knows about a name.
public struct Profile: Sendable, Hashable {
    public var name: String
    /// Whether the name is claimed with a password.
    public var isClaimed: Bool
    /// Ratings on every rated ladder the name has played.
    public var ratings: [RatingRecord]
    /// Records on every solo ladder the name has played.
    public var solo: [SoloRecord]
    /// Every stored game under the name, rated or not.
    public var totals: Totals
    /// The most recent games, newest first.
    public var lastGames: [HistoryEntry]

    /// Games counted over every stored game under a name: the record `profile` carries.
    public typealias Totals = PlayerTotals
}
