import PairsBots
import PairsRules

/// The bots of `pairs bot` (`GameMemory` with `MemoryStrategy` or `RandomStrategy`, from PairsClient),
/// restated over `ScannedState`: faces are numbers, the memory is an array, and a decision on the classic
/// board of pairs of words allocates nothing.
///
/// Why not call PairsClient's strategies: they take a `PublicState` and a `GameMemory` of strings, and in a
/// profile of `pairs load` against a saturated server, building a `PublicState` per state, hashing faces
/// into `GameMemory` and the strategies' temporary arrays cost about a tenth of the load client's CPU,
/// all of it spent to make the client's own measurement worse. For pairs of words (the classic game, and
/// the benchmark's hot path) the rules below are the same as `TurnPlanner`'s, in the same order, drawing
/// from the generator the same way; for sets of three and for playing cards, whose reasoning is longer,
/// the memory bot asks `TurnPlanner` itself, reading this memory in place. Either way, with the same seed
/// both pick the same card (a test plays whole games of every variant both ways and compares every choice).
struct LoadBot {
    let strategy: StrategyKind
    /// The room's rules, as `joined` gave them: nil for a room of the classic game.
    private(set) var rules: RuleSet?
    /// How the memory bot decides where the board is not pairs of words.
    private var planner: TurnPlanner?
    /// The game the remembered faces belong to; nil before the first state.
    private var game: Int?
    /// The face number of every card seen in this game, by card; `ScannedState.Card.noFace` when unseen.
    private var faces: [Int32] = []
    /// Candidates for a random pick, kept to reuse its storage.
    private var candidates: [Int] = []

    init(strategy: StrategyKind) {
        self.strategy = strategy
    }

    /// Plays by `rules` from now on (nil: the classic game).
    mutating func play(by rules: RuleSet?) {
        self.rules = rules
        let variant = rules?.variant ?? .classic
        planner = variant.deck == .words && variant.setSize == .pair ? nil : TurnPlanner(rules: rules)
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
    /// `table` is the one the state's face numbers index, read only by the planner (not for pairs of words).
    mutating func chooseCard<Generator: RandomNumberGenerator>(
        in state: ScannedState, table: @autoclosure () -> FaceTable, using generator: inout Generator
    ) -> Int? {
        let cards = state.cards
        if strategy == .memory, let planner {
            return planner.chooseCard(on: ScannedBoard(state: state, memory: faces, table: table()), using: &generator)
        }
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

/// A scanned state and a load bot's memory as the board `TurnPlanner` reads, without copying either.
private struct ScannedBoard: BoardKnowledge {
    let state: ScannedState
    let memory: [Int32]
    let table: FaceTable

    var cardCount: Int { state.cards.count }

    func knowledge(of card: Int) -> CardKnowledge {
        let scanned = state.cards[card]
        let number = scanned.side == .down ? (memory.indices.contains(card) ? memory[card] : ScannedState.Card.noFace) : scanned.face
        let face = number == ScannedState.Card.noFace ? nil : FaceKey(id: number, card: table.cards[Int(number)])
        switch scanned.side {
        case .down: return CardKnowledge(side: .down, face: face)
        case .up: return CardKnowledge(side: .up, face: face)
        case .matched: return CardKnowledge(side: .gone, face: face)
        }
    }
}
