/// Players arriving, leaving, dropping and coming back.
extension Match {
    /// Seats a new player in the first empty seat. When that fills the room, a game starts (at once for a
    /// solo player).
    public mutating func join(name: String, at now: Moment) throws(MoveError) -> (seat: Seat, states: [PublicState]) {
        guard let seat = freeSeat else { throw .roomFull }
        players[seat.index] = Player(name: name)
        // A series is between particular players: a new face at the table starts a new one.
        series = SeriesTally(seats: rules.variant.seats)
        var states: [PublicState] = []
        emit(.join(seat), at: now, into: &states)
        if freeSeat == nil {
            startGame(at: now, into: &states)
        }
        return (seat, states)
    }

    /// The player in `seat` leaves for good: a game in progress is forfeited, and the seat is freed.
    public mutating func leave(seat: Seat, at now: Moment) throws(MoveError) -> [PublicState] {
        guard playerName(in: seat) != nil else { throw .seatEmpty(seat) }
        var states: [PublicState] = []
        vacate(seat, because: .left, at: now, into: &states)
        return states
    }

    /// The connection of `seat` dropped: the seat is kept for the grace period, after which `advance(to:)`
    /// forfeits the game and frees the seat. Nothing happens for a seat that is already away.
    public mutating func disconnect(seat: Seat, at now: Moment) throws(MoveError) -> [PublicState] {
        guard playerName(in: seat) != nil, let player = players[seat.index] else { throw .seatEmpty(seat) }
        guard player.presence == .connected else { return [] }
        players[seat.index]?.presence = .away(forfeitAt: now.adding(milliseconds: graceMilliseconds))
        var states: [PublicState] = []
        emit(.disconnect(seat), at: now, into: &states)
        states += advance(to: now)
        return states
    }

    /// The player of `seat` is back, on a new connection.
    public mutating func reconnect(seat: Seat, at now: Moment) throws(MoveError) -> [PublicState] {
        guard playerName(in: seat) != nil else { throw .seatEmpty(seat) }
        players[seat.index]?.presence = .connected
        var states: [PublicState] = []
        emit(.reconnect(seat), at: now, into: &states)
        return states
    }

    /// Frees `seat`, forfeiting a game in progress first (a peek counts). The player left alone waits for a
    /// new opponent.
    mutating func vacate(_ seat: Seat, because reason: ForfeitReason, at now: Moment, into states: inout [PublicState]) {
        switch stage {
        case .peek, .playing, .reveal:
            finish(with: forfeitOutcome(by: seat))
            emit(.forfeit(seat, reason), at: now, into: &states)
        case .waiting, .over:
            break
        }
        // Cards still up from an unfinished turn go down, so the waiting board shows no stale faces.
        for index in cards.indices where cards[index].status == .up {
            cards[index].status = .down
        }
        players[seat.index] = nil
        stage = .waiting
        gameDeadline = nil
        emit(.leave(seat), at: now, into: &states)
    }
}
