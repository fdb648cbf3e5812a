import PairsBots
import PairsClient
import PairsRules
import PairsTestSupport
import Testing

/// Every variant the tests know, on boards small enough to play many games: no turn clock, no reveal, and
/// a few rule sets besides (a match that passes the turn, solo boards of playing cards with no clock).
private let variantRules: [RuleSet] = everyVariantForTests.map { variant in
    RuleSet(variant: variant, pairs: variant.setSize == .triple ? 5 : 6, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true)
} + [
    RuleSet(variant: Variant(seats: .two, setSize: .pair, deck: .cards, scoring: .matchismo(.standard), gameSeconds: 0, peekMilliseconds: 0),
            pairs: 10, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: false),
    RuleSet(variant: Variant(seats: .one, setSize: .pair, deck: .cards, scoring: .classic, gameSeconds: 0, peekMilliseconds: 0),
            pairs: 8, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true),
    RuleSet(variant: Variant(seats: .one, setSize: .triple, deck: .words, scoring: .matchismo(.standard), gameSeconds: 0, peekMilliseconds: 1000),
            pairs: 4, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true),
]

/// How a series went for one bot.
private struct Tally: CustomStringConvertible {
    var games = 0
    var wins = 0
    var points = 0

    init(_ records: [GameRecord]) {
        games = records.count
        wins = records.count { $0.result == .won }
        points = records.reduce(0) { $0 + $1.score }
    }

    var description: String { "\(wins) won of \(games), \(points) points" }
}

/// A solo player's series (at a manual clock that makes a game clock bite: every request takes 0.2 s).
private func soloSeries(_ rules: RuleSet, strategy: StrategyKind, games: Int, seed: UInt64) -> BotTable {
    var table = BotTable(games: games, strategies: [strategy], rules: rules, seed: seed)
    table.millisecondsPerRequest = 200
    _ = table.run(maxSteps: 200_000)
    return table
}

@Test("bots finish every game of every variant against the real rules and never make a move the rules refuse",
      arguments: variantRules)
func botsFinishEveryVariant(rules: RuleSet) {
    let lineups: [[StrategyKind]] = rules.variant.seats == .one ? [[.memory], [.random]] : [[.memory, .random], [.memory, .memory]]
    for strategies in lineups {
        var table = BotTable(games: 8, strategies: strategies, rules: rules, seed: 7)
        let steps = table.run(maxSteps: 300_000)
        #expect(steps < 300_000, "\(strategies) never went quiet")
        #expect(table.finished.allSatisfy { $0 == .done }, "\(strategies): \(table.finished)")
        #expect(table.refusedFlips == [], "\(strategies)")
        for records in table.records { #expect(records.count == 8) }
        if rules.variant.seats == .one {
            for record in table.records[0] {
                #expect(record.solo != nil)
                #expect((record.result == .won) == (record.solo == .cleared), "\(record)")
            }
        } else {
            for (mine, theirs) in zip(table.records[0], table.records[1]) {
                #expect(mine.score == theirs.opponentScore && mine.game == theirs.game)
                // With classic scoring a point is a set, and the sets taken are at most the board's.
                if rules.variant.scoring == .classic { #expect(mine.score + mine.opponentScore <= rules.pairs) }
            }
        }
    }
}

@Test("a memory bot does better than a random one in every variant: more games won, or as many and more points",
      arguments: variantRules)
func memoryBeatsRandomInEveryVariant(rules: RuleSet) {
    let games = 24
    let memory: Tally, random: Tally
    if rules.variant.seats == .one {
        memory = Tally(soloSeries(rules, strategy: .memory, games: games, seed: 3).records[0])
        random = Tally(soloSeries(rules, strategy: .random, games: games, seed: 3).records[0])
    } else {
        var table = BotTable(games: games, strategies: [.memory, .random], rules: rules, seed: 3)
        _ = table.run(maxSteps: 1_000_000)
        memory = Tally(table.records[0])
        random = Tally(table.records[1])
    }
    #expect(memory.games == games && random.games == games)
    #expect(memory.wins > random.wins || (memory.wins == random.wins && memory.points > random.points),
            "memory: \(memory); random: \(random)")
}

@Test("a solo bot's line says it cleared the board, or that time was up, with its points")
func soloLines() throws {
    let cleared = RuleSet(variant: Variant(seats: .one, setSize: .pair, deck: .words, scoring: .classic, gameSeconds: 0, peekMilliseconds: 0),
                          pairs: 4, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true)
    let won = try #require(soloSeries(cleared, strategy: .memory, games: 2, seed: 1).records[0].first)
    #expect(won.description == "game 1: bot0 cleared the board, 4 points (won)")

    var clocked = cleared
    clocked.variant.gameSeconds = 1
    clocked.pairs = 8
    // Five requests a second on a board of 16 cards: the clock runs out first.
    let lost = try #require(soloSeries(clocked, strategy: .random, games: 1, seed: 1).records[0].first)
    #expect(lost.solo == .timeUp && lost.result == .lost)
    #expect(lost.description.hasPrefix("game 1: bot0 did not clear the board, time's up, "))
    #expect(lost.description.hasSuffix(" (lost)"))
}
