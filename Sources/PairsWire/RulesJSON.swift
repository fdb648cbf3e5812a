import PairsRules

/// A room's rules as the JSON object protocol.md's "Rules and variants" describes: every rule, so a client
/// never guesses. Written only for rooms whose variant is not the classic game's, so that a client that
/// never asks for variants sees exactly what it always saw.
enum RulesJSON {
    /// Whether messages about a room of `rules` carry them.
    static func isSent(_ rules: RuleSet) -> Bool { rules.variant != .classic }

    /// Writes the rules object (Matchismo's constants are written whatever the scoring, at their standard
    /// values when the room scores classically, since they then play no part).
    static func write(_ rules: RuleSet, to w: inout JSONWriter) {
        let variant = rules.variant
        var costs = MatchismoCosts.standard
        if case .matchismo(let chosen) = variant.scoring { costs = chosen }
        w.beginObject()
        w.key("seats"); w.integer(variant.seats.rawValue)
        w.key("match"); w.integer(variant.setSize.rawValue)
        w.key("deck"); w.string(variant.deck.wireName)
        w.key("scoring"); w.string(variant.scoring.kind.wireName)
        w.key("flip_cost"); w.integer(costs.flipCost)
        w.key("mismatch_penalty"); w.integer(costs.mismatchPenalty)
        w.key("match_bonus"); w.integer(costs.matchBonus)
        w.key("game_seconds"); w.integer(variant.gameSeconds)
        w.key("peek_ms"); w.integer(variant.peekMilliseconds)
        w.key("pairs"); w.integer(rules.pairs)
        w.key("turn_seconds"); w.integer(rules.turnSeconds)
        w.key("reveal_ms"); w.integer(rules.revealMilliseconds)
        w.key("again_on_match"); w.bool(rules.againOnMatch)
        w.endObject()
    }

    /// The rules object's bytes for a room that sends them, else nil: what the state fast path copies into
    /// every state of a change.
    static func bytesIfSent(_ rules: RuleSet) -> [UInt8]? {
        guard isSent(rules) else { return nil }
        var writer = JSONWriter(capacity: 320)
        write(rules, to: &writer)
        return writer.bytes
    }
}

extension RuleSet {
    /// The rules as messages carry them: themselves when they are sent (`RulesJSON.isSent`), else nil. A
    /// message about a classic room holds no rules, as it has none on the wire, so a message reads back
    /// as itself.
    public var ifSent: RuleSet? { RulesJSON.isSent(self) ? self : nil }
}
