/// Flips and rematches: everything a seated player does to the game itself.
extension Match {
    /// Turns `card` face up for `seat`. The first flip of a turn waits for a second; the second either
    /// matches (the pair leaves play and the seat scores) or mismatches (both stay up for the reveal).
    public mutating func flip(card: Int, by seat: Seat, at now: Moment) throws(MoveError) -> [PublicState] {
        guard case .playing(var turn) = stage else { throw .notPlaying(phase) }
        guard turn.seat == seat else { throw .notYourTurn }
        guard cards.indices.contains(card) else { throw .cardOutOfRange(card: card, cardCount: cards.count) }
        guard cards[card].status == .down else { throw .cardNotFaceDown(card: card) }

        players[seat.index]?.consecutiveTimeouts = 0
        var states: [PublicState] = []
        guard let first = turn.firstCard else {
            cards[card].status = .up
            turn.firstCard = card
            stage = .playing(turn)
            emit(.flip(seat, card: card), at: now, into: &states)
            return states
        }

        let pair = CardPair(first, card)
        if cards[first].face == cards[card].face {
            cards[first].status = .matched(by: seat)
            cards[card].status = .matched(by: seat)
            players[seat.index]?.score += 1
            if cards.allSatisfy({ $0.status != .down }) {
                finish(with: outcomeByScore())
                emit(.over(seat, cards: pair), at: now, into: &states)
            } else {
                let next = options.againOnMatch ? seat : seat.opponent
                stage = .playing(Turn(seat: next, deadline: turnDeadline(startingAt: now)))
                emit(.match(seat, cards: pair), at: now, into: &states)
            }
        } else {
            // Both faces stay up for the reveal, even a zero-length one: the state showing both is emitted
            // before `advance` hides them, so both players always see what was turned.
            cards[card].status = .up
            let until = now.adding(milliseconds: Int64(options.revealMilliseconds))
            stage = .reveal(Reveal(seat: seat, cards: pair, until: until))
            emit(.mismatch(seat, cards: pair), at: now, into: &states)
        }
        states += advance(to: now)
        return states
    }

    /// Records that `seat` wants another game; the new game starts when both seats have asked.
    public mutating func requestRematch(by seat: Seat, at now: Moment) throws(MoveError) -> [PublicState] {
        guard case .over = stage else { throw .gameNotOver(phase) }
        guard let player = players[seat.index] else { throw .seatEmpty(seat) }
        guard !player.wantsRematch else { throw .rematchAlreadyRequested }
        players[seat.index]?.wantsRematch = true
        var states: [PublicState] = []
        emit(.rematch(seat), at: now, into: &states)
        if players.allSatisfy({ $0?.wantsRematch == true }) {
            startGame(at: now, into: &states)
        }
        return states
    }

    /// Deals a fresh board and gives the first turn to the seat whose turn it is to start: seat 0 in the
    /// first game, then alternating.
    mutating func startGame(at now: Moment, into states: inout [PublicState]) {
        game += 1
        var faces = Faces.all.prefix(options.pairs).flatMap { [$0, $0] }
        shuffle(&faces)
        cards = faces.map { Card(face: $0, status: .down) }
        for seat in Seat.allCases {
            players[seat.index]?.score = 0
            players[seat.index]?.wantsRematch = false
            players[seat.index]?.consecutiveTimeouts = 0
        }
        let starter: Seat = game % 2 == 1 ? .first : .second
        stage = .playing(Turn(seat: starter, deadline: turnDeadline(startingAt: now)))
        emit(.start(turn: starter), at: now, into: &states)
    }

    /// Fisher-Yates with the match's own generator, so a seed always deals the same boards.
    mutating func shuffle(_ faces: inout [String]) {
        var index = faces.count - 1
        while index > 0 {
            faces.swapAt(index, generator.next(below: index + 1))
            index -= 1
        }
    }

    /// The outcome when the board is cleared: the higher score wins, equal scores draw.
    func outcomeByScore() -> Outcome {
        let first = players[0]?.score ?? 0
        let second = players[1]?.score ?? 0
        if first == second { return .draw }
        return .win(first > second ? .first : .second)
    }

    /// Ends the game and records it in the series.
    mutating func finish(with outcome: Outcome) {
        stage = .over(outcome)
        series.record(outcome)
    }
}
