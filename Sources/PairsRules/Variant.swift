/// Which card-matching game a room plays: the rules that make it a different game rather than a different
/// board. Ratings keep one ladder per variant; the classic game is `.classic`.
public struct Variant: Sendable, Hashable {
    /// One player against the clock, or two against each other.
    public var seats: SeatCount
    /// Cards turned per turn, and per set on the board.
    public var setSize: SetSize
    /// What the faces are, which decides what makes a set and what it is worth.
    public var deck: Deck
    /// How a turn changes the score.
    public var scoring: Scoring
    /// Seconds from the start of play until the game is over whatever the board; 0 = no game clock.
    public var gameSeconds: Int
    /// Milliseconds every face is shown before play starts; 0 = no peek.
    public var peekMilliseconds: Int

    /// An hour: a game clock longer than that is as good as none.
    public static let gameSecondsRange: ClosedRange<Int> = 0...3600
    /// Ten seconds: enough to study the largest board, short enough not to bore the other player.
    public static let peekMillisecondsRange: ClosedRange<Int> = 0...10_000

    /// Two players, pairs of identical words, a point per pair, no game clock, no peek.
    public static let classic = Variant(seats: .two, setSize: .pair, deck: .words, scoring: .classic, gameSeconds: 0, peekMilliseconds: 0)

    public init(seats: SeatCount, setSize: SetSize, deck: Deck, scoring: Scoring, gameSeconds: Int, peekMilliseconds: Int) {
        self.seats = seats
        self.setSize = setSize
        self.deck = deck
        self.scoring = scoring
        self.gameSeconds = gameSeconds
        self.peekMilliseconds = peekMilliseconds
    }

    /// The first rule outside its range, if any.
    public func validate() throws(RuleError) {
        guard Self.gameSecondsRange.contains(gameSeconds) else { throw .gameSecondsOutOfRange(gameSeconds) }
        guard Self.peekMillisecondsRange.contains(peekMilliseconds) else { throw .peekMillisecondsOutOfRange(peekMilliseconds) }
        if case .matchismo(let costs) = scoring { try costs.validate() }
    }
}

/// How many players a room seats.
public enum SeatCount: Int, Sendable, Hashable, CaseIterable {
    /// Solo: one player, against the board (and the game clock, if there is one).
    case one = 1
    /// Two players taking turns.
    case two = 2

    /// The seats a room of this size has, in turn order.
    public var seats: [Seat] { self == .one ? [.first] : [.first, .second] }
}

/// How many cards make a set: turned per turn, matched together.
public enum SetSize: Int, Sendable, Hashable, CaseIterable {
    case pair = 2
    case triple = 3
}
