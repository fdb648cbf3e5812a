@testable import PairsRules
import PairsTestSupport
import PairsWire
import Testing

/// Every variant the rules play: the classic game and each way a room can differ from it, alone and together.
private let variants: [Variant] = [
    .classic,
    Variant(seats: .one, setSize: .pair, deck: .words, scoring: .classic, gameSeconds: 0, peekMilliseconds: 0),
    Variant(seats: .one, setSize: .triple, deck: .words, scoring: .classic, gameSeconds: 8, peekMilliseconds: 300),
    Variant(seats: .two, setSize: .triple, deck: .words, scoring: .classic, gameSeconds: 0, peekMilliseconds: 0),
    Variant(seats: .two, setSize: .pair, deck: .cards, scoring: .classic, gameSeconds: 0, peekMilliseconds: 0),
    Variant(seats: .two, setSize: .triple, deck: .cards, scoring: .matchismo(.standard), gameSeconds: 0, peekMilliseconds: 0),
    Variant(seats: .two, setSize: .pair, deck: .cards, scoring: .matchismo(MatchismoCosts(flipCost: 3, mismatchPenalty: 0, matchBonus: 7)),
            gameSeconds: 12, peekMilliseconds: 0),
    Variant(seats: .one, setSize: .triple, deck: .cards, scoring: .matchismo(.standard), gameSeconds: 15, peekMilliseconds: 500),
]

/// What a game's events say each seat's score must be, kept as the events come: the Matchismo cost of
/// every flip as it turns, and the rest of a turn's points when the turn resolves.
private struct ScoreLedger {
    var scores: [Int]
    /// Flips of the turn in progress, per seat, already charged.
    var pending: [Int]

    init(seats: Int) {
        scores = Array(repeating: 0, count: seats)
        pending = Array(repeating: 0, count: seats)
    }
}

/// Plays games of every variant with random legal and illegal moves, timeouts, disconnects, leaves and
/// rematches, and checks each state against what the rules promise: scores are the sum of the turns' points;
/// a set's value follows its deck; a game ends only by a cleared board, no set left, the game clock at
/// exactly its time, or a forfeit; a face-down card shows nothing (except during a peek, which shows all).
/// Three hundred games a variant under `PAIRS_TEST_DEPTH=deep`; by default a hundred, still enough that the
/// kinds of event each variant's rules give come up (checked at the end).
@Test("random games of every variant, thousands at depth, keep every invariant, and all of them end",
      arguments: variants.indices)
