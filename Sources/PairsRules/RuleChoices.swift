/// The rules a player asks for when creating a room, each chosen or left to the server's defaults: what a
/// `join` carries, and what the clients' command-line flags make.
///
/// A client does not know the server's defaults, so it sends only what its user chose; the room's
/// `RuleSet` is these choices laid over the server's defaults (`rules(over:)`), once, when the room is made.
public struct RuleChoices: Sendable, Hashable {
    public var seats: SeatCount?
    public var setSize: SetSize?
    public var deck: Deck?
    public var scoring: Scoring.Kind?
    /// Matchismo's constants; used only when the room scores by Matchismo.
    public var flipCost: Int?
    public var mismatchPenalty: Int?
    public var matchBonus: Int?
    public var gameSeconds: Int?
    public var peekMilliseconds: Int?
    public var pairs: Int?
    public var turnSeconds: Int?
    public var revealMilliseconds: Int?
    public var againOnMatch: Bool?

    /// Nothing chosen: the server's defaults.
    public init() {}

    /// Whether nothing is chosen.
    public var isEmpty: Bool { self == RuleChoices() }

    /// The rule set these choices make over `defaults`. Matchismo's constants come from the choices, else
    /// from the defaults when they score by Matchismo too, else from `MatchismoCosts.standard`; they are
    /// dropped when the room scores classically. Throws the first rule out of its range, including ranges
    /// that depend on other rules (the most sets a board of triples or of playing cards holds).
    public func rules(over defaults: RuleSet) throws(RuleError) -> RuleSet {
        var variant = defaults.variant
        variant.seats = seats ?? variant.seats
        variant.setSize = setSize ?? variant.setSize
        variant.deck = deck ?? variant.deck
        variant.gameSeconds = gameSeconds ?? variant.gameSeconds
        variant.peekMilliseconds = peekMilliseconds ?? variant.peekMilliseconds
        switch scoring ?? defaults.variant.scoring.kind {
        case .classic:
            variant.scoring = .classic
        case .matchismo:
            var costs = MatchismoCosts.standard
            if case .matchismo(let base) = defaults.variant.scoring { costs = base }
            costs.flipCost = flipCost ?? costs.flipCost
            costs.mismatchPenalty = mismatchPenalty ?? costs.mismatchPenalty
            costs.matchBonus = matchBonus ?? costs.matchBonus
            variant.scoring = .matchismo(costs)
        }
        let rules = RuleSet(
            variant: variant, pairs: pairs ?? defaults.pairs, turnSeconds: turnSeconds ?? defaults.turnSeconds,
            revealMilliseconds: revealMilliseconds ?? defaults.revealMilliseconds,
            againOnMatch: againOnMatch ?? defaults.againOnMatch)
        try rules.validate()
        return rules
    }

    /// The choices that make `rules` whatever the defaults: every rule chosen.
    public init(_ rules: RuleSet) {
        seats = rules.variant.seats
        setSize = rules.variant.setSize
        deck = rules.variant.deck
        scoring = rules.variant.scoring.kind
        if case .matchismo(let costs) = rules.variant.scoring {
            flipCost = costs.flipCost
            mismatchPenalty = costs.mismatchPenalty
            matchBonus = costs.matchBonus
        }
        gameSeconds = rules.variant.gameSeconds
        peekMilliseconds = rules.variant.peekMilliseconds
        pairs = rules.pairs
        turnSeconds = rules.turnSeconds
        revealMilliseconds = rules.revealMilliseconds
        againOnMatch = rules.againOnMatch
    }
}
