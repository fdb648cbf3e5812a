import PairsBots
import PairsClient
import PairsRules
import Testing

@Test("memory keeps every face seen in any state and forgets them when the game number changes")
func memoryIsPerGame() {
    var memory = GameMemory()
    memory.observe(makeState(cards: [.up(face: "cat"), .down, .down, .down]))
    memory.observe(makeState(cards: [.down, .matched(face: "dog", by: .second), .down, .up(face: "ant")]))
    #expect(memory.face(of: 0) == "cat")
    #expect(memory.face(of: 1) == "dog")
    #expect(memory.face(of: 3) == "ant")
    #expect(memory.face(of: 2) == nil)
    memory.observe(makeState(game: 2, cards: [.down, .down, .down, .down]))
    #expect(memory.faces.isEmpty)
    #expect(memory.game == 2)
}

@Test("the memory strategy takes a known pair before exploring")
func memoryTakesKnownPair() {
    var memory = GameMemory()
    memory.observe(makeState(cards: [.down, .up(face: "cat"), .down, .down, .down, .down]))
    memory.observe(makeState(cards: [.down, .down, .down, .down, .up(face: "cat"), .down]))
    let state = makeState(cards: Array(repeating: .down, count: 6))
    var generator = SplitMix64(seed: 1)
    #expect(MemoryStrategy().chooseCard(in: state, rules: nil, memory: memory, using: &generator) == 1)
}

@Test("with one card up, the memory strategy flips its partner when it has seen it")
func memoryFlipsKnownPartner() {
    var memory = GameMemory()
    memory.observe(makeState(cards: [.down, .down, .up(face: "dog"), .down, .down, .down]))
    let state = makeState(cards: [.down, .down, .down, .down, .up(face: "dog"), .down])
    memory.observe(state)
    var generator = SplitMix64(seed: 1)
    #expect(MemoryStrategy().chooseCard(in: state, rules: nil, memory: memory, using: &generator) == 2)
}

@Test("without a known pair or partner, the memory strategy flips a card it has never seen", arguments: 0..<20)
func memoryExploresUnseenCards(seed: UInt64) {
    var memory = GameMemory()
    memory.observe(makeState(cards: [.up(face: "ant"), .up(face: "bee"), .down, .down, .matched(face: "cow", by: .first), .matched(face: "cow", by: .first)]))
    let firstFlip = makeState(cards: [.down, .down, .down, .down, .matched(face: "cow", by: .first), .matched(face: "cow", by: .first)])
    var generator = SplitMix64(seed: seed)
    let first = MemoryStrategy().chooseCard(in: firstFlip, rules: nil, memory: memory, using: &generator)
    #expect(first == 2 || first == 3)
    // One card up whose partner is unknown: still explore, never turn a card known to differ.
    let secondFlip = makeState(cards: [.down, .down, .up(face: "elk"), .down, .matched(face: "cow", by: .first), .matched(face: "cow", by: .first)])
    memory.observe(secondFlip)
    #expect(MemoryStrategy().chooseCard(in: secondFlip, rules: nil, memory: memory, using: &generator) == 3)
}

@Test("the random strategy only ever picks a face-down card, and nothing when none is left", arguments: 0..<20)
func randomPicksFaceDownCards(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    let state = makeState(cards: [.matched(face: "a", by: .first), .down, .up(face: "b"), .down, .matched(face: "a", by: .first), .down])
    let card = RandomStrategy().chooseCard(in: state, rules: nil, memory: GameMemory(), using: &generator)
    #expect(card.map { [1, 3, 5].contains($0) } == true)
    let cleared = makeState(cards: [.matched(face: "a", by: .first), .matched(face: "a", by: .first)])
    #expect(RandomStrategy().chooseCard(in: cleared, rules: nil, memory: GameMemory(), using: &generator) == nil)
    #expect(MemoryStrategy().chooseCard(in: cleared, rules: nil, memory: GameMemory(), using: &generator) == nil)
}

@Test("strategies are chosen by the names the command line uses")
func strategiesByName() {
    #expect(StrategyKind(rawValue: "memory")?.makeStrategy() is MemoryStrategy)
    #expect(StrategyKind(rawValue: "random")?.makeStrategy() is RandomStrategy)
    #expect(StrategyKind(rawValue: "psychic") == nil)
}
