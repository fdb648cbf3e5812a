@testable import PairsBots
import PairsRules
import Testing

/// A board as a player knows it, written card by card: `K♠` a known face-down card, `?` an unseen one,
/// `[K♠]` a card turned up this turn, `-K♠` a card matched (gone), `cat` and `[cat]` words.
private func board(_ cards: [String]) -> [CardKnowledge] {
    var numbers: [String: Int32] = [:]
    func key(_ text: String) -> FaceKey {
        let id = numbers[text] ?? Int32(numbers.count)
        numbers[text] = id
        return FaceKey(id: id, card: PlayingCard(face: text))
    }
    return cards.map { text in
        if text == "?" { return CardKnowledge(side: .down, face: nil) }
        if text.hasPrefix("[") { return CardKnowledge(side: .up, face: key(String(text.dropFirst().dropLast()))) }
        if text.hasPrefix("-") { return CardKnowledge(side: .gone, face: key(String(text.dropFirst()))) }
        return CardKnowledge(side: .down, face: key(text))
    }
}

private func rules(seats: SeatCount = .two, size: SetSize = .pair, deck: Deck = .cards, scoring: Scoring = .classic,
                   gameSeconds: Int = 0, againOnMatch: Bool = true) -> RuleSet {
    RuleSet(variant: Variant(seats: seats, setSize: size, deck: deck, scoring: scoring, gameSeconds: gameSeconds, peekMilliseconds: 0),
            pairs: 8, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: againOnMatch)
}

/// The card the planner picks on `cards`, with a fixed seed.
private func pick(_ cards: [String], _ rules: RuleSet, seed: UInt64 = 1) -> Int? {
    var generator = SplitMix64(seed: seed)
    return TurnPlanner(rules: rules).chooseCard(on: board(cards), using: &generator)
}

@Test("with playing cards, a known rank match comes before a known suit match, at the start of a turn and with a card up")
func rankBeforeSuit() {
    // 0 and 2 are both spades (a suit match, worth 1); 1 and 3 are both kings (a rank match, worth 4).
    #expect(pick(["3♠", "K♠", "7♠", "K♥", "?", "?"], rules()) == 1)
    // With the king of spades up, its rank partner, not a spade.
    #expect(pick(["3♠", "[K♠]", "7♠", "K♥", "?", "?"], rules()) == 3)
    // With the three of spades up and no other three known, a spade; the one whose rank has the fewest
    // copies left unseen (three sevens are gone), so a seven that might still pair by rank is kept.
    #expect(pick(["[3♠]", "7♠", "9♠", "?", "-7♥", "-7♦", "-7♣", "?"], rules()) == 1)
}

