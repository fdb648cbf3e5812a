/// How a turn changes the turning player's score.
public enum Scoring: Sendable, Hashable {
    /// A point per set matched; nothing else scores.
    case classic
    /// Stanford's Matchismo: every flip costs, a mismatch costs more, and a match earns a multiple of what
    /// the set is worth. Scores can go negative.
    case matchismo(MatchismoCosts)

    /// Which scoring, without its constants.
    public enum Kind: Sendable, Hashable, CaseIterable {
        case classic
        case matchismo
    }

    public var kind: Kind {
        switch self {
        case .classic: .classic
        case .matchismo: .matchismo
        }
    }

    /// The score change of one card turning up, taken as it turns.
    var flipPoints: Int {
        switch self {
        case .classic: 0
        case .matchismo(let costs): -costs.flipCost
        }
    }

    /// The score change of a matched set worth `value`, on top of its flips.
    func matchPoints(value: Int) -> Int {
        switch self {
        case .classic: 1
        case .matchismo(let costs): costs.matchBonus * value
        }
    }

    /// The score change of a mismatch, on top of its flips.
    var mismatchPoints: Int {
        switch self {
        case .classic: 0
        case .matchismo(let costs): -costs.mismatchPenalty
        }
    }
}

/// Matchismo's constants.
public struct MatchismoCosts: Sendable, Hashable {
    /// The fields as the protocol names them, for errors that name the one out of range.
    public enum Field: String, Sendable {
        case flipCost = "flip_cost"
        case mismatchPenalty = "mismatch_penalty"
        case matchBonus = "match_bonus"
    }

    /// A hundred: beyond it one turn would swing a score past anything a board can give back.
    public static let range: ClosedRange<Int> = 0...100

    /// Points every card costs as it turns up.
    public var flipCost: Int
    /// Points a mismatch costs, on top of its flips.
    public var mismatchPenalty: Int
    /// A match earns this times the set's value.
    public var matchBonus: Int

    /// Stanford's: a flip costs 1, a mismatch 2 more, a match earns 4 times its value.
    public static let standard = MatchismoCosts(flipCost: 1, mismatchPenalty: 2, matchBonus: 4)

    public init(flipCost: Int, mismatchPenalty: Int, matchBonus: Int) {
        self.flipCost = flipCost
        self.mismatchPenalty = mismatchPenalty
        self.matchBonus = matchBonus
    }

    func validate() throws(RuleError) {
        for (field, value) in [(Field.flipCost, flipCost), (.mismatchPenalty, mismatchPenalty), (.matchBonus, matchBonus)]
        where !Self.range.contains(value) {
            throw .matchismoCostOutOfRange(field: field, value: value)
        }
    }
}
