import PairsRules
import PairsWire

/// Plays as a player with perfect recall: takes a pair whenever it knows one, and otherwise explores.
///
/// - With no card up: flips one card of a known pair if there is one, else an unseen card.
/// - With one card up: flips its partner if the partner has been seen, else an unseen card (the only
///   chance of a match, and it teaches a new face either way).
///
/// Unseen cards are picked at random so two memory bots do not explore the board in lockstep.
public struct MemoryStrategy: Strategy {
    public init() {}

    public func chooseCard<Generator: RandomNumberGenerator>(
        in state: WireState, memory: GameMemory, using generator: inout Generator
    ) -> Int? {
        let faceDown = state.faceDownCards
        guard !faceDown.isEmpty else { return nil }
        if let up = state.cardUp {
            if let partner = memory.partner(of: up.card, showing: up.face, in: state.cards) { return partner }
        } else if let pair = memory.knownPair(in: state.cards) {
            return pair.first
        }
        let unseen = memory.unseenCards(in: state.cards)
        // Every face-down card is known only when the memory missed a state; any card is then as good.
        return (unseen.isEmpty ? faceDown : unseen).randomElement(using: &generator)
    }
}
