import PairsRules
import PairsWire

/// Rooms coming and going, and their states going out.
extension Server {
    func openRoom(named name: String, quickMatch: Bool, options: GameOptions) -> Room {
        var generator = SystemRandomNumberGenerator()
        let seed = configuration.seed ?? generator.next()
        let grace = Int64(configuration.graceSeconds) * 1000
        let room = Room(name: name, isQuickMatch: quickMatch, match: Match(options: options, graceMilliseconds: grace, seed: seed))
        // The room holds its timer and the timer's handler holds the room, until the room closes and
        // `settle` cancels the timer.
        room.timer.handler = { [self] in roomTimerFired(room) }
        directory.add(room)
        log.info("room \(name) created (\(options.pairs) pairs)")
        return room
    }

    /// Sends the states to everyone in the room, encoded once for all of them and in one write per
    /// recipient, then carries out what they mean for the room's seats, and keeps the room's timer and
    /// lobby entry in step with the match.
    ///
    /// Everyone in the room when the change happened receives all of its states, including a player whose
    /// own `leave` produced them. `requester`, the connection whose request caused the change, gets them
    /// first: on loopback each send runs the receiver's TCP path, and the requester is the one waiting.
    func publish(_ states: [PublicState], in room: Room, id: RequestID?, at now: Moment, requester: Connection? = nil) {
        guard !states.isEmpty else { return settle(room, at: now) }
        let bytes = ServerMessageEncoder.encode(states: states, room: room.name, spectators: room.spectators.count, id: id)
        room.forEachRecipient(first: requester.flatMap { isMember($0, of: room) ? $0 : nil }) {
            deliver(bytes, to: $0, messages: states.count)
        }
        for state in states {
            switch state.event {
            case .leave(let seat):
                // The seat is free: its token dies, and its connection (if it is still there) is no longer
                // the seat's. Whoever asked to leave is already on the way back to the lobby.
                directory.retireToken(of: seat, in: room)
                if let connection = room.seatConnections[seat.index] {
                    room.seatConnections[seat.index] = nil
                    if case .seated(let seated, _) = connection.place, seated === room { connection.place = .lobby }
                }
            case .over, .forfeit:
                counters.gamesFinished += 1
                log.info("room \(room.name): game \(state.game) over, \(describe(state))")
            default:
                break
            }
        }
        settle(room, at: now)
    }

    private func isMember(_ connection: Connection, of room: Room) -> Bool {
        switch connection.place {
        case .seated(let seated, _): seated === room
        case .watching(let watched): watched === room
        case .lobby: false
        }
    }

    /// Removes the room when nobody is left, else keeps its quick-match entry and timer current.
    func settle(_ room: Room, at now: Moment) {
        if room.isAbandoned {
            room.timer.cancel()
            directory.remove(room)
            log.info("room \(room.name) closed")
            return
        }
        directory.update(quickMatch: room)
        room.timer.schedule(room.match.nextDeadline, now: now, queue: queue)
    }

    private func roomTimerFired(_ room: Room) {
        room.timer.fired()
        guard directory.room(named: room.name) === room else { return }
        let now = MonotonicClock.now()
        publish(room.match.advance(to: now), in: room, id: nil, at: now)
        finishEvent()
    }

    /// Takes a closing connection out of its room: a player keeps the seat for the grace period.
    func detachFromRoom(_ connection: Connection) {
        let now = MonotonicClock.now()
        switch connection.place {
        case .lobby:
            break
        case .watching(let room):
            room.spectators[connection.id] = nil
            settle(room, at: now)
        case .seated(let room, let seat):
            guard room.seatConnections[seat.index] === connection else { break }
            room.seatConnections[seat.index] = nil
            let states = (try? room.match.disconnect(seat: seat, at: now)) ?? []
            publish(states, in: room, id: nil, at: now)
        }
        connection.place = .lobby
    }

    private func describe(_ state: PublicState) -> String {
        let names = state.players.map { $0?.name ?? "-" }
        let scores = state.players.map { String($0?.score ?? 0) }.joined(separator: ":")
        switch state.outcome {
        case .win(let seat)?: return "\(names[seat.index]) won \(scores)"
        case .draw?: return "draw \(scores)"
        case nil: return "ended"
        }
    }
}
