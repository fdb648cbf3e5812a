import PairsRules

/// The `event` of a `state` line as a client reads it: protocol.md's `{kind, seat?, card?, cards?, id?}`
/// and nothing more.
///
/// Every field but the kind is optional there, and later versions may add kinds, so a client that wants
/// to play against any server that follows protocol.md can rely on the kind alone: this server always
/// sends what the rules' `GameEvent` holds, another may leave out what protocol.md lets it. The id is the
/// `StateMessage`'s.
public struct StateEvent: Sendable, Hashable {
    public var kind: EventKind
    /// The seat the change was about, if the server said.
    public var seat: Seat?
    /// The one card the change was about (the card flipped, the second card of a pair), if the server said.
    public var card: Int?
    /// Both cards of a turn, in flip order, if the server said.
    public var cards: CardPair?

    public init(kind: EventKind, seat: Seat? = nil, card: Int? = nil, cards: CardPair? = nil) {
        self.kind = kind
        self.seat = seat
        self.card = card
        self.cards = cards
    }

    /// Everything the rules' event says, as this server writes it.
    public init(_ event: GameEvent) {
        self.init(kind: EventKind(event), seat: event.seat, card: event.card, cards: event.cards)
    }
}

/// A room's public state as a `state` line carries it, with the change as a client reads it.
public typealias WireState = StateSnapshot<StateEvent>

extension StateSnapshot where Event == StateEvent {
    /// The rules' state as this server writes it.
    public init(_ state: PublicState) {
        self = state.describing(StateEvent(state.event))
    }
}
