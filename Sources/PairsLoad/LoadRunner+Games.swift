import PairsPolling
import PairsRules
import PairsWire

/// The games: joining, deciding and sending flips, measuring them, rematches, refusals and retries.
extension LoadRunner {
    // MARK: Joining

    func sendJoin(_ connection: LoadConnection) {
        let game = games[connection.game]
        if connection.joinID == 0 { connection.joinID = game.newID(.join) }
        if let tournament = configuration.tournament {
            // A name of its own, for the standings; then the server seats it, game after game.
            send(RequestEncoder.encode(Request(.hello(name: configuration.sessionName(connection.game)))), on: connection)
            let join = TournamentRequest.join(tournament: tournament, standings: configuration.tournamentStandings)
            send(RequestEncoder.encode(Request(id: .integer(connection.joinID), .tournament(join))), on: connection)
            connection.sent(at: batchTime)
            if game.freeSince == nil { game.freeSince = batchTime }
            return
        }
        if configuration.followsRedirects {
            send(RequestEncoder.encode(Request(.hello(name: "load-\(connection.index)", followsRedirects: true))), on: connection)
        }
        let join = JoinRequest(room: configuration.room(connection.game), rules: configuration.rules)
        send(RequestEncoder.encode(Request(id: .integer(connection.joinID), .join(join))), on: connection)
        connection.sent(at: batchTime)
    }

    func resendJoin(_ connection: LoadConnection, now: UInt64) {
        guard phase == .running, connection.status == .open, connection.seat == nil else { return }
        sendJoin(connection)
    }

    /// `joined`: the connection has its seat, and so, by elimination, has its partner (the two join the
    /// same room, under a name nobody else uses). The room's rules come with it, for the bots.
    func receivedJoined(_ joined: Joined, on connection: LoadConnection) {
        guard let seat = joined.seat else { return }
        connection.seat = seat
        let game = games[connection.game]
        if configuration.tournament != nil { seatedInTournament(game, seat: seat, now: batchTime) }
        game.seatConnections[seat.index] = connection.index
        if let partner = connection.partner { game.seatConnections[seat.opponent.index] = partner }
        if game.bot.rules != joined.rules { game.bot.play(by: joined.rules) }
    }

    /// A tournament session seated in a new game: whatever it knew of the last room is dropped, and the
    /// wait since it was free is counted (the pairing by seat 0 alone, so each game counts once).
    private func seatedInTournament(_ game: LoadGame, seat: Seat, now: UInt64) {
        statistics.countSeat(afterWaiting: game.freeSince.map { now &- $0 }, makesPairing: seat == .first)
        game.freeSince = nil
        dropPlan(of: game, now: now)
        if let flip = game.outstanding {
            statistics.recordUnfinished(age: now &- flip.intended, at: now)
            game.outstanding = nil
        }
        game.state = ScannedState()
        game.finishedGame = 0
        game.seatConnections = [-1, -1]
        game.status = .playing
    }

    /// Whether `game`'s ends are counted here: always for rooms; in a tournament, where each player is a game
    /// of the run's, by the session in seat 0 only.
    func countsGames(of game: LoadGame) -> Bool {
        configuration.tournament == nil || connections[game.connections[0]].seat == .first
    }

    // MARK: States

    /// A new state of `game`'s room, already scanned into `game.state`, that arrived at `now`.
    func receivedState(_ game: LoadGame, now: UInt64) {
        game.observe()
        let state = game.state
        if let flip = game.outstanding, case .integer(flip.id)? = state.eventID {
            statistics.countFlip(latency: now &- flip.intended, at: now)
            game.outstanding = nil
        }
        switch state.phase {
        case .playing:
            game.status = .playing
            // One flip at a time: the next is decided on the state that answers the last one.
            if game.outstanding == nil { plan(game, now: now) }
        case .over:
            dropPlan(of: game, now: now)
            if state.game > game.finishedGame {
                game.finishedGame = state.game
                gameOver(game, forfeit: state.eventKind == .forfeit, now: now)
            }
        case .peek, .reveal, .waiting:
            dropPlan(of: game, now: now)
        }
    }

