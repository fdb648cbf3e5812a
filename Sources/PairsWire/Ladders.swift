import PairsRecords
import PairsRules

/// A name's place on a rated ladder: Glicko-2's rating and deviation, rounded, and the games behind them.
public struct LadderStanding: Sendable, Hashable {
    public var name: String
    public var rating: Int
    public var deviation: Int
    /// A deviation above 110: too few games to trust the rating (shown with a `?`).
    public var provisional: Bool
    public var games: Int
    public var wins: Int
    public var losses: Int
    public var draws: Int

    public init(name: String, rating: Int, deviation: Int, provisional: Bool, games: Int, wins: Int, losses: Int, draws: Int) {
        self.name = name
        self.rating = rating
        self.deviation = deviation
        self.provisional = provisional
        self.games = games
        self.wins = wins
        self.losses = losses
        self.draws = draws
    }
}

/// A name's record on a solo ladder: the best time and the fewest flips to clear the board.
public struct SoloStanding: Sendable, Hashable {
    public var name: String
    public var played: Int
    public var cleared: Int
    /// Milliseconds from the first state of the game to the last set matched; nil before a first clear.
    public var bestMilliseconds: Int?
    public var fewestFlips: Int?

    public init(name: String, played: Int, cleared: Int, bestMilliseconds: Int?, fewestFlips: Int?) {
        self.name = name
        self.played = played
        self.cleared = cleared
        self.bestMilliseconds = bestMilliseconds
        self.fewestFlips = fewestFlips
    }
}

/// How a solo ladder is ordered.
public enum SoloRankingKind: Sendable, Hashable, CaseIterable {
    case time, flips
}

extension SoloRankingKind: WireNamed {
    public var wireName: String {
        switch self {
        case .time: "time"
        case .flips: "flips"
        }
    }
}

/// A standing with its place on the ladder: 1 is the best.
public struct Place<Standing: Sendable & Hashable>: Sendable, Hashable {
    public var rank: Int
    public var standing: Standing

    public init(rank: Int, standing: Standing) {
        self.rank = rank
        self.standing = standing
    }
}

/// A standing on the ladder of one variant.
public struct OnLadder<Standing: Sendable & Hashable>: Sendable, Hashable {
    public var variant: Variant
    public var standing: Standing

    public init(variant: Variant, standing: Standing) {
        self.variant = variant
        self.standing = standing
    }
}

/// The answer to `leaderboard`: the best of one ladder (a variant), best first, with their places.
public struct Leaderboard: Sendable, Hashable {
    /// A rated ladder's places, or a solo ladder's.
    public enum Places: Sendable, Hashable {
        case rated([Place<LadderStanding>])
        case solo([Place<SoloStanding>], by: SoloRankingKind)
    }

    public var variant: Variant
    public var places: Places
    /// More lines of the same answer follow; a client appends their places.
    public var more: Bool
    public var id: RequestID?

    public init(variant: Variant, places: Places, more: Bool = false, id: RequestID? = nil) {
        self.variant = variant
        self.places = places
        self.more = more
        self.id = id
    }
}

/// The answer to `profile`: a name's standings on every ladder it played, its totals and its last games.
public struct PlayerProfile: Sendable, Hashable {
    /// A name's totals (`PairsRecords.PlayerTotals`), as the store counts them.
    public typealias Totals = PlayerTotals

    public var name: String
    /// Whether the name belongs to someone (was claimed with a password).
    public var claimed: Bool
    public var ratings: [OnLadder<LadderStanding>]
    public var solo: [OnLadder<SoloStanding>]
    public var totals: Totals
    /// The name's last games, newest first.
    public var games: [FinishedGameSummary]
    /// More lines of the same answer follow; a client appends their ratings, solo records and games.
    public var more: Bool
    public var id: RequestID?

    public init(name: String, claimed: Bool, ratings: [OnLadder<LadderStanding>], solo: [OnLadder<SoloStanding>],
                totals: Totals, games: [FinishedGameSummary], more: Bool = false, id: RequestID? = nil) {
        self.name = name
        self.claimed = claimed
        self.ratings = ratings
        self.solo = solo
        self.totals = totals
        self.games = games
        self.more = more
        self.id = id
    }
}