func randomVariantGamesKeepInvariants(variantIndex: Int) throws {
    let variant = variants[variantIndex]
    var dice = SplitMix64(seed: 4000 + UInt64(variantIndex))
    // Collected rather than expected one by one: a million #expect calls would dominate the run time.
    var violations: [String] = []
    var gamesEnded = 0
    let games = TestDepth.pick(quick: 100, deep: 300)
    var kinds = Set<EventKind>()
    for round in 0..<games {
        var rules = RuleSet(variant: variant, pairs: 2, turnSeconds: dice.next(below: 3),
                            revealMilliseconds: [0, 0, 400][dice.next(below: 3)], againOnMatch: dice.next(below: 2) == 0)
        rules.pairs = rules.pairsRange.lowerBound + dice.next(below: min(10, rules.pairsRange.count))
        var match = Match(rules: rules, graceMilliseconds: 3000, seed: UInt64(round) &* 7919)
        var audit = GameAudit(rules: rules)
        var clock: Int64 = 0
        func record(_ states: [PublicState]) {
            for state in states {
                audit.check(state, match: match)
                kinds.insert(EventKind(state.event))
            }
        }
        for seat in match.seats { record(try match.join(name: "p\(seat.index)", at: at(clock)).states) }
        var steps = 0
        while !audit.ended {
            steps += 1
            if steps >= 20_000 { violations.append("game \(round) never ended"); break }
            clock += Int64(dice.next(below: 300))
            record(match.advance(to: at(clock)))
            guard !audit.ended else { break }
            guard match.phase == .playing, let seat = match.turn else {
                if match.phase == .waiting {
                    if let free = match.freeSeat { record(try match.join(name: "p\(free.index)", at: at(clock)).states) }
                } else if let deadline = match.nextDeadline {
                    clock = max(clock, deadline.milliseconds)
                }
                continue
            }
            switch dice.next(below: 50) {
            case 0:
                let who = match.seats[dice.next(below: match.seats.count)]
                record(try match.disconnect(seat: who, at: at(clock)))
                if dice.next(below: 4) != 0, match.playerName(in: who) != nil {
                    clock += 100
                    record(match.advance(to: at(clock)))
                    if match.playerName(in: who) != nil { record(try match.reconnect(seat: who, at: at(clock))) }
                }
            case 1:
                // An illegal flip: the other seat, or (alone at the board) a card off it. Refused, nothing changes.
                let before = match.currentState(at: at(clock))
                if match.seats.count == 2 {
                    _ = try? match.flip(card: dice.next(below: 80) - 8, by: seat.opponent, at: at(clock))
                } else {
                    _ = try? match.flip(card: [-1, rules.cardCount, rules.cardCount + 7][dice.next(below: 3)], by: seat, at: at(clock))
                }
                if match.currentState(at: at(clock)) != before { violations.append("game \(round): a refused flip changed the state") }
            case 2:
                if dice.next(below: 3) == 0 { record(try match.leave(seat: seat, at: at(clock))) }
            case 3, 4:
                break // think long enough for the clocks to matter
            default:
                let view = match.currentState(at: at(clock))!
                let down = view.cards.indices.filter { view.cards[$0] == .down }
                record(try match.flip(card: down[dice.next(below: down.count)], by: seat, at: at(clock)))
            }
        }
        if audit.ended { gamesEnded += 1 }
        violations += audit.violations.map { "game \(round): \($0)" }
    }
    #expect(violations.isEmpty, "\(violations.prefix(10))")
    #expect(gamesEnded == games)
    // The kinds of event every variant reaches at either depth, and those its rules add. (Random play rarely
    // clears a board of playing cards in sets of three, so at the quick depth those games end by running out
    // of sets; pairs of playing cards can always be matched, by rank or by suit.)
    var reached: Set<EventKind> = [.join, .start, .flip, .match, .mismatch, .hide, .forfeit, .leave, .disconnect, .reconnect]
    reached.insert(variant.deck == .cards && variant.setSize == .triple ? .exhausted : .over)
    if variant.peekMilliseconds > 0 { reached.insert(.peek) }
    if variant.gameSeconds > 0 { reached.insert(.timeUp) }
    #expect(kinds.isSuperset(of: reached), "missing \(reached.subtracting(kinds).map(\.wireName).sorted())")
}

/// Checks one game's states as they come, against the rules and against the match that made them.
private struct GameAudit {
    let rules: RuleSet
    var ledger: ScoreLedger
    var violations: [String] = []
    var ended = false
    var lastSeq = 0
    /// The game clock in the latest state that had one running: it only ever goes down within a game.
    var lastGameLeft: Int?

    init(rules: RuleSet) {
        self.rules = rules
        ledger = ScoreLedger(seats: rules.variant.seats.rawValue)
    }

    private var costs: MatchismoCosts? {
        if case .matchismo(let costs) = rules.variant.scoring { costs } else { nil }
    }

