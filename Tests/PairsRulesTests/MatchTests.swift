@testable import PairsRules
import Testing

@Suite("A match")
struct MatchTests {
    @Test("starts when the second player sits down, with seat 0 on turn")
    func startsWithSecondPlayer() throws {
        var match = Match(rules: options(), graceMilliseconds: 1000, seed: 1)
        let first = try match.join(name: "ann", at: at(0))
        #expect(first.seat == .first)
        #expect(first.states.map(\.event) == [.join(.first)])
        #expect(match.phase == .waiting)

        let second = try match.join(name: "bob", at: at(5))
        #expect(second.seat == .second)
        #expect(second.states.map(\.event) == [.join(.second), .start(turn: .first)])
        #expect(match.phase == .playing)
        #expect(match.turn == .first)
        #expect(match.game == 1)
        #expect(second.states.last?.players.map { $0?.name } == ["ann", "bob"])
    }

    @Test("refuses a third player")
    func refusesThirdPlayer() throws {
        var match = try startedMatch()
        #expect(throws: MoveError.roomFull) { try match.join(name: "cy", at: at(1)) }
    }

    @Test("deals the same board for the same seed and a different one for another seed")
    func seedsDecideTheBoard() throws {
        let one = try startedMatch(options(pairs: 8), seed: 99)
        let again = try startedMatch(options(pairs: 8), seed: 99)
        let other = try startedMatch(options(pairs: 8), seed: 100)
        #expect(one.faces == again.faces)
        #expect(one.faces != other.faces)
        #expect(one.faces.count == 16)
        #expect(Dictionary(grouping: one.faces, by: { $0 }).values.allSatisfy { $0.count == 2 })
    }

    @Test("a first flip shows the card's face to everyone and keeps the turn")
    func firstFlipShowsFace() throws {
        var match = try startedMatch()
        let states = try match.flip(card: 2, by: .first, at: at(10))
        #expect(states.count == 1)
        #expect(states[0].event == .flip(.first, card: 2))
        #expect(states[0].cards[2] == .up(face: match.faces[2]))
        #expect(states[0].turn == .first)
    }

    @Test("a match scores, leaves the pair matched and moves again")
    func matchScoresAndMovesAgain() throws {
        var match = try startedMatch()
        let pair = match.knownPair
        _ = try match.flip(card: pair[0], by: .first, at: at(1))
        let states = try match.flip(card: pair[1], by: .first, at: at(2))
        #expect(states.map(\.event) == [.match(.first, cards: pair, points: 1)])
        #expect(states[0].cards[pair[0]] == .matched(face: match.faces[pair[0]], by: .first))
        #expect(states[0].players[0]?.score == 1)
        #expect(states[0].turn == .first)
    }

    @Test("a match passes the turn when again_on_match is off")
    func matchPassesTurnWhenAgainIsOff() throws {
        var match = try startedMatch(options(againOnMatch: false))
        let pair = match.knownPair
        _ = try match.flip(card: pair[0], by: .first, at: at(1))
        let states = try match.flip(card: pair[1], by: .first, at: at(2))
        #expect(states.last?.turn == .second)
    }

    @Test("a mismatch shows both faces for the reveal, then hides them and passes the turn")
    func mismatchRevealsThenHides() throws {
        var match = try startedMatch(options(revealMilliseconds: 1000))
        let pair = match.knownMismatch
        _ = try match.flip(card: pair[0], by: .first, at: at(100))
        let shown = try match.flip(card: pair[1], by: .first, at: at(200))
        #expect(shown.map(\.event) == [.mismatch(.first, cards: pair, points: 0)])
        #expect(shown[0].phase == .reveal)
        #expect(shown[0].cards[pair[0]] == .up(face: match.faces[pair[0]]))
        #expect(shown[0].cards[pair[1]] == .up(face: match.faces[pair[1]]))
        #expect(match.nextDeadline == at(1200))

        #expect(throws: MoveError.notPlaying(.reveal)) { try match.flip(card: 0, by: .first, at: at(300)) }
        #expect(match.advance(to: at(1199)).isEmpty)

        let hidden = match.advance(to: at(1200))
        #expect(hidden.map(\.event) == [.hide(cards: pair)])
        #expect(hidden[0].phase == .playing)
        #expect(hidden[0].turn == .second)
        #expect(hidden[0].cards[pair[0]] == .down)
        #expect(hidden[0].cards[pair[1]] == .down)
    }

