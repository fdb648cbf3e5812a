@testable import PairsRules

/// A clock for tests: moments are plain milliseconds.
func at(_ milliseconds: Int64) -> Moment { Moment(milliseconds: milliseconds) }

/// Options with no clock and no reveal unless a test asks for them.
func options(
    pairs: Int = 4, turnSeconds: Int = 0, revealMilliseconds: Int = 0, againOnMatch: Bool = true
) -> RuleSet {
    RuleSet(pairs: pairs, turnSeconds: turnSeconds, revealMilliseconds: revealMilliseconds, againOnMatch: againOnMatch)
}

/// A match with both seats taken ("ann" in seat 0, "bob" in seat 1) and the first game started.
func startedMatch(_ options: RuleSet = options(), grace: Int64 = 60_000, seed: UInt64 = 7) throws -> Match {
    var match = Match(rules: options, graceMilliseconds: grace, seed: seed)
    _ = try match.join(name: "ann", at: at(0))
    _ = try match.join(name: "bob", at: at(0))
    return match
}

extension Match {
    /// The face of every card, read from inside the rules (tests only: faces never leave this way).
    var faces: [String] { cards.map(\.face.text) }

    /// Two face-down cards with the same face.
    var knownPair: CardSet {
        let down = cards.indices.filter { cards[$0].status == .down }
        for first in down {
            if let second = down.first(where: { $0 != first && cards[$0].face == cards[first].face }) {
                return [first, second]
            }
        }
        fatalError("no face-down pair left")
    }

    /// Two face-down cards with different faces.
    var knownMismatch: CardSet {
        let down = cards.indices.filter { cards[$0].status == .down }
        let first = down[0]
        return [first, down.first { cards[$0].face != cards[first].face }!]
    }
}