@Test("sets of three: a known triple is taken, cards up are completed, and a card up with one known partner explores")
func triples() {
    let words = rules(size: .triple, deck: .words)
    #expect(pick(["cat", "dog", "cat", "?", "cat", "dog"], words) == 0)
    #expect(pick(["[dog]", "dog", "cat", "?", "[dog]", "dog"], words) == 1)
    // Two known dogs of three: not a sure set yet, so an unseen card (3 or 5).
    for seed in UInt64(0)..<10 { #expect([3, 5].contains(pick(["[dog]", "dog", "cat", "?", "cat", "?"], words, seed: seed))) }
    let cards = rules(size: .triple)
    // Kings of three suits make a rank set; spades of three ranks a suit set: the kings first.
    #expect(pick(["2♠", "K♠", "9♠", "K♥", "?", "K♦"], cards) == 1)
}

@Test("Matchismo: a sure set is taken rather than an unseen card flipped in hope, unless the odds of a rank match pay for the set left to the opponent")
func matchismoWeighsTheCosts() {
    // A sure suit match (3♠ 7♠) and eight hearts of other ranks: of the 42 cards not seen, 30 would make a
    // rank match (16 points against 4), 6 a suit match, and 6 (diamonds and clubs A, Q, K) nothing.
    let position = ["3♠", "7♠", "2♥", "4♥", "5♥", "6♥", "8♥", "9♥", "10♥", "J♥"] + Array(repeating: "?", count: 10)
    let unseen = Set(10..<20)
    let passing = rules(scoring: .matchismo(.standard), againOnMatch: false)
    #expect(pick(position, passing).map(unseen.contains) == true)
    // When a match earns another turn, taking the suit match first costs nothing: it is taken.
    #expect(pick(position, rules(scoring: .matchismo(.standard), againOnMatch: true)) == 0)
    // A mismatch dear enough makes the gamble a bad one.
    let dear = rules(scoring: .matchismo(MatchismoCosts(flipCost: 1, mismatchPenalty: 100, matchBonus: 4)), againOnMatch: false)
    #expect(pick(position, dear) == 0)
    // Few known cards: a rank match is unlikely, and the sure set is taken.
    #expect(pick(["3♠", "7♠", "K♥", "?", "?", "?"], passing) == 0)
    // Classic scoring: every set is a point, and a sure one wins.
    #expect(pick(position, rules(againOnMatch: false)) == 0)
    // Words are all worth the same: a known pair is always taken.
    #expect(pick(["cat", "?", "cat", "?"], rules(deck: .words, scoring: .matchismo(.standard), againOnMatch: false)) == 0)
}

@Test("solo without a clock, playing cards: no set is taken while cards are unseen, and the last flip of a turn cannot make one")
func patientSolo() {
    let solo = rules(seats: .one)
    // A sure rank match is known, but two cards are unseen: explore one of them.
    for seed in UInt64(0)..<10 { #expect([2, 3].contains(pick(["K♠", "K♥", "?", "?"], solo, seed: seed))) }
    // The four of clubs is up: of the known cards, only 9♦ shares neither its rank nor its suit.
    #expect(pick(["[4♣]", "4♥", "9♣", "9♦", "?"], solo) == 3)
    // Against the clock, the sure match is taken at once.
    #expect(pick(["K♠", "K♥", "?", "?"], rules(seats: .one, gameSeconds: 60)) == 0)
}

@Test("once every card is known, the sets are chosen so that none is stranded, even when a rank match is there to take")
func planningTheEnd() {
    // Greedy play takes 5♠ 5♥ (a rank match) and strands K♠ and 9♥; K♠ 5♠ and 5♥ 9♥ clear the board.
    let cards = ["K♠", "5♠", "5♥", "9♥"]
    for seats in SeatCount.allCases {
        let first = pick(cards, rules(seats: seats))
        #expect(first == 0 || first == 2, "\(seats)")
    }
    #expect(pick(["[K♠]", "5♠", "5♥", "9♥"], rules()) == 1)
    #expect(pick(["K♠", "5♠", "[5♥]", "9♥"], rules()) == 3)
}

@Test("the partition search clears every deal that can be cleared, against a brute force, for pairs and triples",
      arguments: [(SetSize.pair, 12), (.pair, 16), (.triple, 12), (.triple, 15)])
func partitionFindsClearableBoards(size: SetSize, cardCount: Int) {
    var dice = SplitMix64(seed: 2026)
    var clearable = 0
    for _ in 0..<60 {
        var deck = PlayingCard.deck
        for index in stride(from: deck.count - 1, to: 0, by: -1) { deck.swapAt(index, dice.next(below: index + 1)) }
        let cards = Array(deck.prefix(cardCount))
        var search = SetPartition(cards: cards, size: size.rawValue)
        let covered = search.best(search.all) / SetPartition.cardWeight
        let possible = canClear(cards, size: size.rawValue)
        if possible { clearable += 1 }
        #expect(possible == (covered == cardCount), "\(cards.map(\.face))")
    }
    #expect(clearable > 0)
}

/// Whether `cards` split into sets of `size` (of one rank or one suit), by trying everything.
private func canClear(_ cards: [PlayingCard], size: Int) -> Bool {
    guard let first = cards.first else { return true }
    let rest = Array(cards.dropFirst())
    func matches(_ group: [PlayingCard]) -> Bool {
        group.allSatisfy { $0.rank == first.rank } || group.allSatisfy { $0.suit == first.suit }
    }
    for i in rest.indices {
        if size == 2 {
            guard matches([first, rest[i]]) else { continue }
            var left = rest
            left.remove(at: i)
            if canClear(left, size: size) { return true }
        } else {
            for j in rest.indices where j > i {
                guard matches([first, rest[i], rest[j]]) else { continue }
                var left = rest
                left.remove(at: j)
                left.remove(at: i)
                if canClear(left, size: size) { return true }
            }
        }
    }
    return false
}