    @Test("a zero reveal still emits the state with both faces before hiding them")
    func zeroRevealEmitsBothStates() throws {
        var match = try startedMatch(options(revealMilliseconds: 0))
        let pair = match.knownMismatch
        _ = try match.flip(card: pair[0], by: .first, at: at(1))
        let states = try match.flip(card: pair[1], by: .first, at: at(2))
        #expect(states.map(\.event) == [.mismatch(.first, cards: pair, points: 0), .hide(cards: pair)])
        #expect(states[0].cards[pair[1]] == .up(face: match.faces[pair[1]]))
        #expect(states[1].cards[pair[1]] == .down)
        #expect(states[1].turn == .second)
    }

    @Test("refuses illegal flips with a reason and changes nothing", arguments: [
        (Seat.second, 0, MoveError.notYourTurn),
        (Seat.first, -1, MoveError.cardOutOfRange(card: -1, cardCount: 8)),
        (Seat.first, 8, MoveError.cardOutOfRange(card: 8, cardCount: 8)),
    ])
    func refusesIllegalFlips(seat: Seat, card: Int, error: MoveError) throws {
        var match = try startedMatch()
        let before = match.currentState(at: at(0))
        #expect(throws: error) { try match.flip(card: card, by: seat, at: at(0)) }
        #expect(match.currentState(at: at(0)) == before)
    }