    mutating func check(_ state: PublicState, match: Match) {
        func violation(_ text: String) { violations.append("seq \(state.seq) \(state.event): \(text)") }
        if state.seq != lastSeq + 1 { violation("seq after \(lastSeq)") }
        lastSeq = state.seq
        if state.players.count != rules.variant.seats.rawValue { violation("\(state.players.count) players") }
        if state.series.wins.count != rules.variant.seats.rawValue { violation("a series of \(state.series.wins.count)") }
        let faces = match.faces
        // Hidden information: what is shown is the real face, and face-down cards are shown only in a peek.
        if state.game == match.game {
            for (index, card) in state.cards.enumerated() {
                switch card {
                case .down:
                    if state.phase == .peek { violation("card \(index) down during the peek") }
                case .up(let face), .matched(let face, _):
                    if face != faces[index] { violation("card \(index) shows \(face), not \(faces[index])") }
                }
            }
        }
        let flipCost = costs?.flipCost ?? 0
        switch state.event {
        case .peek, .start:
            ledger = ScoreLedger(seats: rules.variant.seats.rawValue)
            if case .start = state.event {
                lastGameLeft = nil
                if rules.variant.gameSeconds > 0, state.gameMillisecondsLeft != rules.variant.gameSeconds * 1000 {
                    violation("the game clock starts at \(String(describing: state.gameMillisecondsLeft))")
                }
            }
        case .flip(let seat, _):
            ledger.scores[seat.index] -= flipCost
            ledger.pending[seat.index] += 1
        case .match(let seat, let cards, let points), .over(let seat, let cards, let points):
            checkSet(cards, points: points, matched: true, state: state, violation: violation)
            ledger.scores[seat.index] += points + flipCost * ledger.pending[seat.index]
            ledger.pending[seat.index] = 0
            if case .over = state.event, state.cards.contains(where: { if case .matched = $0 { false } else { true } }) {
                violation("over with cards left")
            }
        case .mismatch(let seat, let cards, let points):
            checkSet(cards, points: points, matched: false, state: state, violation: violation)
            ledger.scores[seat.index] += points + flipCost * ledger.pending[seat.index]
            ledger.pending[seat.index] = 0
        case .timeout(let seat, let hidden):
            if hidden.count != ledger.pending[seat.index] { violation("timeout hid \(hidden.count) of \(ledger.pending[seat.index]) flips") }
            ledger.pending[seat.index] = 0
        case .exhausted:
            if match.game == state.game, match.setsRemain { violation("exhausted with a set left") }
            if rules.variant.deck == .words { violation("words ran out of sets") }
        case .timeUp:
            // When exactly is the clocks' tests' to check, on a manual clock.
            if rules.variant.gameSeconds == 0 { violation("time up without a game clock") }
        case .forfeit, .leave, .hide, .join, .disconnect, .reconnect, .rematch:
            break
        }
        for (index, player) in state.players.enumerated() {
            if let player, player.score != ledger.scores[index] {
                violation("seat \(index) scores \(player.score), the turns add up to \(ledger.scores[index])")
            }
        }
        if let left = state.gameMillisecondsLeft {
            if rules.variant.gameSeconds == 0 { violation("a game clock without game_seconds") }
            if let last = lastGameLeft, left > last { violation("the game clock went up from \(last) to \(left)") }
            lastGameLeft = left
        }
        if state.event.endsGame {
            ended = true
            checkOutcome(state, violation: violation)
        }
    }

    /// A set's points follow its deck: a match is worth its value (4 for a rank, 1 for a suit or a word) times
    /// the bonus, a mismatch costs the penalty, both less the flips; classic scoring gives a point a match.
    private func checkSet(_ cards: CardSet, points: Int, matched: Bool, state: PublicState, violation: (String) -> Void) {
        if cards.count != rules.variant.setSize.rawValue { violation("a set of \(cards.count)") }
        let faces: [String] = cards.compactMap { index in
            switch state.cards[index] {
            case .up(let face), .matched(let face, _): face
            case .down: nil
            }
        }
        guard faces.count == cards.count else { return violation("a set with a card face down") }
        let value: Int?
        switch rules.variant.deck {
        case .words:
            value = Set(faces).count == 1 ? 1 : nil
        case .cards:
            let played = faces.compactMap(PlayingCard.init(face:))
            if Set(played.map(\.rank)).count == 1 { value = 4 } else if Set(played.map(\.suit)).count == 1 { value = 1 } else { value = nil }
        }
        if (value != nil) != matched { violation("\(faces) \(matched ? "matched" : "mismatched")") }
        let expected: Int
        switch rules.variant.scoring {
        case .classic: expected = matched ? 1 : 0
        case .matchismo(let costs):
            expected = -costs.flipCost * cards.count + (matched ? costs.matchBonus * (value ?? 0) : -costs.mismatchPenalty)
        }
        if points != expected { violation("\(faces) scored \(points), not \(expected)") }
    }

    /// A solo player wins only by clearing the board; two players go by score unless one forfeited.
    private func checkOutcome(_ state: PublicState, violation: (String) -> Void) {
        guard let outcome = state.outcome else { return violation("a game ended without an outcome") }
        let cleared = !state.cards.contains { if case .matched = $0 { false } else { true } }
        if rules.variant.seats == .one {
            switch outcome {
            case .win: if !cleared { violation("a solo win without a cleared board") }
            case .loss: if cleared { violation("a solo loss with the board cleared") }
            case .draw: violation("a solo draw")
            }
            return
        }
        if case .forfeit(let seat, _) = state.event {
            if outcome != .win(seat.opponent) { violation("a forfeit by \(seat) gave \(outcome)") }
            return
        }
        let scores = state.players.map { $0?.score ?? 0 }
        let expected: Outcome = scores[0] == scores[1] ? .draw : .win(scores[0] > scores[1] ? .first : .second)
        if outcome != expected { violation("scores \(scores) gave \(outcome)") }
    }
}
