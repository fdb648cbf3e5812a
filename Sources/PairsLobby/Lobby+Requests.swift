import PairsRules
import PairsWire

/// What each request does.
extension Lobby {
    func handle(_ request: Request, from client: Client, at now: Moment) {
        let id = request.id
        if case .leave = request.message { client.lastRequestWasLeave = true } else { client.lastRequestWasLeave = false }
        switch request.message {
        case .hello(let name, let password, let followsRedirects):
            client.followsRedirects = followsRedirects
            hello(name, password: password, from: client, id: id, at: now)
        case .join(let join):
            self.join(join, from: client, request: request, at: now)
        case .flip(let card):
            play(client, id: id, at: now) { match, seat throws(MoveError) in
                let states = try match.flip(card: card, by: seat, at: now)
                counters.flips += 1
                return states
            }
        case .rematch:
            if client.room?.tournamentGame != nil {
                return refuse(.notPlaying, "a tournament game is played once: the tournament pairs the next", id: id, to: client)
            }
            play(client, id: id, at: now) { match, seat throws(MoveError) in
                try match.requestRematch(by: seat, at: now)
            }
        case .leave:
            leave(client, id: id, at: now)
        case .say(let text):
            say(text, from: client, id: id)
        case .watch(let name):
            watch(name, from: client, request: request, at: now)
        case .list(let query):
            list(query, for: client, id: id)
        case .resume(let token):
            resume(token, from: client, request: request, at: now)
        case .ping:
            send(.pong(id: id), to: client)
        case .stats:
            var stats = statistics(at: now)
            stats.id = id
            append(.sendStatistics(stats, to: client.id))
        case .help:
            send(.help(lines: TextCommand.usage, id: id), to: client)
        case .quit:
            close(client, .quit, at: now)
        case .history(let query):
            guard keepsGames(for: client, id: id) else { return }
            var ladder: String?
            if let choices = query.rules {
                guard let rules = rules(choices, for: client, id: id) else { return }
                ladder = RulesJSON.ladder(of: rules.variant)
            }
            append(.query(.history(name: query.name, ladder: ladder, tournament: query.tournament,
                                   limit: query.limit ?? StorageLimits.defaultLimit,
                                   before: query.before), request: id, to: client.id))
        case .replay(let game):
            guard keepsGames(for: client, id: id) else { return }
            append(.query(.replay(game: game), request: id, to: client.id))
        case .leaderboard(let query):
            guard keepsGames(for: client, id: id), let rules = rules(query.rules ?? RuleChoices(), for: client, id: id) else { return }
            append(.query(.leaderboard(variant: rules.variant, limit: query.limit ?? StorageLimits.defaultLimit,
                                       soloBy: query.by ?? .time), request: id, to: client.id))
        case .profile(let name, let tournament):
            guard keepsGames(for: client, id: id) else { return }
            append(.query(.profile(name: name, tournament: tournament), request: id, to: client.id))
        case .tournament(let tournamentRequest):
            handleTournament(tournamentRequest, from: client, request: request, at: now)
        }
    }

    /// Sets the name a connection goes by. Without a store there are no claimed names: the name is set at
    /// once. With one, the store says first whether someone has the name (and, with a password, claims or
    /// proves it); the connection's later requests wait for that answer (`nameChecked`).
    private func hello(_ name: String, password: String?, from client: Client, id: RequestID?, at now: Moment) {
        guard configuration.keepsGames else {
            guard password == nil else {
                return refuse(.noStorage, "this server keeps nothing (started with --data none): names cannot be claimed", id: id, to: client)
            }
            client.name = name
            return send(.welcome(Welcome(server: serverName, session: client.id.description, hint: hint, name: name, id: id)), to: client)
        }
        let address = Self.address(ofPeer: client.peer)
        if password != nil, case .wait(let until, let scope) = directory.shared.admitPassword(name: name, address: address, at: now) {
            // Refused unchecked: no hash is computed, and the count does not grow.
            let seconds = Int((now.milliseconds(until: until) + 999) / 1000)
            let because = scope == .address ? "from your address" : "for \(name)"
            return refuse(.tooManyGuesses, "too many wrong passwords \(because); try again in \(seconds) s", id: id, to: client,
                          retryAfterSeconds: seconds)
        }
        client.pendingHello = (name, password != nil, id)
        let delay = password == nil ? 0 : PasswordThrottle.delay(afterFailures: client.failedPasswords)
        append(.checkName(NameLookup(connection: client.id, name: name, password: password, delayMilliseconds: delay, address: address)))
    }