    @Test("refuses to flip a card that is already up or matched")
    func refusesFaceUpCards() throws {
        var match = try startedMatch()
        let pair = match.knownPair
        _ = try match.flip(card: pair[0], by: .first, at: at(1))
        #expect(throws: MoveError.cardNotFaceDown(card: pair[0])) {
            try match.flip(card: pair[0], by: .first, at: at(2))
        }
        _ = try match.flip(card: pair[1], by: .first, at: at(3))
        #expect(throws: MoveError.cardNotFaceDown(card: pair[1])) {
            try match.flip(card: pair[1], by: .first, at: at(4))
        }
    }

    @Test("refuses flips while waiting for an opponent")
    func refusesFlipsWhileWaiting() throws {
        var match = Match(rules: options(), graceMilliseconds: 0, seed: 1)
        _ = try match.join(name: "ann", at: at(0))
        #expect(throws: MoveError.notPlaying(.waiting)) { try match.flip(card: 0, by: .first, at: at(1)) }
    }

    @Test("ends when the last pair is matched, with the higher score winning")
    func endsWhenBoardIsCleared() throws {
        var match = try startedMatch(options(pairs: 2))
        var last: [PublicState] = []
        for _ in 0..<2 {
            let pair = match.knownPair
            _ = try match.flip(card: pair[0], by: .first, at: at(1))
            last = try match.flip(card: pair[1], by: .first, at: at(2))
        }
        #expect(last.count == 1)
        guard case .over(.first, _, _) = last[0].event else { Issue.record("expected over, got \(last[0].event)"); return }
        #expect(last[0].phase == .over)
        #expect(last[0].outcome == .win(.first))
        #expect(last[0].turn == nil)
        #expect(last[0].series == SeriesTally(wins: [1, 0], draws: 0))
        #expect(last[0].downFaces == [], "a cleared board has no face never found")
        #expect(throws: MoveError.notPlaying(.over)) { try match.flip(card: 0, by: .first, at: at(3)) }
    }

    @Test("equal scores are a draw")
    func equalScoresDraw() throws {
        var match = try startedMatch(options(pairs: 2, againOnMatch: false))
        var last: [PublicState] = []
        for seat in [Seat.first, .second] {
            let pair = match.knownPair
            _ = try match.flip(card: pair[0], by: seat, at: at(1))
            last = try match.flip(card: pair[1], by: seat, at: at(2))
        }
        #expect(last.last?.outcome == .draw)
        #expect(last.last?.series.draws == 1)
    }

    @Test("the turn clock hides a lone face-up card and passes the turn")
    func turnClockTimesOut() throws {
        var match = try startedMatch(options(turnSeconds: 5))
        #expect(match.nextDeadline == at(5000))
        _ = try match.flip(card: 3, by: .first, at: at(1000))
        #expect(match.advance(to: at(4999)).isEmpty)
        let states = match.advance(to: at(5000))
        #expect(states.map(\.event) == [.timeout(.first, hidden: [3])])
        #expect(states[0].cards[3] == .down)
        #expect(states[0].turn == .second)
        #expect(match.nextDeadline == at(10_000))
    }

    @Test("the turn clock restarts after a match and pauses during a reveal")
    func turnClockRestartsAndPauses() throws {
        var match = try startedMatch(options(turnSeconds: 5, revealMilliseconds: 2000))
        let pair = match.knownPair
        _ = try match.flip(card: pair[0], by: .first, at: at(1000))
        let matched = try match.flip(card: pair[1], by: .first, at: at(3000))
        #expect(matched[0].turnMillisecondsLeft == 5000)
        #expect(match.nextDeadline == at(8000))

        let miss = match.knownMismatch
        _ = try match.flip(card: miss[0], by: .first, at: at(4000))
        let revealed = try match.flip(card: miss[1], by: .first, at: at(7000))
        #expect(revealed[0].turnMillisecondsLeft == nil)
        #expect(match.nextDeadline == at(9000))
        let hidden = match.advance(to: at(9000))
        #expect(hidden[0].turnMillisecondsLeft == 5000)
        #expect(match.nextDeadline == at(14_000))
    }

    @Test("three timeouts in a row by one seat forfeit the game")
    func threeTimeoutsForfeit() throws {
        var match = try startedMatch(options(turnSeconds: 1))
        var events: [GameEvent] = []
        var clock: Int64 = 0
        // Seat 1 plays a flip on each of its turns; seat 0 never moves.
        while match.phase == .playing {
            clock += 1000
            events += match.advance(to: at(clock)).map(\.event)
            if match.turn == .second, match.phase == .playing {
                let card = match.currentState(at: at(clock))!.cards.firstIndex(of: .down)!
                events += try match.flip(card: card, by: .second, at: at(clock)).map(\.event)
            }
        }
        #expect(events.filter { $0 == .timeout(.first, hidden: []) }.count == 3)
        #expect(events.last == .forfeit(.first, .timeouts))
        #expect(match.currentState(at: at(clock))?.outcome == .win(.second))
    }

    @Test("a flip between timeouts resets the count")
    func flipResetsTimeoutCount() throws {
        var match = try startedMatch(options(pairs: 8, turnSeconds: 1, revealMilliseconds: 0))
        var clock: Int64 = 0
        func timeOut() { clock += 1000; _ = match.advance(to: at(clock)) }
        func mismatch(_ seat: Seat) throws {
            let miss = match.knownMismatch
            _ = try match.flip(card: miss[0], by: seat, at: at(clock + 1))
            _ = try match.flip(card: miss[1], by: seat, at: at(clock + 2))
            clock += 2
        }
        // Seat 0: timeout, timeout, a real turn, timeout, timeout. Seat 1 plays every turn.
        timeOut(); try mismatch(.second)
        timeOut(); try mismatch(.second)
        try mismatch(.first); try mismatch(.second)
        timeOut(); try mismatch(.second)
        timeOut()
        #expect(match.phase == .playing)
        #expect(match.turn == .second)
    }

    @Test("leaving during a game forfeits it and frees the seat")
    func leavingForfeits() throws {
        var match = try startedMatch()
        let states = try match.leave(seat: .second, at: at(50))
        #expect(states.map(\.event) == [.forfeit(.second, .left), .leave(.second)])
        #expect(states[0].outcome == .win(.first))
        #expect(states[0].series.wins == [1, 0])
        #expect(states[1].phase == .waiting)
        #expect(states[1].players[1] == nil)
        #expect(match.freeSeat == .second)
        // The forfeit's state lists the faces never found (every card: nothing was flipped); the seat left
        // free is no game over, and lists none.
        #expect(states[0].downFaces == match.deal)
        #expect(states[1].downFaces == nil)
    }

    @Test("a player left alone gets a new opponent and a new game, with a new series")
    func newOpponentStartsNewGame() throws {
        var match = try startedMatch()
        _ = try match.leave(seat: .first, at: at(1))
        let joined = try match.join(name: "cy", at: at(2))
        #expect(joined.seat == .first)
        #expect(joined.states.map(\.event) == [.join(.first), .start(turn: .second)])
        #expect(match.game == 2)
        #expect(match.series == SeriesTally())
        #expect(joined.states.last?.players.map { $0?.name } == ["cy", "bob"])
    }

    @Test("the last player leaving empties the room")
    func lastPlayerEmptiesRoom() throws {
        var match = try startedMatch()
        _ = try match.leave(seat: .first, at: at(1))
        _ = try match.leave(seat: .second, at: at(2))
        #expect(match.isEmpty)
        #expect(throws: MoveError.seatEmpty(.second)) { try match.leave(seat: .second, at: at(3)) }
    }

    @Test("a disconnected player keeps the seat through the grace period and can come back")
    func disconnectAndReconnectWithinGrace() throws {
        var match = try startedMatch(grace: 10_000)
        let dropped = try match.disconnect(seat: .second, at: at(1000))
        #expect(dropped.map(\.event) == [.disconnect(.second)])
        #expect(dropped[0].players[1]?.connected == false)
        #expect(try match.disconnect(seat: .second, at: at(1500)).isEmpty)
        #expect(match.nextDeadline == at(11_000))
        #expect(match.advance(to: at(10_999)).isEmpty)

        let back = try match.reconnect(seat: .second, at: at(10_999))
        #expect(back.map(\.event) == [.reconnect(.second)])
        #expect(back[0].players[1]?.connected == true)
        #expect(match.nextDeadline == nil)
        #expect(match.phase == .playing)
    }

    @Test("a disconnected player who stays away past the grace period forfeits and loses the seat")
    func forfeitAfterGrace() throws {
        var match = try startedMatch(grace: 10_000)
        _ = try match.disconnect(seat: .first, at: at(1000))
        let states = match.advance(to: at(20_000))
        #expect(states.map(\.event) == [.forfeit(.first, .away), .leave(.first)])
        #expect(states[0].seq < states[1].seq)
        #expect(states[0].outcome == .win(.second))
        #expect(match.playerName(in: .first) == nil)
    }

    @Test("a rematch starts when both ask, with the other seat starting and the series going on")
    func rematchAlternatesStarter() throws {
        var match = try startedMatch(options(pairs: 2))
        for _ in 0..<2 {
            let pair = match.knownPair
            _ = try match.flip(card: pair[0], by: .first, at: at(1))
            _ = try match.flip(card: pair[1], by: .first, at: at(2))
        }
        let firstAsk = try match.requestRematch(by: .second, at: at(3))
        #expect(firstAsk.map(\.event) == [.rematch(.second)])
        #expect(throws: MoveError.rematchAlreadyRequested) { try match.requestRematch(by: .second, at: at(4)) }

        let secondAsk = try match.requestRematch(by: .first, at: at(5))
        #expect(secondAsk.map(\.event) == [.rematch(.first), .start(turn: .second)])
        #expect(secondAsk.last?.game == 2)
        #expect(secondAsk.last?.players.map { $0?.score } == [0, 0])
        #expect(secondAsk.last?.series.wins == [1, 0])
        #expect(secondAsk.last?.cards.allSatisfy { $0 == .down } == true)
    }

    @Test("a rematch cannot be asked for during a game")
    func rematchOnlyWhenOver() throws {
        var match = try startedMatch()
        #expect(throws: MoveError.gameNotOver(.playing)) { try match.requestRematch(by: .first, at: at(1)) }
    }

    @Test("every accepted change increases seq by exactly one")
    func seqCountsChanges() throws {
        var match = try startedMatch()
        let before = match.seq
        let pair = match.knownPair
        let states = try match.flip(card: pair[0], by: .first, at: at(1))
            + match.flip(card: pair[1], by: .first, at: at(2))
        #expect(states.map(\.seq) == [before + 1, before + 2])
    }
}
