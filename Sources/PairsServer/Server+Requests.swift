import PairsRules
import PairsWire

/// What each request does. Runs on the server's queue, one line at a time.
extension Server {
    func handle(line: UnsafeRawBufferPointer, from connection: Connection) {
        counters.messagesIn += 1
        let now = MonotonicClock.now()
        connection.lastActivity = now
        if connection.isInIdleList { idleList.touch(connection) }

        let request: Request?
        do {
            request = try RequestDecoder.decode(line: line)
        } catch {
            guard admit(messageFrom: connection, id: error.id, at: now) else { return }
            send(.error(error), to: connection)
            return
        }
        // A blank line is ignored but still counts against the rate, so newlines alone cannot flood.
        guard admit(messageFrom: connection, id: request?.id, at: now), let request else { return }
        handle(request, from: connection, at: now)
    }

    func handleTooLong(from connection: Connection) {
        counters.messagesIn += 1
        let now = MonotonicClock.now()
        guard admit(messageFrom: connection, id: nil, at: now) else { return }
        send(.error(RequestError(.tooLong, "a line is at most \(LineFramer.maxLineBytes) bytes; this one was dropped")), to: connection)
    }

    /// Applies the rate limit: false when the message is dropped (the client is told, or cut off once it
    /// has been told too often).
    private func admit(messageFrom connection: Connection, id: RequestID?, at now: Moment) -> Bool {
        guard connection.rateLimit?.take(at: now) == false else { return true }
        if connection.floodAllowance?.take(at: now) == false {
            schedule(close: connection, .bye(.flooding))
        } else {
            send(.error(RequestError(.rateLimited, "more than \(configuration.rateLimit) messages a second: this one was dropped", id: id)), to: connection)
        }
        return false
    }

    private func handle(_ request: Request, from connection: Connection, at now: Moment) {
        let id = request.id
        switch request.message {
        case .hello(let name):
            connection.name = name
            send(.welcome(Welcome(server: serverName, session: "c\(connection.id)", hint: hint, name: name, id: id)), to: connection)
        case .join(let join):
            self.join(join, from: connection, id: id, at: now)
        case .flip(let card):
            play(connection, id: id, at: now) { match, seat throws(MoveError) in
                let states = try match.flip(card: card, by: seat, at: now)
                counters.flips += 1
                return states
            }
        case .rematch:
            play(connection, id: id, at: now) { match, seat throws(MoveError) in
                try match.requestRematch(by: seat, at: now)
            }
        case .leave:
            leave(connection, id: id, at: now)
        case .say(let text):
            guard let room = connection.room else { return refuse(.notInRoom, "join a room to chat", id: id, to: connection) }
            var seat: Seat?
            if case .seated(_, let place) = connection.place { seat = place }
            let chat = ServerMessageEncoder.encode(.chat(ChatMessage(room: room.name, from: connection.name, seat: seat, text: text, id: id)))
            room.forEachRecipient { deliver(chat, to: $0) }
        case .watch(let name):
            watch(name, from: connection, id: id, at: now)
        case .list:
            let rooms = directory.rooms.values.sorted { lhs, rhs in
                let lhsOpen = lhs.match.freeSeat != nil, rhsOpen = rhs.match.freeSeat != nil
                return lhsOpen != rhsOpen ? lhsOpen : lhs.name < rhs.name
            }
            send(.rooms(RoomList.fitting(rooms.lazy.map(\.summary), total: rooms.count, id: id)), to: connection)
        case .resume(let token):
            resume(token, from: connection, id: id, at: now)
        case .ping:
            send(.pong(id: id), to: connection)
        case .stats:
            send(.stats(currentStatistics(id: id)), to: connection)
        case .help:
            send(.help(lines: TextCommand.usage, id: id), to: connection)
        case .quit:
            schedule(close: connection, .byeAfterFlush(.quit))
        }
    }

    func refuse(_ code: ErrorCode, _ message: String, id: RequestID?, to connection: Connection) {
        send(.error(RequestError(code, message, id: id)), to: connection)
    }

    /// Runs a move of the connection's seat on its room's match and broadcasts what it produced.
    private func play(
        _ connection: Connection, id: RequestID?, at now: Moment,
        _ move: (inout Match, Seat) throws(MoveError) -> [PublicState]
    ) {
        switch connection.place {
        case .lobby:
            refuse(.notInRoom, "join a room first", id: id, to: connection)
        case .watching:
            refuse(.notAPlayer, "spectators cannot play", id: id, to: connection)
        case .seated(let room, let seat):
            do {
                let states = try move(&room.match, seat)
                publish(states, in: room, id: id, at: now, requester: connection)
            } catch {
                refuse(error.code, error.description, id: id, to: connection)
            }
        }
    }