    /// A page of the room list, read from where `query.after` left off: work in proportion to the page,
    /// whatever the number of rooms. `next` points past the last room shown when more follow (or when the
    /// line limit left some of the page out).
    private func list(_ query: ListQuery, for client: Client, id: RequestID?) {
        let page = directory.shared.page(after: query.after.map(RoomListingKey.init), limit: query.limit ?? ListLimits.defaultLimit)
        // This shard's rooms as they are; other shards' as they were last filed (a reveal shows as playing).
        var keys: [RoomListingKey] = []
        var summaries: [RoomSummary] = []
        keys.reserveCapacity(page.rooms.count)
        summaries.reserveCapacity(page.rooms.count)
        for entry in page.rooms {
            let live = entry.shard == directory.shard ? directory.room(named: entry.key.name)?.summary : nil
            guard let summary = live ?? entry.summary else { continue }
            keys.append(entry.key)
            summaries.append(summary)
        }
        var list = RoomList.fitting(summaries, total: page.total, id: id)
        let shown = max(list.rooms.count, 1)
        if page.more || shown < keys.count, let last = keys.prefix(shown).last {
            list.next = last.cursor
        }
        send(.rooms(list), to: client)
    }

    /// Whether the server keeps games; if not, the client is told so.
    private func keepsGames(for client: Client, id: RequestID?) -> Bool {
        guard configuration.keepsGames else {
            refuse(.noStorage, "this server keeps nothing (started with --data none): no history, replays or ratings", id: id, to: client)
            return false
        }
        return true
    }

    /// The rules `choices` make over the server's defaults, or nil when they do not fit (the client is told).
    func rules(_ choices: RuleChoices, for client: Client, id: RequestID?) -> RuleSet? {
        do {
            return try choices.rules(over: configuration.defaultRules)
        } catch {
            refuse(.badField, error.description, id: id, to: client)
            return nil
        }
    }

    /// Runs a move of the client's seat on its room's match and publishes what it produced.
    private func play(
        _ client: Client, id: RequestID?, at now: Moment,
        _ move: (inout Match, Seat) throws(MoveError) -> [PublicState]
    ) {
        switch client.place {
        case .lobby:
            refuse(.notInRoom, "join a room first", id: id, to: client)
        case .watching:
            refuse(.notAPlayer, "spectators cannot play", id: id, to: client)
        case .seated(let room, let seat):
            do {
                let states = try move(&room.match, seat)
                publish(states, in: room, id: id, at: now, requester: client)
            } catch {
                refuse(error.code, error.description, id: id, to: client)
            }
        }
    }

