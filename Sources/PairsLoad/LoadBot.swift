import PairsClient
import PairsRules

/// The bots of `pairs bot` (`GameMemory` with `MemoryStrategy` or `RandomStrategy`, from PairsClient),
/// restated over `ScannedState`: faces are numbers, the memory is an array, and a decision allocates
/// nothing.
///
/// Why not call PairsClient's strategies: they take a `PublicState` and a `GameMemory` of strings, and in a
/// profile of `pairs load` against a saturated server, building a `PublicState` per state, hashing faces
/// into `GameMemory` and the strategies' temporary arrays cost about a tenth of the load client's CPU,
/// all of it spent to make the client's own measurement worse. The rules below are the same as theirs, in
/// the same order, drawing from the generator the same way, so with the same seed both pick the same card
/// (a test plays whole games both ways and compares every choice).
struct LoadBot {
    let strategy: StrategyKind
    /// The game the remembered faces belong to; nil before the first state.
    private var game: Int?
    /// The face number of every card seen in this game, by card; `ScannedState.Card.noFace` when unseen.
    private var faces: [Int32] = []
    /// Candidates for a random pick, kept to reuse its storage.
    private var candidates: [Int] = []

    init(strategy: StrategyKind) {
        self.strategy = strategy
    }

    /// Remembers the faces showing in `state` (as `GameMemory.observe`), first forgetting everything if it
    /// is of another game.
    mutating func observe(_ state: ScannedState) {
        if state.game != game || faces.count != state.cards.count {
            game = state.game
            faces.removeAll(keepingCapacity: true)
            faces.append(contentsOf: repeatElement(ScannedState.Card.noFace, count: state.cards.count))
        }
        for (index, card) in state.cards.enumerated() where card.side != .down {
            faces[index] = card.face
        }
    }

    /// The card to flip in `state` (as `MemoryStrategy` or `RandomStrategy`), or nil when none is face down.
    mutating func chooseCard<Generator: RandomNumberGenerator>(in state: ScannedState, using generator: inout Generator) -> Int? {
        let cards = state.cards
        guard cards.contains(where: { $0.side == .down }) else { return nil }
        if strategy == .memory {
            if let up = cards.firstIndex(where: { $0.side == .up }) {
                // Its partner, if seen.
                let face = cards[up].face
                if let partner = cards.indices.first(where: { $0 != up && cards[$0].side == .down && faces[$0] == face }) {
                    return partner
                }
            } else if let pair = knownPair(in: cards) {
                return pair
            }
            // An unseen card; every face-down card is known only when a state was missed: then any.
            candidates.removeAll(keepingCapacity: true)
            for index in cards.indices where cards[index].side == .down && faces[index] == ScannedState.Card.noFace {
                candidates.append(index)
            }
            if !candidates.isEmpty { return candidates.randomElement(using: &generator) }
        }
        candidates.removeAll(keepingCapacity: true)
        for index in cards.indices where cards[index].side == .down { candidates.append(index) }
        return candidates.randomElement(using: &generator)
    }

    /// The first card of the known face-down pair whose second card comes first on the board (as
    /// `GameMemory.knownPair`).
    private func knownPair(in cards: [ScannedState.Card]) -> Int? {
        for second in cards.indices where cards[second].side == .down && faces[second] != ScannedState.Card.noFace {
            for first in 0..<second where cards[first].side == .down && faces[first] == faces[second] {
                return first
            }
        }
        return nil
    }
}
