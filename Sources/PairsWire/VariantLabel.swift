import PairsRules

/// A variant's name as a metric's label: its seats, set size, deck and kind of scoring, and nothing that
/// takes free values (clocks, peek, Matchismo's costs), so there are at most 16 of them however rooms
/// are set up (Prometheus keeps one series per label value).
public enum VariantLabel {
    /// `solo-pairs-words-classic`, `duel-triples-cards-matchismo`, ...
    public static func of(_ variant: Variant) -> String {
        let seats = variant.seats == .one ? "solo" : "duel"
        let sets = variant.setSize == .pair ? "pairs" : "triples"
        return "\(seats)-\(sets)-\(variant.deck.wireName)-\(variant.scoring.kind.wireName)"
    }
}
