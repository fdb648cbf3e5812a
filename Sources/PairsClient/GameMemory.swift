import PairsBots
import PairsRules
import PairsWire

/// Every face a player has seen on the board of the current game, by card number.
///
/// Faces are remembered from every state, whoever turned the card, and are forgotten when the game
/// number changes: a rematch deals a new board, so last game's faces would only mislead.
public struct GameMemory: Sendable, Hashable {
    /// The game the remembered faces belong to; nil before the first state.
    public private(set) var game: Int?
    /// The face of each card seen face up (or matched) in this game.
    public private(set) var faces: [Int: String] = [:]

    public init() {}

    /// Remembers the faces showing in `state`, first forgetting everything if it is of another game.
    public mutating func observe(_ state: WireState) {
        if state.game != game {
            game = state.game
            faces = [:]
        }
        for (card, view) in state.cards.enumerated() {
            switch view {
            case .up(let face), .matched(let face, _): faces[card] = face
            case .down: break
            }
        }
    }

    /// The face of `card`, if it has been seen.
    public func face(of card: Int) -> String? {
        faces[card]
    }

    /// The board of `state` as this memory knows it: each card's side and, where seen, its face.
    public func knowledge(of state: WireState) -> [CardKnowledge] {
        // Faces are numbered in the order met, so equal faces get equal numbers.
        var numbers: [String: Int32] = [:]
        func key(_ face: String) -> FaceKey {
            let id = numbers[face] ?? Int32(numbers.count)
            numbers[face] = id
            return FaceKey(id: id, card: PlayingCard(face: face))
        }
        return state.cards.enumerated().map { card, view in
            switch view {
            case .down: CardKnowledge(side: .down, face: faces[card].map(key))
            case .up(let face): CardKnowledge(side: .up, face: key(face))
            case .matched(let face, _): CardKnowledge(side: .gone, face: key(face))
            }
        }
    }
}