    private func join(_ join: JoinRequest, from client: Client, request: Request, at now: Moment) {
        let id = request.id
        guard case .lobby = client.place else {
            return refuse(.alreadyInRoom, "leave your room first", id: id, to: client)
        }
        // A room that exists is joined with its rules, whatever was asked, on the shard that holds it.
        if let name = join.room {
            if let room = directory.room(named: name) {
                guard room.tournamentGame == nil else {
                    return refuse(.roomFull, "room \(name) holds a tournament game: its seats are its players'; you can watch it", id: id, to: client)
                }
                return sit(client, in: room, id: id, at: now)
            }
            if let shard = directory.shared.shard(ofRoom: name), shard != directory.shard {
                return handOff(client, request, to: shard)
            }
            if clusterClaims.isClaiming(name) { return awaitClaim(of: name, by: client, request: request) }
        }
        // The rules count only where the join makes a room (or picks a quick match).
        guard let rules = rules(join.rules, for: client, id: id) else { return }
        // A quick match fills a waiting room when there is one; every other join without a room makes one.
        // Finding a room and claiming a new one are one step in the shared directory, so racing shards end
        // up in one room.
        let claim: LobbyDirectory.Claim
        let isQuickMatch = join.room == nil && rules.variant.seats != .one
        if let name = join.room {
            claim = directory.shared.claimRoom(named: name, on: directory.shard, address: client.address)
        } else if !isQuickMatch {
            // A solo game needs nobody else: a room of its own, at once, which nobody else can join.
            claim = directory.shared.claimNewRoom(prefix: "solo", on: directory.shard, address: client.address)
        } else {
            claim = directory.shared.claimNewRoom(prefix: "quick", on: directory.shard, address: client.address, waitingFor: rules)
        }
        switch claim {
        case .claimed(let name) where join.room != nil && directory.shared.cluster != nil:
            // A name of the client's: another instance may own it, and the cluster says which first.
            claimFromCluster(name, rules: rules, for: client, request: request)
        case .claimed(let name) where isQuickMatch && quickMatchesAcrossInstances(client):
            // Nobody waits here: perhaps on another instance (Lobby+QuickCluster.swift).
            askQuickMatch(name, rules: rules, for: client, request: request)
        case .claimed(let name):
            sit(client, in: openRoom(named: name, quickMatch: isQuickMatch, rules: rules), id: id, at: now)
        case .elsewhere(let name, let shard):
            guard shard == directory.shard else { return handOff(client, request, to: shard) }
            guard let room = directory.room(named: name) else {
                // A quick room whose name waits for the cluster's word: this join waits for it too.
                if clusterClaims.isClaiming(name) { return awaitClaim(of: name, by: client, request: request) }
                // A name this shard claimed is otherwise made into a room in the same call: never reached.
                return refuse(.noSuchRoom, "no room is called \(name)", id: id, to: client)
            }
            if isQuickMatch { return sitInQuickRoom(client, in: room, request: request, at: now) }
            sit(client, in: room, id: id, at: now)
        case .refused(let forAddress, let inAll):
            refuse(.tooManyRooms, "no new room now: players who dropped hold \(forAddress) seats "
                   + "for your address and \(inAll) in all, the most the server keeps; resume one of them, "
                   + "join a room that exists, or wait for them to expire", id: id, to: client)
        }
    }

    /// Seats the client in a free seat of `room`, on this shard, or says the room is full.
    func sit(_ client: Client, in room: Room, id: RequestID?, at now: Moment) {
        do {
            let (seat, states) = try room.match.join(name: client.name, at: now)
            idleList.remove(client)
            client.place = .seated(room, seat)
            room.seatClients[seat.index] = client
            room.seatClaimed[seat.index] = client.hasProvenName
            let token = issueToken(for: seat, in: room)
            send(.joined(Joined(room: room.name, seat: seat, token: token, rules: room.rules, id: id)), to: client)
            log(.info, .joined(logged(client), room: room.name, seat: seat))
            publish(states, in: room, id: id, at: now)
        } catch {
            refuse(error.code, "room \(room.name) is full; you can watch it", id: id, to: client)
        }
    }

    func watch(_ name: String, from client: Client, request: Request, at now: Moment, askingCluster: Bool = true) {
        let id = request.id
        guard case .lobby = client.place else {
            return refuse(.alreadyInRoom, "leave your room first", id: id, to: client)
        }
        guard let room = directory.room(named: name) else {
            if let shard = directory.shared.shard(ofRoom: name), shard != directory.shard {
                return handOff(client, request, to: shard)
            }
            if clusterClaims.isClaiming(name) { return awaitClaim(of: name, by: client, request: request) }
            if askingCluster, directory.shared.cluster != nil { return ask(.findRoom(name), for: client, request: request) }
            return refuse(.noSuchRoom, "no room is called \(name)", id: id, to: client)
        }
        idleList.remove(client)
        client.place = .watching(room)
        room.spectators[client.id] = Room.Spectator(client: client, name: client.name)
        send(.joined(Joined(room: room.name, seat: nil, token: nil, rules: room.rules, id: id)), to: client)
        log(.info, .watching(logged(client), room: room.name))
        if let state = room.match.currentState(at: now) {
            send(.state(StateMessage(room: room.name, spectators: room.spectators.count, state: state, rules: room.rules)), to: client)
        }
    }

