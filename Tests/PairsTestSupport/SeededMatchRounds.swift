import PairsRules

/// One seeded match played with the real rules: the rules it was played by, and every state it produced.
public struct SeededRound: Sendable {
    public let rules: RuleSet
    public let states: [PublicState]
}

/// The variants a test can ask `seededMatchRounds` to cycle through: the classic game and every way the
/// rules can differ from it, alone and together.
public let everyVariantForTests: [Variant] = [
    .classic,
    Variant(seats: .one, setSize: .pair, deck: .words, scoring: .classic, gameSeconds: 20, peekMilliseconds: 0),
    Variant(seats: .two, setSize: .triple, deck: .words, scoring: .classic, gameSeconds: 0, peekMilliseconds: 0),
    Variant(seats: .two, setSize: .pair, deck: .cards, scoring: .classic, gameSeconds: 0, peekMilliseconds: 0),
    Variant(seats: .two, setSize: .triple, deck: .cards, scoring: .matchismo(.standard), gameSeconds: 0, peekMilliseconds: 0),
    Variant(seats: .two, setSize: .pair, deck: .words, scoring: .matchismo(MatchismoCosts(flipCost: 3, mismatchPenalty: 0, matchBonus: 7)),
            gameSeconds: 15, peekMilliseconds: 500),
    Variant(seats: .one, setSize: .triple, deck: .cards, scoring: .matchismo(.standard), gameSeconds: 30, peekMilliseconds: 250),
]

/// The public states of seeded matches played with the real rules, round by round (one match a round, its
/// variant taken in turn from `variants`), until at least `minimumStates` were produced: what several test
/// targets push through the wire.
///
/// Moves are those of a player with a good memory and the occasional slip, plus turn timeouts (three in a
/// row forfeit), dropped and resumed connections, players leaving mid-game, game clocks running out, and
/// rematches, so every event kind, card side and phase appears. The first match is on the largest board
/// its variant allows; the rest on boards of any size their variant allows. `names` are the players' names: a test that searches
/// the encoded bytes picks names that cannot be mistaken for anything it searches for.
public func seededMatchRounds(
    minimumStates: Int, seed: UInt64, names: (first: String, second: String) = ("P1", "P2"),
    variants: [Variant] = [.classic]
) throws -> [SeededRound] {
    var dice = SplitMix64(seed: seed)
    func roll(_ bound: Int) -> Int { dice.next(below: bound) }
    var rounds: [SeededRound] = []
    var round = 0
    while rounds.reduce(0, { $0 + $1.states.count }) < minimumStates {
        defer { round += 1 }
        var rules = RuleSet(variant: variants[round % variants.count], pairs: 2, turnSeconds: roll(3),
                            revealMilliseconds: [0, 300][roll(2)], againOnMatch: roll(2) == 0)
        let sizes = rules.pairsRange
        rules.pairs = round == 0 ? sizes.upperBound : sizes.lowerBound + roll(sizes.count)
        var match = Match(rules: rules, graceMilliseconds: 2000, seed: dice.next())
        var clock: Int64 = 0
        var states: [PublicState] = []
        func join() throws {
            let name = match.freeSeat == .first ? names.first : names.second
            states += try match.join(name: name, at: Moment(milliseconds: clock)).states
        }
        for _ in match.seats { try join() }
        var seen: [Int: String] = [:]
        var seenGame = -1
        var remembered = 0
        var gamesOver = 0
        var steps = 0
        while gamesOver < 2, steps < 1500 {
            steps += 1
            for state in states[remembered...] {
                if state.game != seenGame {
                    seenGame = state.game
                    seen = [:]
                }
                for (index, card) in state.cards.enumerated() {
                    if case .up(let face) = card { seen[index] = face }
                }
            }
            remembered = states.count
            clock += Int64(roll(300))
            states += match.advance(to: Moment(milliseconds: clock))
            let now = Moment(milliseconds: clock)
            switch match.phase {
            case .waiting:
                try join()
                continue
            case .over:
                gamesOver += 1
                if gamesOver < 2 {
                    for seat in match.seats.shuffled(using: &dice) {
                        states += try match.requestRematch(by: seat, at: now)
                    }
                }
                continue
            case .peek, .reveal:
                if let deadline = match.nextDeadline { clock = max(clock, deadline.milliseconds) }
                continue
            case .playing:
                break
            }
            guard let seat = match.turn, let view = match.currentState(at: now) else { continue }
            switch roll(60) {
            case 0:
                let who = match.seats[roll(match.seats.count)]
                states += try match.disconnect(seat: who, at: now)
                if roll(3) != 0, match.playerName(in: who) != nil {
                    states += try match.reconnect(seat: who, at: now.adding(milliseconds: 50))
                }
                continue
            case 1:
                states += try match.leave(seat: match.seats[roll(match.seats.count)], at: now)
                continue
            case 2, 3, 4:
                // Dawdle: with a turn clock, a timeout; three in a row forfeit.
                clock += 3000
                continue
            default:
                break
            }
            let down = view.cards.indices.filter { view.cards[$0] == .down }
            let up = view.cards.indices.filter { if case .up = view.cards[$0] { true } else { false } }
            var choice: Int?
            if roll(5) != 0 {
                // A card that would complete a set with the ones up, or start one known to be complete.
                choice = down.first { candidate in
                    guard let face = seen[candidate] else { return false }
                    if up.isEmpty {
                        return down.filter { $0 != candidate && seen[$0].map { matches([face, $0], in: rules) } == true }.count
                            >= rules.variant.setSize.rawValue - 1
                    }
                    return matches(up.compactMap { seen[$0] } + [face], in: rules)
                }
            }
            let card = choice ?? down.first { seen[$0] == nil } ?? down[roll(down.count)]
            states += try match.flip(card: card, by: seat, at: now)
        }
        rounds.append(SeededRound(rules: rules, states: states))
    }
    return rounds
}

/// Whether `faces` could belong to one set under `rules`: identical words, or playing cards of one rank
/// or one suit. (A test-side reading of the rules, for choosing moves; the rules themselves decide.)
private func matches(_ faces: [String], in rules: RuleSet) -> Bool {
    guard let first = faces.first else { return false }
    switch rules.variant.deck {
    case .words:
        return faces.allSatisfy { $0 == first }
    case .cards:
        let cards = faces.compactMap(PlayingCard.init(face:))
        guard cards.count == faces.count, let card = cards.first else { return false }
        return cards.allSatisfy { $0.rank == card.rank } || cards.allSatisfy { $0.suit == card.suit }
    }
}
