/// What one accepted change did. Every change to a match yields exactly one event and one new public state.
public enum GameEvent: Sendable, Hashable {
    /// A player took a seat.
    case join(Seat)
    /// A game began with every face shown for the peek; play starts (`start`) when the peek ends.
    case peek
    /// Play began; `turn` moves first.
    case start(turn: Seat)
    /// A card of a turn turned face up, not the last of its set.
    case flip(Seat, card: Int)
    /// The last card of a turn made a set: its cards leave play and the seat scores `points` for the turn
    /// (its flips included).
    case match(Seat, cards: CardSet, points: Int)
    /// The last card of a turn made no set: the cards stay face up for the reveal. `points` is the turn's
    /// score change (its flips and the penalty).
    case mismatch(Seat, cards: CardSet, points: Int)
    /// A mismatched set turned face down again and the turn passed.
    case hide(cards: CardSet)
    /// The turn clock ran out; `hidden` are the cards of the unfinished turn, turned back down.
    case timeout(Seat, hidden: CardSet)
    /// The last set was matched by `Seat`: the board is cleared and the game is over.
    case over(Seat, cards: CardSet, points: Int)
    /// The game clock ran out: the game is over.
    case timeUp
    /// No set can be made of the cards still face down: the game is over.
    case exhausted
    /// The seat gave up the game, for `reason`.
    case forfeit(Seat, ForfeitReason)
    /// The seat's player left the room; the seat is free.
    case leave(Seat)
    /// The seat's connection dropped; the seat is kept for the grace period.
    case disconnect(Seat)
    /// The seat's player came back.
    case reconnect(Seat)
    /// The seat asked for a rematch; a new game starts when every seat has asked.
    case rematch(Seat)

    /// The seat the event is about, if it is about one.
    public var seat: Seat? {
        switch self {
        case .join(let seat), .flip(let seat, _), .match(let seat, _, _), .mismatch(let seat, _, _),
             .timeout(let seat, _), .over(let seat, _, _), .forfeit(let seat, _), .leave(let seat),
             .disconnect(let seat), .reconnect(let seat), .rematch(let seat):
            seat
        case .start(let turn):
            turn
        case .peek, .hide, .timeUp, .exhausted:
            nil
        }
    }

    /// The single card the event is about: the card flipped, the last card of a set, or the last card a
    /// timeout turned back down.
    public var card: Int? {
        switch self {
        case .flip(_, let card): card
        case .match(_, let cards, _), .mismatch(_, let cards, _), .over(_, let cards, _), .timeout(_, let cards): cards.last
        default: nil
        }
    }

    /// Every card of a set, for the events that resolve or hide one, in flip order.
    public var cards: CardSet? {
        switch self {
        case .match(_, let cards, _), .mismatch(_, let cards, _), .hide(let cards), .over(_, let cards, _): cards
        default: nil
        }
    }

    /// The score change of the turn the event resolves, for the events that resolve one.
    public var points: Int? {
        switch self {
        case .match(_, _, let points), .mismatch(_, _, let points), .over(_, _, let points): points
        default: nil
        }
    }

    /// Whether the event ends a game.
    public var endsGame: Bool {
        switch self {
        case .over, .timeUp, .exhausted, .forfeit: true
        default: false
        }
    }
}

/// Why a player gave a game up.
public enum ForfeitReason: Sendable, Hashable, CaseIterable {
    /// The player left the room.
    case left
    /// The turn clock ran out three times in a row.
    case timeouts
    /// The connection stayed away past the grace period.
    case away
}