    /// Forgets the flip waiting to be sent, since a newer state decides now. A flip the server already
    /// dropped once (waiting to be resent after `rate_limited`) never got its answer: it counts as
    /// unanswered, with its age, rather than vanishing from the latencies.
    private func dropPlan(of game: LoadGame, now: UInt64) {
        if let flip = game.planned, flip.id != 0 {
            statistics.recordUnfinished(age: now &- flip.intended, at: now)
        }
        game.planned = nil
        game.generation &+= 1
    }

    /// Decides the next flip and sends it now, or when the think time and pacing allow.
    private func plan(_ game: LoadGame, now: UInt64) {
        dropPlan(of: game, now: now)
        guard let seat = game.state.turn else { return }
        let index = game.seatConnections[seat.index]
        guard index >= 0, connections[index].status == .open, let card = game.chooseCard(faces: scanner.faces) else { return }
        let connection = connections[index]
        var intended = now + thinkNanoseconds
        if connection.interval > 0 { intended = max(intended, connection.nextPacedSend) }
        let flip = LoadGame.Flip(id: 0, seat: seat, card: card, intended: intended)
        let sendAt = max(intended, connection.nextAllowedSend)
        if sendAt <= now {
            send(flip, in: game, on: connection, now: now)
        } else {
            game.planned = flip
            schedule(at: sendAt, .sendFlip, target: game.index, generation: game.generation)
        }
    }

    private func send(_ flip: LoadGame.Flip, in game: LoadGame, on connection: LoadConnection, now: UInt64) {
        var flip = flip
        if flip.id == 0 { flip.id = game.newID(.flip) } else { statistics.resends += 1 }
        sendFlip(card: flip.card, id: flip.id, on: connection)
        connection.sent(at: now)
        statistics.flipsSent += 1
        game.planned = nil
        game.outstanding = flip
    }

    /// The timer of a planned flip: sends it, unless the plan changed meanwhile.
    func sendPlannedFlip(_ game: LoadGame, generation: UInt32, now: UInt64) {
        guard phase == .running, game.status == .playing, generation == game.generation,
              let flip = game.planned else { return }
        let index = game.seatConnections[flip.seat.index]
        guard index >= 0, connections[index].status == .open else { return }
        let connection = connections[index]
        if connection.nextAllowedSend > now {
            schedule(at: connection.nextAllowedSend, .sendFlip, target: game.index, generation: generation)
        } else {
            send(flip, in: game, on: connection, now: now)
        }
    }

    /// After a refused flip: decides again on the latest state, if nothing else did meanwhile.
    func replan(_ game: LoadGame, generation: UInt32, now: UInt64) {
        guard phase == .running, game.status == .playing, generation == game.generation,
              game.outstanding == nil, game.state.phase == .playing else { return }
        plan(game, now: now)
    }

    // MARK: Between games

    private func gameOver(_ game: LoadGame, forfeit: Bool, now: UInt64) {
        if configuration.tournament != nil {
            // The tournament seats it next: no rematch, only the wait to count.
            if countsGames(of: game) { statistics.countGame(forfeit: forfeit, at: now) }
            game.freeSince = now
            return
        }
        statistics.countGame(forfeit: forfeit, at: now)
        game.holdsReservation = false
        if let limit = configuration.games, statistics.games >= limit {
            finish()
            return
        }
        if claimGame() {
            game.holdsReservation = true
            sendRematch(game, seat: .first)
            sendRematch(game, seat: .second)
        } else {
            game.status = .idle
            idleGames.append(game.index)
        }
    }

    /// Counts one more game against `--games`; false when every game wanted has been started already.
    private func claimGame() -> Bool {
        if let limit = configuration.games {
            guard gamesReserved < limit else { return false }
        }
        gamesReserved += 1
        return true
    }

