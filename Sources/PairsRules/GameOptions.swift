/// The options a room's games are played with, chosen by whoever creates the room.
public struct GameOptions: Sendable, Hashable {
    /// Boards smaller than 2 pairs have no decision to make; 32 pairs (64 cards) is as many distinct faces as
    /// `Faces` has and as many as fit a terminal.
    public static let pairsRange: ClosedRange<Int> = 2...32
    /// A turn of an hour is as good as no clock; anything longer is a typo.
    public static let turnSecondsRange: ClosedRange<Int> = 0...3600
    /// A reveal longer than a minute would stall every game it happens in.
    public static let revealMillisecondsRange: ClosedRange<Int> = 0...60_000

    /// Number of pairs on the board; the board has twice as many cards.
    public var pairs: Int
    /// Seconds a player has for a turn; 0 turns the clock off.
    public var turnSeconds: Int
    /// Milliseconds a mismatched pair stays face up before it turns back down.
    public var revealMilliseconds: Int
    /// Whether a match earns the player another turn (true) or passes the turn (false).
    public var againOnMatch: Bool

    /// The classic game: 8 pairs on a 4x4 board, 30 seconds a turn, a one-second reveal, a match moves again.
    public static let standard = GameOptions(pairs: 8, turnSeconds: 30, revealMilliseconds: 1000, againOnMatch: true)

    /// Options as given; `validate()` checks them against their ranges.
    public init(pairs: Int, turnSeconds: Int, revealMilliseconds: Int, againOnMatch: Bool) {
        self.pairs = pairs
        self.turnSeconds = turnSeconds
        self.revealMilliseconds = revealMilliseconds
        self.againOnMatch = againOnMatch
    }

    /// The first option outside its range, if any.
    public func validate() throws(OptionError) {
        guard Self.pairsRange.contains(pairs) else { throw .pairsOutOfRange(pairs) }
        guard Self.turnSecondsRange.contains(turnSeconds) else { throw .turnSecondsOutOfRange(turnSeconds) }
        guard Self.revealMillisecondsRange.contains(revealMilliseconds) else {
            throw .revealMillisecondsOutOfRange(revealMilliseconds)
        }
    }

    /// The layout of a board with these options.
    public var layout: BoardLayout { BoardLayout(cardCount: pairs * 2) }
}

/// An option outside its allowed range.
public enum OptionError: Error, Sendable, Equatable, CustomStringConvertible {
    case pairsOutOfRange(Int)
    case turnSecondsOutOfRange(Int)
    case revealMillisecondsOutOfRange(Int)

    public var description: String {
        switch self {
        case .pairsOutOfRange(let value):
            "pairs must be \(GameOptions.pairsRange.lowerBound)...\(GameOptions.pairsRange.upperBound), not \(value)"
        case .turnSecondsOutOfRange(let value):
            "turn_seconds must be \(GameOptions.turnSecondsRange.lowerBound)...\(GameOptions.turnSecondsRange.upperBound), not \(value)"
        case .revealMillisecondsOutOfRange(let value):
            "reveal_ms must be \(GameOptions.revealMillisecondsRange.lowerBound)...\(GameOptions.revealMillisecondsRange.upperBound), not \(value)"
        }
    }
}
