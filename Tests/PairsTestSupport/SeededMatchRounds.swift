import PairsRules

/// The public states of seeded matches played with the real rules, round by round (one match a round),
/// until at least `minimumStates` were produced: what several test targets push through the wire.
///
/// Moves are those of a player with a good memory and the occasional slip, plus turn timeouts (three in a
/// row forfeit), dropped and resumed connections, players leaving mid-game, and rematches, so every event
/// kind, card side and phase appears. The first match is on the largest board; the rest from 2 to 32 pairs.
/// `names` are the players' names: a test that searches the encoded bytes picks names that cannot be
/// mistaken for anything it searches for.
public func seededMatchRounds(
    minimumStates: Int, seed: UInt64, names: (first: String, second: String) = ("P1", "P2")
) throws -> [[PublicState]] {
    var dice = SplitMix64(seed: seed)
    func roll(_ bound: Int) -> Int { dice.next(below: bound) }
    var rounds: [[PublicState]] = []
    var round = 0
    while rounds.reduce(0, { $0 + $1.count }) < minimumStates {
        defer { round += 1 }
        let pairs = round == 0 ? GameOptions.pairsRange.upperBound : 2 + roll(31)
        let options = GameOptions(pairs: pairs, turnSeconds: roll(3), revealMilliseconds: [0, 300][roll(2)],
                                  againOnMatch: roll(2) == 0)
        var match = Match(options: options, graceMilliseconds: 2000, seed: dice.next())
        var clock: Int64 = 0
        var states: [PublicState] = []
        func join() throws {
            let name = match.freeSeat == .first ? names.first : names.second
            states += try match.join(name: name, at: Moment(milliseconds: clock)).states
        }
        try join()
        try join()
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
                    for seat in Seat.allCases.shuffled(using: &dice) {
                        states += try match.requestRematch(by: seat, at: now)
                    }
                }
                continue
            case .reveal:
                if let deadline = match.nextDeadline { clock = max(clock, deadline.milliseconds) }
                continue
            case .playing:
                break
            }
            guard let seat = match.turn, let view = match.currentState(at: now) else { continue }
            switch roll(60) {
            case 0:
                let who = Seat.allCases[roll(2)]
                states += try match.disconnect(seat: who, at: now)
                if roll(3) != 0, match.playerName(in: who) != nil {
                    states += try match.reconnect(seat: who, at: now.adding(milliseconds: 50))
                }
                continue
            case 1:
                states += try match.leave(seat: Seat.allCases[roll(2)], at: now)
                continue
            case 2, 3, 4:
                // Dawdle: with a turn clock, a timeout; three in a row forfeit.
                clock += 3000
                continue
            default:
                break
            }
            let down = view.cards.indices.filter { view.cards[$0] == .down }
            let up = view.cards.indices.first { if case .up = view.cards[$0] { true } else { false } }
            var choice: Int?
            if roll(5) != 0 {
                if let up, let face = seen[up] {
                    choice = down.first { $0 != up && seen[$0] == face }
                } else {
                    choice = down.first { index in
                        guard let face = seen[index] else { return false }
                        return down.contains { $0 != index && seen[$0] == face }
                    }
                }
            }
            let card = choice ?? down.first { seen[$0] == nil } ?? down[roll(down.count)]
            states += try match.flip(card: card, by: seat, at: now)
        }
        rounds.append(states)
    }
    return rounds
}
