/// A rule outside its allowed range, named as the protocol names it, with the range it must be in.
public enum RuleError: Error, Sendable, Equatable, CustomStringConvertible {
    case pairsOutOfRange(Int, allowed: ClosedRange<Int>, variant: Variant)
    case turnSecondsOutOfRange(Int)
    case revealMillisecondsOutOfRange(Int)
    case gameSecondsOutOfRange(Int)
    case peekMillisecondsOutOfRange(Int)
    case matchismoCostOutOfRange(field: MatchismoCosts.Field, value: Int)

    /// The protocol's name of the field that is out of range.
    public var field: String {
        switch self {
        case .pairsOutOfRange: "pairs"
        case .turnSecondsOutOfRange: "turn_seconds"
        case .revealMillisecondsOutOfRange: "reveal_ms"
        case .gameSecondsOutOfRange: "game_seconds"
        case .peekMillisecondsOutOfRange: "peek_ms"
        case .matchismoCostOutOfRange(let field, _): field.rawValue
        }
    }

    public var description: String {
        switch self {
        case .pairsOutOfRange(let value, let allowed, let variant):
            let board = variant.deck == .cards
                ? "with \(variant.setSize.rawValue) cards a set from a deck of \(PlayingCard.deckSize)"
                : "with \(variant.setSize.rawValue) cards a set"
            return "pairs must be \(allowed.lowerBound)...\(allowed.upperBound) \(board), not \(value)"
        case .turnSecondsOutOfRange(let value):
            return Self.range("turn_seconds", RuleSet.turnSecondsRange, value)
        case .revealMillisecondsOutOfRange(let value):
            return Self.range("reveal_ms", RuleSet.revealMillisecondsRange, value)
        case .gameSecondsOutOfRange(let value):
            return Self.range("game_seconds", Variant.gameSecondsRange, value)
        case .peekMillisecondsOutOfRange(let value):
            return Self.range("peek_ms", Variant.peekMillisecondsRange, value)
        case .matchismoCostOutOfRange(let field, let value):
            return Self.range(field.rawValue, MatchismoCosts.range, value)
        }
    }

    private static func range(_ field: String, _ range: ClosedRange<Int>, _ value: Int) -> String {
        "\(field) must be \(range.lowerBound)...\(range.upperBound), not \(value)"
    }
}
