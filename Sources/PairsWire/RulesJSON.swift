import PairsRules

/// A room's rules as the JSON object protocol.md's "Rules and variants" describes: every rule, so a client
/// never guesses. Written only for rooms whose variant is not the classic game's, so that a client that
/// never asks for variants sees exactly what it always saw.
public enum RulesJSON {
    /// Whether messages about a room of `rules` carry them.
    static func isSent(_ rules: RuleSet) -> Bool { rules.variant != .classic }

    /// Writes the rules object (Matchismo's constants are written whatever the scoring, at their standard
    /// values when the room scores classically, since they then play no part).
    static func write(_ rules: RuleSet, to w: inout JSONWriter) {
        w.beginObject()
        writeFields(of: rules.variant, to: &w)
        w.key("pairs"); w.integer(rules.pairs)
        w.key("turn_seconds"); w.integer(rules.turnSeconds)
        w.key("reveal_ms"); w.integer(rules.revealMilliseconds)
        w.key("again_on_match"); w.bool(rules.againOnMatch)
        w.endObject()
    }

    /// A variant alone as a rules object, for what is kept per variant (the ladders): the fields of
    /// `write(_:to:)` without the board's.
    static func write(_ variant: Variant, to w: inout JSONWriter) {
        w.beginObject()
        writeFields(of: variant, to: &w)
        w.endObject()
    }

    private static func writeFields(of variant: Variant, to w: inout JSONWriter) {
        var costs = MatchismoCosts.standard
        if case .matchismo(let chosen) = variant.scoring { costs = chosen }
        w.key("seats"); w.integer(variant.seats.rawValue)
        w.key("match"); w.integer(variant.setSize.rawValue)
        w.key("deck"); w.string(variant.deck.wireName)
        w.key("scoring"); w.string(variant.scoring.kind.wireName)
        w.key("flip_cost"); w.integer(costs.flipCost)
        w.key("mismatch_penalty"); w.integer(costs.mismatchPenalty)
        w.key("match_bonus"); w.integer(costs.matchBonus)
        w.key("game_seconds"); w.integer(variant.gameSeconds)
        w.key("peek_ms"); w.integer(variant.peekMilliseconds)
    }

    /// The name of a variant's ladder where finished games are kept: its rules object, compact. One
    /// spelling per variant, so the ladders of equal variants are one, and it reads back
    /// (`variant(ofLadder:)`) for answers that show a ladder's rules.
    public static func ladder(of variant: Variant) -> String {
        var writer = JSONWriter(capacity: 200)
        write(variant, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The variant whose ladder is `ladder`, or nil for a name no variant has.
    public static func variant(ofLadder ladder: String) -> Variant? {
        guard let object = try? JSONParser.parse(Array(ladder.utf8)).objectValue,
              let choices = try? RequestDecoder.ruleChoices(in: object),
              let rules = try? choices.rules(over: .standard) else { return nil }
        return rules.variant
    }

    /// A room's whole rules as the JSON text kept with each finished game.
    public static func text(of rules: RuleSet) -> String {
        var writer = JSONWriter(capacity: 320)
        write(rules, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
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
