import PairsRules
import PairsWire

/// How a bot picks the card to flip.
///
/// A strategy only chooses; it never sends anything. It is asked only when the bot is on turn in a
/// playing game, and answers with a face-down card of `state`, or nil when there is none. `rules` are the
/// room's as its messages carry them: nil for a room of the classic game, which sends none.
public protocol Strategy: Sendable {
    func chooseCard<Generator: RandomNumberGenerator>(
        in state: WireState, rules: RuleSet?, memory: GameMemory, using generator: inout Generator) -> Int?
}

extension WireState {
    /// The face-down cards: the ones a flip may turn.
    public var faceDownCards: [Int] {
        cards.indices.filter { cards[$0] == .down }
    }

    /// The cards face up and not matched, in board order: those turned earlier in the current turn, a
    /// mismatch on show, or every card during a peek.
    public var cardsUp: [Int] {
        cards.indices.filter { if case .up = cards[$0] { true } else { false } }
    }
}
