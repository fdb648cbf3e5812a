@testable import PairsRules
import PairsTestSupport
import PairsWire
import Testing

/// Plays seeded random games to the end, with random legal and illegal moves, timeouts, disconnects and
/// rematches, and checks the invariants of every state along the way: a thousand under
/// `PAIRS_TEST_DEPTH=deep`, and by default a hundred, enough that every board size and every kind of event
/// a classic game has still come up (checked at the end).
@Test("random classic games, a thousand at depth, keep every invariant, scores count the pairs taken, and all of them end")
func randomGamesKeepInvariants() throws {
    var dice = SplitMix64(seed: 2026)
    var gamesFinished = 0
    let games = TestDepth.pick(quick: 100, deep: 1000)
    // What the games went through, to show the quick depth still covers it.
    var boardSizes = Set<Int>()
    var kinds = Set<EventKind>()
    // Collected rather than expected one by one: a million #expect calls would dominate the run time.
    var violations: [String] = []
    for round in 0..<games {
        let pairs = 2 + dice.next(below: 15)
        let turnSeconds = dice.next(below: 3)
        let reveal = [0, 0, 500][dice.next(below: 3)]
        let again = dice.next(below: 2) == 0
        let opts = RuleSet(pairs: pairs, turnSeconds: turnSeconds, revealMilliseconds: reveal, againOnMatch: again)
        boardSizes.insert(pairs)
        var match = Match(rules: opts, graceMilliseconds: 3000, seed: UInt64(round))
        var clock: Int64 = 0
        var lastSeq = 0
        var states: [PublicState] = []
        _ = try match.join(name: "ann", at: at(clock)).states
        states += try match.join(name: "bob", at: at(clock)).states

        var steps = 0
        // A game ends with a state that has an outcome: the board cleared, or a forfeit (after which a
        // player who stayed away has also lost the seat, so the phase may already be back to waiting).
        // Only the states added since the last look are searched: the game's whole history each step made
        // this test quadratic in the game's length.
        var searched = 0
        func hasEnded() -> Bool {
            defer { searched = states.count }
            return states[searched...].contains { $0.outcome != nil }
        }
        while !hasEnded() {
            steps += 1
            if steps >= 10_000 { violations.append("game \(round) never ended"); break }
            clock += Int64(dice.next(below: 400))
            states += match.advance(to: at(clock))
            guard match.phase == .playing, let seat = match.turn else {
                if let deadline = match.nextDeadline { clock = max(clock, deadline.milliseconds) }
                continue
            }
            switch dice.next(below: 40) {
            case 0:
                // Someone drops and usually comes back.
                let who = Seat(index: dice.next(below: 2))!
                states += try match.disconnect(seat: who, at: at(clock))
                if dice.next(below: 4) != 0, match.playerName(in: who) != nil {
                    states += try match.reconnect(seat: who, at: at(clock + 100))
                }
            case 1:
                // The wrong seat or an illegal card: refused, nothing changes.
                let before = match.currentState(at: at(clock))
                _ = try? match.flip(card: dice.next(below: 80) - 8, by: seat.opponent, at: at(clock))
                if match.currentState(at: at(clock)) != before { violations.append("game \(round): a refused flip changed the state") }
            case 2, 3:
                break // think long enough for the clock to matter
            default:
                let view = match.currentState(at: at(clock))!
                let down = view.cards.indices.filter { view.cards[$0] == .down }
                states += try match.flip(card: down[dice.next(below: down.count)], by: seat, at: at(clock))
            }
        }
        if states.contains(where: { $0.outcome != nil }) { gamesFinished += 1 }
        kinds.formUnion(states.map { EventKind($0.event) })

        for state in states {
            if state.seq <= lastSeq { violations.append("game \(round): seq \(state.seq) after \(lastSeq)") }
            lastSeq = state.seq
            violations += hiddenFaceViolations(state, in: match)
            let matchedBy = Seat.allCases.map { seat in
                state.cards.filter { if case .matched(_, seat) = $0 { true } else { false } }.count / 2
            }
            if state.players.allSatisfy({ $0 != nil }), state.players.map({ $0!.score }) != matchedBy {
                violations.append("game \(round): scores \(state.players.map { $0!.score }) for pairs \(matchedBy)")
            }
        }
    }
    #expect(violations.isEmpty, "\(violations.prefix(10))")
    #expect(gamesFinished == games)
    #expect(boardSizes == Set(2...16))
    #expect(kinds == [.join, .start, .flip, .match, .mismatch, .hide, .over, .timeout, .forfeit, .leave, .disconnect, .reconnect])
}

/// A face shown for a card must be that card's real face: the public state never invents or leaks one,
/// and a card that is down in the rules is `.down` in the view (which has no face to carry).
private func hiddenFaceViolations(_ state: PublicState, in match: Match) -> [String] {
    guard state.game == match.game else { return [] }
    let faces = match.faces
    return state.cards.indices.compactMap { index in
        switch state.cards[index] {
        case .down: nil
        case .up(let face), .matched(let face, _):
            face == faces[index] ? nil : "game \(state.game) card \(index) shows \(face)"
        }
    }
}
