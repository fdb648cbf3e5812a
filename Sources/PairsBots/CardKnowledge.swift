import PairsRules

/// A face as a strategy compares faces: which face it is, and, in a deck of playing cards, the card.
///
/// Faces are compared by number rather than by text so that the load client, which numbers the faces it
/// reads (`FaceTable`), can ask the same questions as `pairs bot` without making a string per card.
public struct FaceKey: Sendable, Hashable {
    /// Equal for equal faces, different for different ones (within one board).
    public var id: Int32
    /// The playing card the face shows; nil for a word.
    public var card: PlayingCard?

    public init(id: Int32, card: PlayingCard?) {
        self.id = id
        self.card = card
    }
}

/// What a player knows of one card of the board.
public struct CardKnowledge: Sendable, Hashable {
    /// Where the card is.
    public enum Side: Sendable, Hashable {
        /// Face down: a flip may turn it.
        case down
        /// Turned up earlier in the turn being played.
        case up
        /// Matched, out of play.
        case gone
    }

    public var side: Side
    /// The face, when known: showing (up, gone) or remembered (down).
    public var face: FaceKey?

    public init(side: Side, face: FaceKey?) {
        self.side = side
        self.face = face
    }
}

/// A board as a player knows it, card by card: what `TurnPlanner` decides on. An array of
/// `CardKnowledge` is one; the load client reads its own memory in place instead.
public protocol BoardKnowledge {
    var cardCount: Int { get }
    func knowledge(of card: Int) -> CardKnowledge
}

extension Array: BoardKnowledge where Element == CardKnowledge {
    public var cardCount: Int { count }
    public func knowledge(of card: Int) -> CardKnowledge { self[card] }
}
