/// What one accepted change did. Every change to a match yields exactly one event and one new public state.
public enum GameEvent: Sendable, Hashable {
    /// A player took a seat.
    case join(Seat)
    /// A game began; `turn` moves first.
    case start(turn: Seat)
    /// The first card of a turn was turned face up.
    case flip(Seat, card: Int)
    /// The second card matched the first: both leave play and the seat scores.
    case match(Seat, cards: CardPair)
    /// The second card did not match: both stay face up for the reveal.
    case mismatch(Seat, cards: CardPair)
    /// A mismatched pair turned face down again and the turn passed.
    case hide(cards: CardPair)
    /// The turn clock ran out; `hidden` is the card that was face up, if one was.
    case timeout(Seat, hidden: Int?)
    /// The last pair was matched by `Seat`: the game is over.
    case over(Seat, cards: CardPair)
    /// The seat gave up the game (left, timed out too often, or stayed away past the grace period).
    case forfeit(Seat)
    /// The seat's player left the room; the seat is free.
    case leave(Seat)
    /// The seat's connection dropped; the seat is kept for the grace period.
    case disconnect(Seat)
    /// The seat's player came back.
    case reconnect(Seat)
    /// The seat asked for a rematch; a new game starts when both have asked.
    case rematch(Seat)

    /// The seat the event is about, if it is about one.
    public var seat: Seat? {
        switch self {
        case .join(let seat), .flip(let seat, _), .match(let seat, _), .mismatch(let seat, _),
             .timeout(let seat, _), .over(let seat, _), .forfeit(let seat), .leave(let seat),
             .disconnect(let seat), .reconnect(let seat), .rematch(let seat):
            seat
        case .start(let turn):
            turn
        case .hide:
            nil
        }
    }

    /// The single card the event is about: the card flipped, or the second card of a pair.
    public var card: Int? {
        switch self {
        case .flip(_, let card): card
        case .match(_, let cards), .mismatch(_, let cards), .over(_, let cards): cards.second
        case .timeout(_, let hidden): hidden
        default: nil
        }
    }

    /// Both cards of a turn, for the events that resolve one.
    public var cards: CardPair? {
        switch self {
        case .match(_, let cards), .mismatch(_, let cards), .hide(let cards), .over(_, let cards): cards
        default: nil
        }
    }
}

/// The two cards of one turn, in the order they were flipped.
public struct CardPair: Sendable, Hashable {
    public let first: Int
    public let second: Int

    public init(_ first: Int, _ second: Int) {
        self.first = first
        self.second = second
    }
}
