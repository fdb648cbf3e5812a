/// Everything a room's games are played by, chosen by whoever creates the room: one value from the command
/// line or the `join` that made the room, to the match, to the encoders and to the clients.
///
/// The `variant` (who plays, how many cards make a set, which deck, how turns score, the clocks of the whole
/// game) says which game it is; the rest (board size, turn clock, reveal time, another turn on a match)
/// tunes it. Ratings keep one ladder per variant.
public struct RuleSet: Sendable, Hashable {
    /// Which game: seats, set size, deck, scoring, game clock and peek.
    public var variant: Variant
    /// Sets on the board (pairs with a set size of two, triples with three); the board has `pairs` x
    /// `setSize` cards.
    public var pairs: Int
    /// Seconds a player has for a turn; 0 turns the clock off.
    public var turnSeconds: Int
    /// Milliseconds a mismatched set stays face up before it turns back down.
    public var revealMilliseconds: Int
    /// Whether a match earns the player another turn (true) or passes the turn (false).
    public var againOnMatch: Bool

    /// The sets any board may hold, whatever its other rules: `pairsRange` narrows it for triples and for
    /// playing cards.
    public static let pairsLimits: ClosedRange<Int> = 2...32
    /// A turn of an hour is as good as no clock; anything longer is a typo.
    public static let turnSecondsRange: ClosedRange<Int> = 0...3600
    /// A reveal longer than a minute would stall every game it happens in.
    public static let revealMillisecondsRange: ClosedRange<Int> = 0...60_000

    /// The classic game: two players, 8 pairs of words on a 4x4 board, 30 seconds a turn, a one-second
    /// reveal, a match moves again.
    public static let standard = RuleSet(variant: .classic, pairs: 8, turnSeconds: 30, revealMilliseconds: 1000, againOnMatch: true)

    /// Rules as given; `validate()` checks them against their ranges.
    public init(variant: Variant = .classic, pairs: Int, turnSeconds: Int, revealMilliseconds: Int, againOnMatch: Bool) {
        self.variant = variant
        self.pairs = pairs
        self.turnSeconds = turnSeconds
        self.revealMilliseconds = revealMilliseconds
        self.againOnMatch = againOnMatch
    }

    /// The sets a board of these rules may hold: at least 2 (fewer leaves no decision), at most as many as
    /// the deck has faces for and a terminal fits: 32 pairs or 21 triples of words (64 and 63 cards), and
    /// 52 cards of a playing-card deck.
    public var pairsRange: ClosedRange<Int> {
        switch variant.deck {
        case .words: 2...(variant.setSize == .pair ? 32 : 21)
        case .cards: 2...(PlayingCard.deckSize / variant.setSize.rawValue)
        }
    }

    /// Cards on the board.
    public var cardCount: Int { pairs * variant.setSize.rawValue }

    /// The layout of a board with these rules.
    public var layout: BoardLayout { BoardLayout(cardCount: cardCount) }

    /// The first rule outside its range, if any.
    public func validate() throws(RuleError) {
        try variant.validate()
        guard pairsRange.contains(pairs) else { throw .pairsOutOfRange(pairs, allowed: pairsRange, variant: variant) }
        guard Self.turnSecondsRange.contains(turnSeconds) else { throw .turnSecondsOutOfRange(turnSeconds) }
        guard Self.revealMillisecondsRange.contains(revealMilliseconds) else {
            throw .revealMillisecondsOutOfRange(revealMilliseconds)
        }
    }
}
