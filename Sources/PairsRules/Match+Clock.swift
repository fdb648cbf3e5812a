/// Time passing: reveals ending, turn clocks running out, grace periods expiring.
extension Match {
    /// Three timeouts in a row mean the player is not there; the game is given to the opponent.
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

    private mutating func handleDeadline(at due: Moment, into states: inout [PublicState]) {
        // Grace periods first: a player who is gone for good forfeits before their turn can time out.
        for seat in Seat.allCases {
            if case .away(let forfeitAt)? = players[seat.index]?.presence, forfeitAt <= due {
                vacate(seat, at: due, into: &states)
                return
            }
        }
        switch stage {
        case .reveal(let reveal) where reveal.until <= due:
            cards[reveal.cards.first].status = .down
            cards[reveal.cards.second].status = .down
            let next = reveal.seat.opponent
            stage = .playing(Turn(seat: next, deadline: turnDeadline(startingAt: due)))
            emit(.hide(cards: reveal.cards), at: due, into: &states)
        case .playing(let turn) where turn.deadline.map { $0 <= due } == true:
            timeOut(turn, at: due, into: &states)
        default:
            preconditionFailure("advance found a deadline that no stage or player holds")
        }
    }

    /// The turn clock of `turn` ran out: its face-up card goes down and the turn passes, or the game is
    /// forfeited on the third timeout in a row.
    private mutating func timeOut(_ turn: Turn, at due: Moment, into states: inout [PublicState]) {
        if let first = turn.firstCard {
            cards[first].status = .down
        }
        let timeouts = (players[turn.seat.index]?.consecutiveTimeouts ?? 0) + 1
        players[turn.seat.index]?.consecutiveTimeouts = timeouts
        stage = .playing(Turn(seat: turn.seat.opponent, deadline: turnDeadline(startingAt: due)))
        emit(.timeout(turn.seat, hidden: turn.firstCard), at: due, into: &states)
        if timeouts >= Self.timeoutsToForfeit {
            finish(with: .win(turn.seat.opponent))
            emit(.forfeit(turn.seat), at: due, into: &states)
        }
    }
}
