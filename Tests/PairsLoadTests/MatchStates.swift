import PairsRules
import PairsWire

/// States of seeded matches played with the real rules (PairsRules.Match), as the server would send them:
/// every event kind, card side and phase, boards from 2 to 32 pairs, with and without request ids.
///
/// Moves are those of a player with a good memory and the occasional slip, plus turn timeouts (three in a
/// row forfeit), dropped and resumed connections, players leaving mid-game, and rematches.
func matchStates(minimumStates: Int, seed: UInt64) throws -> [StateMessage] {
    var dice = SplitMix64(seed: seed)
    func roll(_ bound: Int) -> Int { dice.next(below: bound) }
    var all: [StateMessage] = []
    var round = 0
    while all.count < minimumStates {
        defer { round += 1 }
        let pairs = round == 0 ? GameOptions.pairsRange.upperBound : 2 + roll(31)
        let options = GameOptions(pairs: pairs, turnSeconds: roll(3), revealMilliseconds: [0, 300][roll(2)],
                                  againOnMatch: roll(2) == 0)
        var match = Match(options: options, graceMilliseconds: 2000, seed: dice.next())
        var clock: Int64 = 0
        var states: [PublicState] = []
        func join() throws {
            // One name a JSON writer must escape, one outside ASCII: the scanner steps over both.
            let name = match.freeSeat == .first ? "Zoë \"the\" first" : "P2"
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
        for state in states {
            all.append(StateMessage(room: "room-\(round)", spectators: roll(3), state: state, id: requestID(state.seq)))
        }
    }
    return all
}

/// None, a number (sometimes negative or huge) or a string, in turn.
private func requestID(_ seq: Int) -> RequestID? {
    switch seq % 5 {
    case 0: nil
    case 1: .integer(Int64(seq))
    case 2: .integer(seq % 2 == 0 ? Int64.max - Int64(seq) : Int64.min + Int64(seq))
    case 3: .string("m\(seq)")
    default: .integer(-Int64(seq))
    }
}

/// Collected once: the games are deterministic, and several tests read them.
let playedStates: [StateMessage] = try! matchStates(minimumStates: 2500, seed: 2026)
