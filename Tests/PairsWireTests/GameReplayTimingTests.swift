import PairsRules
import PairsWire
import Testing

/// A finished game between ann and bob, by `rules`, with their final `scores`.
private func summary(rules: RuleSet, scores: [Int], winner: Seat, flips: Int) -> FinishedGameSummary {
    FinishedGameSummary(
        game: 1, room: "replayed", rules: rules,
        players: zip(["ann", "bob"], scores).map { FinishedPlayer(name: $0, claimed: false, score: $1) },
        winner: winner, end: .cleared, started: "2026-11-23T12:00:00Z", ended: "2026-11-23T12:00:06Z", flips: flips, rated: false)
}

@Test("a replay's states come at their moments: moves at theirs, a reveal's end and a timeout when their clocks ran out")
func replayedStatesHaveTheirMoments() throws {
    let rules = RuleSet(pairs: 2, turnSeconds: 5, revealMilliseconds: 300, againOnMatch: true)
    let game = summary(rules: rules, scores: [2, 0], winner: .first, flips: 6)
    let moves = [
        ReplayMove(milliseconds: 100, seat: .first, action: .flip(card: 0)),
        ReplayMove(milliseconds: 200, seat: .first, action: .flip(card: 1)), // a mismatch: hidden 300 ms later
        ReplayMove(milliseconds: 5500, seat: .second, action: .timeout), // bob's clock ran out: the rules do it
        ReplayMove(milliseconds: 6000, seat: .first, action: .flip(card: 0)),
        ReplayMove(milliseconds: 6100, seat: .first, action: .flip(card: 2)),
        ReplayMove(milliseconds: 6200, seat: .first, action: .flip(card: 1)),
        ReplayMove(milliseconds: 6300, seat: .first, action: .flip(card: 3)),
    ]
    let replay = GameReplay(summary: game, deal: ["ape", "ant", "ape", "ant"], moves: moves)
    let timed = try replay.timedStates()
    #expect(try replay.states() == timed.map(\.state))
    #expect(zip(timed, timed.dropFirst()).allSatisfy { $0.moment <= $1.moment }, "moments never go back")
    func moment(of matches: (GameEvent) -> Bool) -> Int64? {
        timed.first { matches($0.state.event) }?.moment.milliseconds
    }
    #expect(moment { if case .mismatch = $0 { true } else { false } } == 200)
    #expect(moment { if case .hide = $0 { true } else { false } } == 500)
    // Bob's turn began when the reveal ended; his five seconds ran out then.
    #expect(moment { if case .timeout = $0 { true } else { false } } == 5500)
    #expect(moment { if case .over = $0 { true } else { false } } == 6300)
    #expect(timed.last?.state.phase == .over)
    #expect(timed.last?.state.players.map { $0?.score } == [2, 0])
}

@Test("a replay of a rematch, which the second seat started, plays again with the second seat on turn first")
func replayOfARematchStartsWithItsStarter() throws {
    let rules = RuleSet(pairs: 2, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true)
    let game = summary(rules: rules, scores: [0, 2], winner: .second, flips: 4)
    // Bob's connection dropped and came back before he started: the starter is the first to play.
    let moves = [ReplayMove(milliseconds: 10, seat: .second, action: .disconnect), ReplayMove(milliseconds: 20, seat: .second, action: .reconnect)]
        + (0..<4).map { ReplayMove(milliseconds: 100 + Int64($0), seat: .second, action: .flip(card: $0)) }
    let states = try GameReplay(summary: game, deal: ["ape", "ape", "ant", "ant"], moves: moves).states()
    #expect(states.first { if case .start = $0.event { true } else { false } }?.turn == .second)
    #expect(states.last?.outcome == .win(.second))
    #expect(states.last?.players.map { $0?.score } == [0, 2])
}
