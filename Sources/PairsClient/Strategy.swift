import PairsRules
import PairsWire

/// How a bot picks the card to flip.
///
/// A strategy only chooses; it never sends anything. It is asked only when the bot is on turn in a
/// playing game, and answers with a face-down card of `state`, or nil when there is none.
public protocol Strategy: Sendable {
    func chooseCard<Generator: RandomNumberGenerator>(
        in state: WireState, memory: GameMemory, using generator: inout Generator) -> Int?
}

extension WireState {
    /// The face-down cards: the ones a flip may turn.
    public var faceDownCards: [Int] {
        cards.indices.filter { cards[$0] == .down }
    }

    /// The card turned face up earlier in the current turn, with its face, if there is one.
    public var cardUp: (card: Int, face: String)? {
        for (card, view) in cards.enumerated() {
            if case .up(let face) = view { return (card, face) }
        }
        return nil
    }
}
