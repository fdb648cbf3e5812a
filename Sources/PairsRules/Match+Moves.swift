/// Flips and rematches: everything a seated player does to the game itself, and how a game starts and ends.
extension Match {
    /// Turns `card` face up for `seat`. A turn is as many flips as a set has cards; the last one either
    /// makes a set (its cards leave play and the seat scores) or not (they all stay up for the reveal).
    public mutating func flip(card: Int, by seat: Seat, at now: Moment) throws(MoveError) -> [PublicState] {
        guard case .playing(var turn) = stage else { throw .notPlaying(phase) }
        guard turn.seat == seat else { throw .notYourTurn }
        guard cards.indices.contains(card) else { throw .cardOutOfRange(card: card, cardCount: cards.count) }
        guard cards[card].status == .down else { throw .cardNotFaceDown(card: card) }

        let scoring = rules.variant.scoring
        players[seat.index]?.consecutiveTimeouts = 0
        players[seat.index]?.score += scoring.flipPoints
        turn.points += scoring.flipPoints
        cards[card].status = .up
        turn.flipped.append(card)
        var states: [PublicState] = []
        guard turn.flipped.count == rules.variant.setSize.rawValue else {
            stage = .playing(turn)
            emit(.flip(seat, card: card), at: now, into: &states)
            return states
        }

        let set = turn.flipped
        if let value = rules.variant.deck.value(of: set, face: { cards[$0].face }) {
            let points = turn.points + scoring.matchPoints(value: value)
            players[seat.index]?.score += scoring.matchPoints(value: value)
            for index in set { cards[index].status = .matched(by: seat) }
            if cards.allSatisfy({ $0.status != .down }) {
                finish(with: clearedOutcome(by: seat))
                emit(.over(seat, cards: set, points: points), at: now, into: &states)
            } else if !setsRemain {
                // The match left nothing to match: the game is over already in the match's own state, so
                // that no client flips between it and the `exhausted` that follows.
                finish(with: outcomeByScore())
                emit(.match(seat, cards: set, points: points), at: now, into: &states)
                emit(.exhausted, at: now, into: &states)
            } else {
                let next = rules.againOnMatch ? seat : self.seat(after: seat)
                stage = .playing(Turn(seat: next, deadline: turnDeadline(startingAt: now)))
                emit(.match(seat, cards: set, points: points), at: now, into: &states)
            }
        } else {
            // Every face stays up for the reveal, even a zero-length one: the state showing them all is
            // emitted before `advance` hides them, so everyone always sees what was turned.
            players[seat.index]?.score += scoring.mismatchPoints
            let until = now.adding(milliseconds: Int64(rules.revealMilliseconds))
            stage = .reveal(Reveal(seat: seat, cards: set, until: until))
            emit(.mismatch(seat, cards: set, points: turn.points + scoring.mismatchPoints), at: now, into: &states)
        }
        states += advance(to: now)
        return states
    }

    /// Records that `seat` wants another game; the new game starts when every seat has asked.
    public mutating func requestRematch(by seat: Seat, at now: Moment) throws(MoveError) -> [PublicState] {
        guard case .over = stage else { throw .gameNotOver(phase) }
        guard let player = players.indices.contains(seat.index) ? players[seat.index] : nil else { throw .seatEmpty(seat) }
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
    /// first game, then alternating (a solo player always starts). With a peek, every face is shown first.
    mutating func startGame(at now: Moment, into states: inout [PublicState]) {
        game += 1
        let fixedStarter = fixedDeal == nil ? nil : self.fixedStarter
        cards = dealFaces().map { Card(face: $0, status: .down) }
        for seat in seats {
            players[seat.index]?.score = 0
            players[seat.index]?.wantsRematch = false
            players[seat.index]?.consecutiveTimeouts = 0
        }
        let starter: Seat = fixedStarter ?? (game % 2 == 1 || rules.variant.seats == .one ? .first : .second)
        if rules.variant.peekMilliseconds > 0 {
            stage = .peek(until: now.adding(milliseconds: Int64(rules.variant.peekMilliseconds)), starter: starter)
            emit(.peek, at: now, into: &states)
        } else {
            startPlay(starter, at: now, into: &states)
        }
    }

    /// Play begins: the starter's turn clock and the game clock start.
    mutating func startPlay(_ starter: Seat, at now: Moment, into states: inout [PublicState]) {
        let gameSeconds = rules.variant.gameSeconds
        gameDeadline = gameSeconds > 0 ? now.adding(milliseconds: Int64(gameSeconds) * 1000) : nil
        stage = .playing(Turn(seat: starter, deadline: turnDeadline(startingAt: now)))
        emit(.start(turn: starter), at: now, into: &states)
    }

    /// A shuffled board: sets of words, or distinct playing cards. A deal of playing cards always holds a
    /// set (a few small boards of unrelated cards would otherwise be over before the first flip), so it is
    /// shuffled again until it does; the generator makes that as repeatable as the first shuffle.
    mutating func dealFaces() -> [Face] {
        if let deal = fixedDeal {
            fixedDeal = nil
            return deal
        }
        let deck = rules.variant.deck
        var faces = deck.faces(for: rules)
        while true {
            shuffle(&faces)
            guard deck == .cards else { return faces }
            let board = Array(faces.prefix(rules.cardCount))
            if deck.holdsSet(among: board, size: rules.variant.setSize.rawValue) { return board }
        }
    }

    /// Fisher-Yates with the match's own generator, so a seed always deals the same boards.
    mutating func shuffle<Element>(_ faces: inout [Element]) {
        var index = faces.count - 1
        while index > 0 {
            faces.swapAt(index, generator.next(below: index + 1))
            index -= 1
        }
    }

    /// Whether a set can still be made of the cards face down. Playing cards can run out of sets before
    /// the board is cleared; words never do.
    var setsRemain: Bool {
        // A board of words holds whole sets, so the cards still down always make some: no need to count.
        guard rules.variant.deck == .cards else { return true }
        return rules.variant.deck.holdsSet(
            among: cards.lazy.filter { $0.status == .down }.map(\.face), size: rules.variant.setSize.rawValue)
    }

    /// The outcome when `seat` clears the board: a solo player wins; two players go by score.
    func clearedOutcome(by seat: Seat) -> Outcome {
        rules.variant.seats == .one ? .win(seat) : outcomeByScore()
    }

    /// The outcome of a game ended by its clock or by running out of sets: two players go by score (equal
    /// scores draw); a solo player who did not clear the board has lost.
    func outcomeByScore() -> Outcome {
        guard rules.variant.seats == .two else { return .loss }
        let first = players[0]?.score ?? 0
        let second = players[1]?.score ?? 0
        if first == second { return .draw }
        return .win(first > second ? .first : .second)
    }

    /// The outcome when `seat` gives up: the other player wins, a solo player loses.
    func forfeitOutcome(by seat: Seat) -> Outcome {
        rules.variant.seats == .two ? .win(seat.opponent) : .loss
    }

    /// Ends the game: the clocks stop and the series counts the outcome. Cards still up from an unfinished
    /// turn stay up in the state that ends the game (everyone sees what was on the table); whoever ends it
    /// turns them down when that state is out.
    mutating func finish(with outcome: Outcome) {
        gameDeadline = nil
        stage = .over(outcome)
        series.record(outcome)
    }
}
