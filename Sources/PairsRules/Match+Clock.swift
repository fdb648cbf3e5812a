/// Time passing: peeks and reveals ending, turn clocks and the game clock running out, grace periods
/// expiring.
extension Match {
    /// Three timeouts in a row mean the player is not there; the game is given up for them.
    public static let timeoutsToForfeit = 3

    /// Carries out everything due at or before `now`, earliest first, and returns the states produced.
    /// Each deadline is handled at the moment it fell due, not at `now`, so a late timer changes nothing
    /// but the delivery time.
    public mutating func advance(to now: Moment) -> [PublicState] {
        var states: [PublicState] = []
        while let due = nextDeadline, due <= now {
            handleDeadline(at: due, into: &states)
        }
        return states
    }

    /// Handles one deadline that fell due at `due`. When several fall due together, a player gone for good
    /// forfeits first, then the game clock ends the game, then the stage moves on.
    private mutating func handleDeadline(at due: Moment, into states: inout [PublicState]) {
        for seat in seats {
            if case .away(let forfeitAt)? = players[seat.index]?.presence, forfeitAt <= due {
                vacate(seat, because: .away, at: due, into: &states)
                return
            }
        }
        if let gameDeadline, gameDeadline <= due {
            return timeUp(at: due, into: &states)
        }
        switch stage {
        case .peek(let until, let starter) where until <= due:
            startPlay(starter, at: due, into: &states)
        case .reveal(let reveal) where reveal.until <= due:
            for index in reveal.cards { cards[index].status = .down }
            let next = seat(after: reveal.seat)
            stage = .playing(Turn(seat: next, deadline: turnDeadline(startingAt: due)))
            emit(.hide(cards: reveal.cards), at: due, into: &states)
        case .playing(let turn) where turn.deadline.map { $0 <= due } == true:
            timeOut(turn, at: due, into: &states)
        default:
            preconditionFailure("advance found a deadline that no stage, clock or player holds")
        }
    }

    /// The turn clock of `turn` ran out: its face-up cards go down and the turn passes, or the game is
    /// forfeited on the third timeout in a row.
    private mutating func timeOut(_ turn: Turn, at due: Moment, into states: inout [PublicState]) {
        for index in turn.flipped { cards[index].status = .down }
        let timeouts = (players[turn.seat.index]?.consecutiveTimeouts ?? 0) + 1
        players[turn.seat.index]?.consecutiveTimeouts = timeouts
        stage = .playing(Turn(seat: seat(after: turn.seat), deadline: turnDeadline(startingAt: due)))
        emit(.timeout(turn.seat, hidden: turn.flipped), at: due, into: &states)
        if timeouts >= Self.timeoutsToForfeit {
            finish(with: forfeitOutcome(by: turn.seat))
            emit(.forfeit(turn.seat, .timeouts), at: due, into: &states)
        }
    }

    /// The game clock ran out: the game is over, scored as it stands. Cards up from an unfinished turn or a
    /// reveal go back down, so the final board shows only what was matched.
    private mutating func timeUp(at due: Moment, into states: inout [PublicState]) {
        for index in cards.indices where cards[index].status == .up {
            cards[index].status = .down
        }
        finish(with: outcomeByScore())
        emit(.timeUp, at: due, into: &states)
    }
}
