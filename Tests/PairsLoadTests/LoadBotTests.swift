import PairsBots
import PairsClient
@testable import PairsLoad
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

// Every state is scanned and remembered by both sides. Under PAIRS_TEST_DEPTH=deep both choose a card on every
// state of play; by default on every third, still in every variant (checked below): the memory strategy's
// planner searches the ways to split a board into sets, the costliest code in the suite in a debug build.
// Both sides skip the same states, so their random generators stay in step.
@Test("LoadBot picks exactly the card PairsClient's strategy picks, state after state of games of every variant, with the same seed",
      arguments: StrategyKind.allCases)
func sameChoicesAsPairsClient(strategy kind: StrategyKind) {
    let decideEvery = TestDepth.pick(quick: 3, deep: 1)
    var statesOfPlay = 0
    let strategy = kind.makeStrategy()
    var memory = GameMemory()
    var reference = SplitMix64(seed: 99)
    var bot = LoadBot(strategy: kind)
    var generator = SplitMix64(seed: 99)
    var scanner = StateScanner()
    var scanned = ScannedState()
    var decisions = 0
    var variants = Set<Variant>()
    // Collected rather than expected one by one: thousands of #expect calls would dominate the run time.
    var failures: [String] = []
    for message in playedStates {
        let line = ServerMessageEncoder.encode(.state(message)).dropLast()
        let ok = line.withUnsafeBytes { scanner.scan($0, into: &scanned) }
        if !ok { failures.append("seq \(message.state.seq) of game \(message.state.game): the scanner declined it") }
        memory.observe(message.state)
        // The room's rules reach the load client in `joined`, and the rounds are rooms of their own.
        if bot.rules != message.rules { bot.play(by: message.rules) }
        bot.observe(scanned)
        guard message.state.phase == .playing else { continue }
        statesOfPlay += 1
        guard statesOfPlay % decideEvery == 0 else { continue }
        let expected = strategy.chooseCard(in: message.state, rules: message.rules, memory: memory, using: &reference)
        let chosen = bot.chooseCard(in: scanned, table: scanner.faces, using: &generator)
        if chosen != expected {
            failures.append("seq \(message.state.seq) of game \(message.state.game): \(String(describing: chosen)), not \(String(describing: expected))")
        }
        decisions += 1
        variants.insert(message.rules?.variant ?? .classic)
    }
    #expect(failures.isEmpty, "\(failures.count) differences, the first: \(failures.prefix(5))")
    #expect(decisions > TestDepth.pick(quick: 500, deep: 1000))
    #expect(variants == Set(everyVariantForTests))
}

@Test("A memory bot takes a pair it has seen, and the partner of a card turned up")
func memoryBotUsesItsMemory() {
    var scanner = StateScanner()
    var bot = LoadBot(strategy: .memory)
    var generator = SplitMix64(seed: 1)
    func state(_ cards: [String], game: Int = 1) -> ScannedState {
        let body = cards.map { $0 == "down" ? #"{"state":"down"}"# : #"{"state":"up","face":"\#($0)"}"# }
            .joined(separator: ",")
        let line = #"{"type":"state","game":\#(game),"seq":1,"phase":"playing","turn":0,"cards":[\#(body)],"event":{"kind":"flip"}}"#
        var scanned = ScannedState()
        let ok = Array(line.utf8).withUnsafeBytes { scanner.scan($0, into: &scanned) }
        precondition(ok)
        return scanned
    }
    // Seen: 0 ape, 1 ant (a mismatch), then 2 ape: its partner is 0.
    bot.observe(state(["ape", "ant", "down", "down"]))
    #expect(bot.chooseCard(in: state(["down", "down", "ape", "down"]), table: scanner.faces, using: &generator) == 0)
    // With nothing up, 3 ant and the remembered 1 ant make a known pair: flip 1 first.
    bot.observe(state(["down", "down", "down", "ant"]))
    #expect(bot.chooseCard(in: state(["down", "down", "down", "down"]), table: scanner.faces, using: &generator) == 1)
    // A new game forgets everything: only unseen cards, so any of them.
    bot.observe(state(["down", "down", "down", "down"], game: 2))
    #expect(bot.chooseCard(in: state(["down", "down", "down", "down"], game: 2), table: scanner.faces, using: &generator) != nil)
}
