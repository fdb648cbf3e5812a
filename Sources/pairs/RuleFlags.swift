import PairsRules
import PairsWire

/// The flags that choose a room's rules, the same for `pairs play`, `pairs bot`, `pairs load` (the rooms they
/// create) and `pairs serve` (the rules of rooms whose creator chooses none): one parser from the command
/// line to the `RuleChoices` a `join` carries.
enum RuleFlags {
    /// The flags that take a value.
    static let names: Set<String> = [
        "seats", "match", "deck", "scoring", "flip-cost", "mismatch-penalty", "match-bonus", "game-seconds",
        "peek-ms", "pairs", "turn-seconds", "reveal-ms", "again-on-match",
    ]
    /// The flags that take none.
    static let switches: Set<String> = ["solo"]

    /// Their lines in a command's usage, under `heading`.
    static func usage(heading: String) -> String {
        """
        \(heading)
          --solo                  one player against the board (same as --seats 1)
          --seats N               1 (solo) or 2 players (default 2)
          --match N               cards per set, turned per turn: 2 or 3 (default 2)
          --deck DECK             words (sets of identical words) or cards (a 52-card deck: a set is one
                                  rank, worth 4, or one suit, worth 1) (default words)
          --scoring SCORING       classic (a point per set) or matchismo (flips cost, mismatches cost more,
                                  matches earn a bonus times their value) (default classic)
          --flip-cost N           matchismo: points a flip costs (0-100, default 1)
          --mismatch-penalty N    matchismo: points a mismatch costs (0-100, default 2)
          --match-bonus N         matchismo: a match earns N times its value (0-100, default 4)
          --game-seconds N        a clock for the whole game, 0 for none (0-3600, default 0)
          --peek-ms N             show every face this long before play (0-10000, default 0)
          --pairs N               sets on the board (2-32 pairs, 2-21 triples, 52 cards at most)
          --turn-seconds N        seconds per turn, 0 for no clock (0-3600)
          --reveal-ms N           milliseconds a mismatch stays face up (0-60000)
          --again-on-match BOOL   a match earns another turn (true or false)
        """
    }
}

extension Flags {
    /// The rules chosen on the command line; nothing chosen is left to the server. A combination no
    /// server can play (31 triples, say) is refused here already.
    func ruleChoices() throws(UsageError) -> RuleChoices {
        var choices = RuleChoices()
        if isSet("solo") {
            guard string("seats").map({ $0 == "1" }) ?? true else { throw UsageError("--solo and --seats 2 contradict each other") }
            choices.seats = .one
        }
        if let seats = try integer("seats", in: 1...2) { choices.seats = SeatCount(rawValue: seats) }
        choices.setSize = try integer("match", in: 2...3).flatMap(SetSize.init(rawValue:))
        choices.deck = try named("deck", of: Deck.self)
        choices.scoring = try named("scoring", of: Scoring.Kind.self)
        choices.flipCost = try integer("flip-cost", in: MatchismoCosts.range)
        choices.mismatchPenalty = try integer("mismatch-penalty", in: MatchismoCosts.range)
        choices.matchBonus = try integer("match-bonus", in: MatchismoCosts.range)
        if choices.scoring != .matchismo, choices.flipCost != nil || choices.mismatchPenalty != nil || choices.matchBonus != nil {
            throw UsageError("--flip-cost, --mismatch-penalty and --match-bonus go with --scoring matchismo")
        }
        choices.gameSeconds = try integer("game-seconds", in: Variant.gameSecondsRange)
        choices.peekMilliseconds = try integer("peek-ms", in: Variant.peekMillisecondsRange)
        choices.pairs = try integer("pairs", in: RuleSet.pairsLimits)
        choices.turnSeconds = try integer("turn-seconds", in: RuleSet.turnSecondsRange)
        choices.revealMilliseconds = try integer("reveal-ms", in: RuleSet.revealMillisecondsRange)
        choices.againOnMatch = try bool("again-on-match")
        // The ranges that depend on other rules, against the standard rules: a server's own defaults can
        // only narrow them further, and the server has the last word.
        do {
            _ = try choices.rules(over: .standard)
        } catch {
            let flag = String(error.field.map { $0 == "_" ? "-" : $0 })
            throw UsageError("\(error) (--\(flag))")
        }
        return choices
    }

    /// A flag whose value must be one of the wire names of `type`.
    private func named<Value: WireNamed>(_ name: String, of type: Value.Type) throws(UsageError) -> Value? {
        guard let text = string(name) else { return nil }
        guard let value = Value(wireName: text) else {
            throw UsageError("--\(name) must be \(Value.wireNames.joined(separator: " or ")), not '\(text)'")
        }
        return value
    }
}