    private func join(_ join: JoinRequest, from connection: Connection, id: RequestID?, at now: Moment) {
        guard case .lobby = connection.place else {
            return refuse(.alreadyInRoom, "leave your room first", id: id, to: connection)
        }
        let options = join.options(over: configuration.defaultOptions)
        let room: Room
        if let name = join.room {
            if let existing = directory.room(named: name) {
                room = existing
            } else {
                room = openRoom(named: name, quickMatch: false, options: options)
            }
        } else if let waiting = directory.waitingQuickMatchRoom(for: options) {
            room = waiting
        } else {
            room = openRoom(named: directory.newQuickMatchName(), quickMatch: true, options: options)
        }
        do {
            let (seat, states) = try room.match.join(name: connection.name, at: now)
            idleList.remove(connection)
            connection.place = .seated(room, seat)
            room.seatConnections[seat.index] = connection
            let token = directory.issueToken(for: seat, in: room)
            send(.joined(Joined(room: room.name, seat: seat, token: token, id: id)), to: connection)
            publish(states, in: room, id: id, at: now)
        } catch {
            refuse(error.code, "room \(room.name) is full; you can watch it", id: id, to: connection)
        }
    }

    private func watch(_ name: String, from connection: Connection, id: RequestID?, at now: Moment) {
        guard case .lobby = connection.place else {
            return refuse(.alreadyInRoom, "leave your room first", id: id, to: connection)
        }
        guard let room = directory.room(named: name) else {
            return refuse(.noSuchRoom, "no room is called \(name)", id: id, to: connection)
        }
        idleList.remove(connection)
        connection.place = .watching(room)
        room.spectators[connection.id] = connection
        send(.joined(Joined(room: room.name, seat: nil, token: nil, id: id)), to: connection)
        if let state = room.match.currentState(at: now) {
            send(.state(StateMessage(room: room.name, spectators: room.spectators.count, state: state)), to: connection)
        }
    }

    private func leave(_ connection: Connection, id: RequestID?, at now: Moment) {
        switch connection.place {
        case .lobby:
            refuse(.notInRoom, "you are not in a room", id: id, to: connection)
        case .watching(let room):
            room.spectators[connection.id] = nil
            returnToLobby(connection, from: room, id: id)
            settle(room, at: now)
        case .seated(let room, let seat):
            // The leaver receives the states its leave caused, then is detached when the leave event
            // frees its seat (see `publish`).
            let states = (try? room.match.leave(seat: seat, at: now)) ?? []
            publish(states, in: room, id: id, at: now)
            returnToLobby(connection, from: room, id: id)
        }
    }

    private func returnToLobby(_ connection: Connection, from room: Room, id: RequestID?) {
        connection.place = .lobby
        idleList.touch(connection)
        send(.left(room: room.name, id: id), to: connection)
    }

    private func resume(_ token: String, from connection: Connection, id: RequestID?, at now: Moment) {
        guard case .lobby = connection.place else {
            return refuse(.alreadyInRoom, "leave your room first", id: id, to: connection)
        }
        guard let (room, seat) = directory.seat(forToken: token), room.match.playerName(in: seat) != nil else {
            return refuse(.badToken, "that token is unknown, expired or already used", id: id, to: connection)
        }
        if let previous = room.seatConnections[seat.index] {
            // The player is back on a new connection before the old one was found dead: the new one wins.
            previous.place = .lobby
            schedule(close: previous, .bye(.replaced))
        }
        idleList.remove(connection)
        connection.place = .seated(room, seat)
        if let name = room.match.playerName(in: seat) { connection.name = name }
        room.seatConnections[seat.index] = connection
        let fresh = directory.issueToken(for: seat, in: room)
        send(.joined(Joined(room: room.name, seat: seat, token: fresh, id: id)), to: connection)
        let states = (try? room.match.reconnect(seat: seat, at: now)) ?? []
        publish(states, in: room, id: id, at: now)
        log.info("room \(room.name): \(connection.name) resumed seat \(seat.index)")
    }
}

extension MoveError {
    /// The protocol's error code for this refusal.
    var code: ErrorCode {
        switch self {
        case .notYourTurn: .notYourTurn
        case .notPlaying, .gameNotOver: .notPlaying
        case .cardOutOfRange, .cardNotFaceDown: .badCard
        case .rematchAlreadyRequested: .rematchPending
        case .roomFull: .roomFull
        case .seatEmpty: .notInRoom
        }
    }
}
