import PairsRules
import PairsWire

/// Rooms coming and going, and their states going out.
extension Lobby {
    func openRoom(named name: String, quickMatch: Bool, rules: RuleSet) -> Room {
        let seed = configuration.seed ?? random.next()
        let match = Match(rules: rules, graceMilliseconds: configuration.graceMilliseconds, seed: seed)
        let room = Room(name: name, isQuickMatch: quickMatch, match: match)
        directory.add(room)
        log(.info, .roomOpened(room: name, rules: rules))
        return room
    }

    /// Sends the states to everyone in the room, encoded once for all of them and in one write per
    /// recipient, then carries out what they mean for the room's seats, and keeps the room's deadline and
    /// directory entry in step with the match.
    ///
    /// Everyone in the room when the change happened receives all of its states, including a player whose
    /// own `leave` produced them. `requester`, the connection whose request caused the change, gets them
    /// first: on loopback each send runs the receiver's TCP path, and the requester is the one waiting.
    func publish(_ states: [PublicState], in room: Room, id: RequestID?, at now: Moment, requester: Client? = nil) {
        guard !states.isEmpty else { return settle(room, at: now) }
        let bytes = ServerMessageEncoder.encode(
            states: states, room: room.name, spectators: room.spectators.count, rules: room.rules, id: id)
        // A game that ends is handed to the store before its last state goes out, so that the transport can
        // hold that state back until the game is kept (`LobbyAction.record`).
        if configuration.keepsGames {
            for index in states.indices { keep(states[index], of: room, at: now) }
        }
        broadcast(bytes, messages: states.count, in: room, first: requester.flatMap { room.hasMember($0) ? $0.id : nil })
        for index in states.indices {
            switch states[index].event {
            case .leave(let seat):
                // The seat is free: its token dies, and its connection (if it is still there) is no longer
                // the seat's. Whoever asked to leave is already on the way back to the lobby.
                directory.retireToken(of: seat, in: room)
                releaseAwaySeat(seat, in: room)
                if let client = room.seatClients[seat.index] {
                    room.seatClients[seat.index] = nil
                    if case .seated(let seated, _) = client.place, seated === room { client.place = .lobby }
                }
            case .reconnect(let seat):
                releaseAwaySeat(seat, in: room)
            case let event where event.endsGame:
                counters.gamesFinished += 1
                counters.gamesFinishedByVariant[VariantLabel.of(room.rules.variant), default: 0] += 1
                logEnd(of: states[index], in: room)
            default:
                break
            }
        }
        settle(room, at: now)
        if room.tournamentGame != nil { noteTournamentStates(states, in: room, at: now) }
    }

    /// Notes the game's moves as they happen, and hands the game over to be kept when it ends.
    private func keep(_ state: PublicState, of room: Room, at now: Moment) {
        switch state.event {
        case .peek:
            room.log = GameLog(game: state.game, started: now)
        case .start:
            // A game's first state, unless it follows the peek that began the game.
            if room.log?.game != state.game { room.log = GameLog(game: state.game, started: now) }
        default:
            room.log?.note(state.event, at: now)
        }
        guard state.event.endsGame, let log = room.log, let outcome = state.outcome, let end = GameEnd(state.event) else { return }
        room.log = nil
        var recipients: [ConnectionID] = []
        room.forEachRecipient { recipients.append($0) }
        append(.record(FinishedGame(room: room.name, rules: room.rules, players: finishedPlayers(state, of: room), outcome: outcome, end: end,
                                    started: log.started, ended: now, deal: room.match.deal, moves: log.moves,
                                    tournament: room.tournamentGame?.key),
                       holding: recipients))
    }

    /// Removes the room when nobody is left, else keeps its deadline and quick-match entry current.
    func settle(_ room: Room, at now: Moment) {
        withdrawIfNoLongerWaiting(room)
        if room.isAbandoned {
            deadlines.set(nil, for: room)
            directory.remove(room)
            log(.info, .roomClosed(room: room.name))
            return
        }
        directory.refresh(room)
        // A seat promised to a player from another instance is offered here again if they do not come.
        // (Without an array: settle runs after every flip.)
        var deadline = room.match.nextDeadline
        if let promise = promiseDeadline(of: room) { deadline = min(deadline ?? promise, promise) }
        deadlines.set(deadline, for: room)
    }

    /// Takes a departing connection out of its room: a player keeps the seat for the grace period (unless
    /// `keepsSeat` says otherwise and `keepingSeat` does not insist).
    func detachFromRoom(_ client: Client, at now: Moment, keepingSeat: Bool = false) {
        switch client.place {
        case .lobby:
            break
        case .watching(let room):
            room.spectators[client.id] = nil
            settle(room, at: now)
        case .seated(let room, let seat):
            guard room.seatClients[seat.index] === client else { break }
            room.seatClients[seat.index] = nil
            let states: [PublicState]
            if keepingSeat || keepsSeat(of: client, in: room) {
                releaseAwaySeat(seat, in: room)
                room.awayAddresses[seat.index] = client.address
                directory.shared.holdAwaySeat(for: client.address)
                states = (try? room.match.disconnect(seat: seat, at: now)) ?? []
            } else {
                states = (try? room.match.leave(seat: seat, at: now)) ?? []
            }
            publish(states, in: room, id: nil, at: now)
        }
        client.place = .lobby
    }

    /// Whether a player whose connection dropped keeps the seat for the grace period. Not in a named room
    /// whose game has not begun and where nobody else is left: nothing is lost, and such rooms would cost
    /// a client nothing to pile up. Nor past `RoomLimits`: the seat is freed as if the player had left.
    private func keepsSeat(of client: Client, in room: Room) -> Bool {
        // A tournament's room is made by the server for its two players: the seat is theirs to come back to.
        let isForsakenBeforeAnyGame = !room.isQuickMatch && room.tournamentGame == nil && room.match.game == 0 && room.spectators.isEmpty
            && room.seatClients.allSatisfy { $0 == nil }
        return !isForsakenBeforeAnyGame && directory.shared.hasRoomForAwaySeat(of: client.address)
    }

    /// The seat is no longer held for a dropped player: it was taken back or freed.
    private func releaseAwaySeat(_ seat: Seat, in room: Room) {
        guard let address = room.awayAddresses[seat.index] else { return }
        room.awayAddresses[seat.index] = nil
        directory.shared.releaseAwaySeat(for: address)
    }

    /// The seats of a game that has just ended, in `state`.
    private func finishedPlayers(_ state: PublicState, of room: Room) -> [FinishedPlayer] {
        room.match.seats.map { seat in
            // Every seat is taken when a game ends: a forfeit comes before its player leaves the seat.
            FinishedPlayer(name: state.players[seat.index]?.name ?? "", claimed: room.seatClaimed[seat.index],
                           score: state.players[seat.index]?.score ?? 0)
        }
    }

    /// The log's lines for the state that ended a game: the forfeit, if it was one, then the game over.
    private func logEnd(of state: PublicState, in room: Room) {
        if case .forfeit(let seat, let reason) = state.event {
            let connection = room.seatClients[seat.index].map(logged)
            log(.info, .forfeited(room: room.name, game: state.game, seat: seat, player: state.players[seat.index]?.name ?? "",
                                  reason, connection: connection))
        }
        guard let outcome = state.outcome, let end = GameEnd(state.event) else { return }
        log(.info, .gameOver(GameOverLog(room: room.name, game: state.game, players: finishedPlayers(state, of: room),
                                         outcome: outcome, end: end)))
    }
}
