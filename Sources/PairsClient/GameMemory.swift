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

    /// Two face-down cards known to show the same face, the lowest-numbered such pair first.
    public func knownPair(in cards: [CardView]) -> CardSet? {
        var firstByFace: [String: Int] = [:]
        for card in cards.indices where cards[card] == .down {
            guard let face = faces[card] else { continue }
            if let first = firstByFace[face] { return [first, card] }
            firstByFace[face] = card
        }
        return nil
    }

    /// A face-down card other than `card` known to show `face`.
    public func partner(of card: Int, showing face: String, in cards: [CardView]) -> Int? {
        cards.indices.first { $0 != card && cards[$0] == .down && faces[$0] == face }
    }

    /// The face-down cards whose faces have never been seen, in board order.
    public func unseenCards(in cards: [CardView]) -> [Int] {
        cards.indices.filter { cards[$0] == .down && faces[$0] == nil }
    }
}
