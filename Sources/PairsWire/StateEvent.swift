import PairsRules

/// The `event` of a `state` line as a client reads it: protocol.md's `{kind, seat?, card?, cards?,
/// points?, id?}` and nothing more.
///
/// Every field but the kind is optional there, and later versions may add kinds, so a client that wants
/// to play against any server that follows protocol.md can rely on the kind alone: this server always
/// sends what the rules' `GameEvent` holds, another may leave out what protocol.md lets it. The id is the
/// `StateMessage`'s.
public struct StateEvent: Sendable, Hashable {
    public var kind: EventKind
    /// The seat the change was about, if the server said.
    public var seat: Seat?
    /// The one card the change was about (the card flipped, the last card of a set), if the server said.
    public var card: Int?
    /// Every card of a turn's set, in flip order, if the server said.
    public var cards: [Int]?
    /// The score change of the turn the event resolves, if the server said (Matchismo rooms do).
    public var points: Int?

    public init(kind: EventKind, seat: Seat? = nil, card: Int? = nil, cards: [Int]? = nil, points: Int? = nil) {
        self.kind = kind
        self.seat = seat
        self.card = card
        self.cards = cards
        self.points = points
    }

    /// What the rules' event says, as this server writes it for a room of `rules`.
    public init(_ event: GameEvent, rules: RuleSet) {
        let fields = WireEventFields(event, rules: rules)
        self.init(kind: fields.kind, seat: fields.seat, card: fields.card, cards: fields.cards.map(Array.init),
                  points: fields.points)
    }
}

/// The fields of an event as this server writes them in a room of `rules`: the one place that decides, for
/// both state encoders and for `StateEvent`.
///
/// `points` goes out only where Matchismo scores, and a timeout's `cards` only when it turned more than one
/// card back down (three-card sets), so a classic room's events are exactly what they always were.
struct WireEventFields {
    let kind: EventKind
    let seat: Seat?
    let card: Int?
    let cards: CardSet?
    let points: Int?

    init(_ event: GameEvent, rules: RuleSet) {
        kind = EventKind(event)
        seat = event.seat
        card = event.card
        points = rules.variant.scoring.kind == .matchismo ? event.points : nil
        if case .timeout(_, let hidden) = event {
            cards = hidden.count > 1 ? hidden : nil
        } else {
            cards = event.cards
        }
    }
}

/// A room's public state as a `state` line carries it, with the change as a client reads it.
public typealias WireState = StateSnapshot<StateEvent>

extension StateSnapshot where Event == StateEvent {
    /// The rules' state as this server writes it for a room of `rules`.
    public init(_ state: PublicState, rules: RuleSet) {
        self = state.describing(StateEvent(state.event, rules: rules))
    }

    /// Whether this is the state that ends a game: the phase is over and the event says why.
    ///
    /// A match that leaves no set to find is already over in its own state, and an `exhausted` state
    /// follows at once; a client that reports a game's result waits for that one, so the reason is known.
    public var endsGame: Bool { phase == .over && event.kind != .match }
}