    private func sendRematch(_ game: LoadGame, seat: Seat) {
        let index = game.seatConnections[seat.index]
        guard index >= 0, connections[index].status == .open else { return }
        let connection = connections[index]
        let id = game.newID(.rematch)
        send(RequestEncoder.encode(Request(id: .integer(id), .rematch)), on: connection)
        connection.sent(at: batchTime)
    }

    /// The timer of a rematch refused with `rate_limited`: asks again, if that game is still the one over.
    func resendRematch(_ game: LoadGame, seat: Seat, game number: Int, now: UInt64) {
        guard phase == .running, game.status == .playing, game.state.phase == .over,
              game.state.game == number else { return }
        statistics.resends += 1
        sendRematch(game, seat: seat)
    }

    // MARK: Errors

    /// An `error` line on `connection`: what its id says was refused decides what happens next.
    func receivedError(_ error: RequestError, on connection: LoadConnection, now: UInt64) {
        guard phase == .running || connection.status == .leaving, case .integer(let id)? = error.id else { return }
        let game = games[connection.game]
        let rateLimited = error.code == .rateLimited
        switch LoadGame.kind(of: id) {
        case .flip:
            guard let flip = game.outstanding, flip.id == id else { return }
            game.outstanding = nil
            game.generation &+= 1
            if rateLimited {
                // Dropped unread: the same flip goes again after a backoff, its latency still counted from
                // when it was first meant to leave.
                game.planned = flip
                let wait = connection.backOff(now: now)
                schedule(at: now + wait, .sendFlip, target: game.index, generation: game.generation)
            } else {
                statistics.flipsRefused += 1
                schedule(at: now + LoadConfiguration.refusedFlipPauseMilliseconds * MonotonicClock.nanosecondsPerMillisecond,
                         .replan, target: game.index, generation: game.generation)
            }
        case .join:
            if rateLimited {
                let wait = connection.backOff(now: now)
                statistics.resends += 1
                schedule(at: now + wait, .join, target: connection.index)
            } else if phase == .running, connection.seat == nil {
                statistics.countFailure("join \(error.code.rawValue)", at: now)
                abandon(game, now: now)
            }
        case .rematch:
            if rateLimited, let seat = connection.seat {
                let wait = connection.backOff(now: now)
                schedule(at: now + wait, .rematch, target: game.index, seat: seat, generation: UInt32(truncatingIfNeeded: game.state.game))
            }
        case .leave:
            if rateLimited {
                let wait = connection.backOff(now: now)
                statistics.resends += 1
                schedule(at: now + wait, .leave, target: connection.index)
            } else if connection.status == .leaving {
                closeSocket(connection) // not_in_room: it was in no room, so there is nothing to leave
            }
        }
    }

    // MARK: Giving up

    /// A connection of `game` failed or dropped: the game is over for this run. Its other connection
    /// leaves, and if it held a place among `--games`, an idle game takes that place.
    func abandon(_ game: LoadGame, now: UInt64) {
        guard game.status != .abandoned else { return }
        game.status = .abandoned
        statistics.gamesAbandoned += 1
        liveGames -= 1
        recordUnfinishedFlips(of: game, now: now)
        game.generation &+= 1
        for index in game.connections {
            let connection = connections[index]
            switch connection.status {
            case .open: beginLeaving(connection, now: now)
            case .connecting, .upgrading: closeSocket(connection)
            case .idle: connection.status = .closed
            case .leaving, .closed: break
            }
        }
        if game.holdsReservation {
            game.holdsReservation = false
            gamesReserved -= 1
            while let idle = idleGames.popLast() {
                let other = games[idle]
                guard other.status == .idle, claimGame() else { continue }
                other.status = .playing
                other.holdsReservation = true
                sendRematch(other, seat: .first)
                sendRematch(other, seat: .second)
                break
            }
        }
        if liveGames == 0 {
            finish()
        } else {
            openConnections()
        }
    }
}