    func leave(_ client: Client, id: RequestID?, at now: Moment) {
        switch client.place {
        case .lobby:
            refuse(.notInRoom, "you are not in a room", id: id, to: client)
        case .watching(let room):
            log(.info, .left(logged(client), from: .watching(room: room.name)))
            room.spectators[client.id] = nil
            returnToLobby(client, from: room, id: id)
            settle(room, at: now)
        case .seated(let room, let seat):
            log(.info, .left(logged(client), from: .seated(room: room.name, seat: seat)))
            // The leaver receives the states its leave caused, then is detached when the leave event
            // frees its seat (see `publish`).
            let states = (try? room.match.leave(seat: seat, at: now)) ?? []
            publish(states, in: room, id: id, at: now)
            returnToLobby(client, from: room, id: id)
        }
    }

    func returnToLobby(_ client: Client, from room: Room, id: RequestID?) {
        client.place = .lobby
        idleList.touch(client)
        send(.left(room: room.name, id: id), to: client)
    }

    /// Chat goes out under the name the room knows the sender by: a player's name at the table, or the name
    /// a spectator had when they started watching (with `seat` null). A `hello` in the middle of a game
    /// changes neither, so nobody can speak as someone else by renaming.
    private func say(_ text: String, from client: Client, id: RequestID?) {
        let from: String
        switch client.place {
        case .lobby:
            return refuse(.notInRoom, "join a room to chat", id: id, to: client)
        case .seated(let room, let seat):
            from = room.match.playerName(in: seat) ?? client.name
        case .watching(let room):
            from = room.spectators[client.id]?.name ?? client.name
        }
        guard let room = client.room else { return }
        let chat = ServerMessageEncoder.encode(.chat(ChatMessage(room: room.name, from: from, seat: client.seat, text: text, id: id)))
        broadcast(chat, messages: 1, in: room)
    }

    func resume(_ token: String, from client: Client, request: Request, at now: Moment, askingCluster: Bool = true) {
        let id = request.id
        guard case .lobby = client.place else {
            return refuse(.alreadyInRoom, "leave your room first", id: id, to: client)
        }
        if directory.seat(forToken: token) == nil, let shard = directory.shared.shard(ofToken: token), shard != directory.shard {
            return handOff(client, request, to: shard)
        }
        if askingCluster, directory.seat(forToken: token) == nil, directory.shared.shard(ofToken: token) == nil, directory.shared.cluster != nil {
            return ask(.findToken(token), for: client, request: request)
        }
        guard let (room, seat) = directory.seat(forToken: token), let name = room.match.playerName(in: seat) else {
            return refuse(.badToken, "that token is unknown, expired or already used", id: id, to: client)
        }
        if let previous = room.seatClients[seat.index] {
            // The player is back on a new connection before the old one was found dead: the new one wins.
            previous.place = .lobby
            close(previous, .replaced, at: now)
        }
        idleList.remove(client)
        client.place = .seated(room, seat)
        client.name = name
        room.seatClients[seat.index] = client
        let fresh = issueToken(for: seat, in: room)
        send(.joined(Joined(room: room.name, seat: seat, token: fresh, rules: room.rules, id: id)), to: client)
        log(.info, .resumed(logged(client), room: room.name, seat: seat))
        let states = (try? room.match.reconnect(seat: seat, at: now)) ?? []
        publish(states, in: room, id: id, at: now)
    }

    private func issueToken(for seat: Seat, in room: Room) -> String {
        let token = ResumeToken.generate(using: &random)
        directory.assign(token, to: seat, in: room)
        return token
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
