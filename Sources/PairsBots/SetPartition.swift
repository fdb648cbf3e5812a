import PairsRules

/// The best way to split playing cards whose faces are all known into sets: as many cards in sets as
/// possible, then the most value. For the end of a game of playing cards, when nothing is left to explore.
///
/// Why it matters: sets of playing cards overlap (a card can go with its rank or its suit), so taking
/// sets greedily can strand cards that no set takes any more. The game then ends `exhausted`, which a
/// solo player loses, and each stranded card is a set's value never earned.
///
/// A depth-first search over the cards still free, held as a bit mask (a deck has 52 cards, fewer than
/// 64), taking first the card with the fewest sets it could join (as exact-cover searches do), its sets
/// by value, and the choice of leaving it out last. Results are memoised per mask, and the search stops
/// after `nodeBudget` masks: what it found by then is the answer, never worse than the first greedy plan.
struct SetPartition {
    /// Masks searched at most per decision: enough to solve every board of 16 to 24 cards outright and to
    /// improve on greedy play for the full deck, small enough that a decision stays well under a
    /// millisecond (the load client makes thousands a second).
    static let nodeBudget = 2_000
    /// Score of one card in a set: any card placed outweighs every value (a set is worth at most
    /// `Deck.rankMatchValue`, and a board has at most 52 cards).
    static let cardWeight = 1_000

    private let cards: [PlayingCard]
    private let size: Int
    private var memo: [UInt64: Int] = [:]
    private var nodes = 0

    /// A search over `cards` for sets of `size`.
    init(cards: [PlayingCard], size: Int) {
        precondition(cards.count <= UInt64.bitWidth, "a deck has fewer cards than a mask has bits")
        self.cards = cards
        self.size = size
    }

    /// Every card, as a mask.
    var all: UInt64 { cards.count == UInt64.bitWidth ? .max : (1 << UInt64(cards.count)) - 1 }

    /// The set to take first in the best plan for `free`, with the plan's score; nil when no set can be made.
    mutating func bestFirstSet(of free: UInt64) -> (set: UInt64, score: Int)? {
        // Every set of a best plan would do; the one holding the card with the fewest options, unless the
        // plan leaves that card out.
        guard let card = mostConstrained(in: free) else { return nil }
        var best: (set: UInt64, score: Int)?
        for (set, value) in sets(containing: card, within: free) {
            let score = value + Self.cardWeight * size + self.best(free & ~set)
            if score > best?.score ?? .min { best = (set, score) }
        }
        let without = free & ~(1 << UInt64(card))
        if let best, best.score >= self.best(without) { return best }
        return bestFirstSet(of: without)
    }

    /// The score of the best plan for `free`, counting only sets of the cards in it.
    mutating func best(_ free: UInt64) -> Int {
        guard free != 0 else { return 0 }
        if let known = memo[free] { return known }
        guard nodes < Self.nodeBudget else { return 0 }
        nodes += 1
        var result = 0
        if let card = mostConstrained(in: free) {
            for (set, value) in sets(containing: card, within: free) {
                result = max(result, value + Self.cardWeight * size + best(free & ~set))
            }
            result = max(result, best(free & ~(1 << UInt64(card))))
        }
        memo[free] = result
        return result
    }

    /// The free card that can join the fewest sets, or nil when none is free. A card that can join none is
    /// chosen first: leaving it out is forced.
    private func mostConstrained(in free: UInt64) -> Int? {
        var ranks = SIMD16<Int16>(), suits = SIMD4<Int16>()
        for card in members(free) {
            ranks[cards[card].rank.rawValue] += 1
            suits[cards[card].suit.rawValue] += 1
        }
        var best: (card: Int, options: Int)?
        for card in members(free) {
            let options = Self.choose(Int(ranks[cards[card].rank.rawValue]) - 1, size - 1)
                + Self.choose(Int(suits[cards[card].suit.rawValue]) - 1, size - 1)
            if options < best?.options ?? .max { best = (card, options) }
        }
        return best?.card
    }

    /// Every set of free cards containing `card`, as a mask and its value: rank sets first, since they are
    /// worth more and the first plans found are the ones the budget keeps.
    private func sets(containing card: Int, within free: UInt64) -> [(set: UInt64, value: Int)] {
        let mine = cards[card]
        let bit = UInt64(1) << UInt64(card)
        let others = members(free & ~bit)
        var result: [(set: UInt64, value: Int)] = []
        for (sameRank, value) in [(true, Deck.rankMatchValue), (false, Deck.suitMatchValue)] {
            let mates = others.filter { sameRank ? cards[$0].rank == mine.rank : cards[$0].suit == mine.suit }
            if size == 2 {
                for mate in mates { result.append((bit | 1 << UInt64(mate), value)) }
            } else {
                for (offset, first) in mates.enumerated() {
                    for second in mates[(offset + 1)...] { result.append((bit | 1 << UInt64(first) | 1 << UInt64(second), value)) }
                }
            }
        }
        return result
    }

    /// The cards of `mask`, lowest first.
    private func members(_ mask: UInt64) -> [Int] {
        var rest = mask, result: [Int] = []
        while rest != 0 {
            result.append(rest.trailingZeroBitCount)
            rest &= rest - 1
        }
        return result
    }

    /// Ways to choose `k` of `n`, for k of 1 or 2 (sets of two or three); 0 when n < k.
    private static func choose(_ n: Int, _ k: Int) -> Int {
        guard n >= k else { return 0 }
        return k == 1 ? n : n * (n - 1) / 2
    }
}
