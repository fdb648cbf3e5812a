import PairsRules
import PairsTournament
import PairsWire

/// Tournaments: the requests about them, the director's actions carried out in rooms, and the results of
/// their games reported back.
///
/// A tournament runs on the shard that made it; a request about it from another shard hands the connection
/// there, so its entrants, watchers and game rooms are all on one shard and a flip never crosses loops.
/// Every input (a request, a game's end, a dropped connection, a deadline) ends with at most one
/// `tournament` message to everyone following it, however many changes it made.
extension Lobby {
    // MARK: Requests

    /// `rating` is the rating the store gave for a `join` that waited for it (`ratingFound`).
    func handleTournament(_ request: TournamentRequest, from client: Client, request whole: Request, at now: Moment, rating: Int? = nil) {
        let id = whole.id
        switch request {
        case .create(let creation):
            createTournament(creation, by: client, id: id, at: now)
        case .list:
            let list = TournamentList(tournaments: directory.shared.tournamentSummaries(), id: id)
            for line in LongAnswers.lines(.tournaments(list)) { send(line, to: client) }
        case .join(let name, _), .leave(let name), .start(let name), .watch(let name, _):
            if case .lobby = client.place {} else if case .join = request {
                return refuse(.alreadyInRoom, "leave your room first: the tournament seats you in its games' rooms", id: id, to: client)
            } else if case .watch = request {
                return refuse(.alreadyInRoom, "leave your room first", id: id, to: client)
            }
            guard let tournament = hostedTournament(named: name, for: client, request: whole) else { return }
            do {
                switch request {
                case .join:
                    var entering = rating
                    if entering == nil { entering = try knownRating(of: client, for: tournament) }
                    guard let entering else { return askRating(of: client, for: tournament, request: whole) }
                    try joinTournament(tournament, client, rating: entering, at: now)
                case .leave: try leaveTournament(tournament, client, at: now)
                case .start: perform(try tournament.director.start(by: client.name, at: now), of: tournament, at: now)
                default: tournament.watchers[client.id] = client
                }
            } catch {
                refuse(error.code, error.explanation(of: tournament.name, by: client.name), id: id, to: client)
                return finishInput(of: tournament, at: now)
            }
            let own = tournament.players[client.name] === client ? client.name : nil
            switch request {
            case .join(_, let standings), .watch(_, let standings):
                tournament.followedStandings[Follower(client, entrant: own)] = standings
            default: break
            }
            let view = tournament.view(at: now, id: id)
            for line in LongAnswers.lines(.tournament(followed(view, by: client, own: own, in: tournament))) { send(line, to: client) }
            finishInput(of: tournament, at: now, answered: client)
        }
    }

    /// `view` as `client` asked to follow it: whole, or trimmed to the standings count it gave.
    /// `own` is the entrant's name it plays under, nil for a watcher.
    private func followed(_ view: TournamentView, by client: Client, own: String?, in tournament: HostedTournament) -> TournamentView {
        guard let top = tournament.followedStandings[Follower(client, entrant: own)] else { return view }
        return view.following(top: top, own: own)
    }

    /// The tournament `name` if this shard runs it; else the connection is handed to the shard that does
    /// (or told it must leave its room first, or that there is no such tournament), and nil.
    private func hostedTournament(named name: String, for client: Client, request: Request) -> HostedTournament? {
        if let tournament = tournaments[name] { return tournament }
        guard let shard = directory.shared.shard(ofTournament: name), shard != directory.shard else {
            refuse(.noSuchTournament, "no tournament is called \(name)", id: request.id, to: client)
            return nil
        }
        // Only a connection in no room moves between shards: nothing of a room travels.
        guard case .lobby = client.place else {
            refuse(.alreadyInRoom, "leave your room first: tournament \(name) is run elsewhere on the server", id: request.id, to: client)
            return nil
        }
        handOff(client, request, to: shard)
        return nil
    }

    private func createTournament(_ creation: TournamentCreation, by client: Client, id: RequestID?, at now: Moment) {
        guard let rules = rules(creation.rules, for: client, id: id) else { return }
        guard rules.variant.seats != .one else {
            return refuse(.badFormat, "a tournament's games have two players: the server's default rules are solo, so say seats 2", id: id, to: client)
        }
        let hosting = configuration.tournaments
        let director = TournamentDirector(configuration: hosting.configuration(for: creation, rules: rules), creator: client.name)
        let tournament = HostedTournament(creation: creation, director: director,
                                          key: HostedTournament.newKey(for: creation.name, using: &random), at: now)
        switch directory.shared.claimTournament(tournament.summary, on: directory.shard, address: client.address, limits: hosting) {
        case .claimed:
            break
        case .exists:
            return refuse(.tournamentExists, "a tournament is called \(creation.name) already: join it, or pick another name", id: id, to: client)
        case .serverFull(let most):
            return refuse(.tooManyTournaments, "the server holds \(most) tournaments, the most it keeps: join one, or wait for one to end",
                          id: id, to: client)
        case .addressFull(let most):
            return refuse(.tooManyTournaments, "your address has \(most) tournaments not yet over, the most it may make", id: id, to: client)
        }
        tournaments[creation.name] = tournament
        tournament.filed = tournament.summary
        log(.info, .tournament(name: creation.name, status: tournament.phase.rawValue, entrants: 0))
        for line in LongAnswers.lines(.tournament(tournament.view(at: now, id: id))) { send(line, to: client) }
        finishInput(of: tournament, at: now, answered: client)
    }

    /// The rating `client` enters `tournament` with when the store need not be asked: the default for a
    /// name that is not proven (only claimed names are rated), on a server that keeps nothing, or for an
    /// entrant already in (whose rating the director has). Nil when the store is to be asked; throws at
    /// once what the director would refuse the join with, so a refusal waits for nothing.
    private func knownRating(of client: Client, for tournament: HostedTournament) throws(TournamentError) -> Int? {
        let isNew = try tournament.director.admitsNewEntrant(client.name, claimed: client.hasProvenName)
        guard isNew, configuration.keepsGames, client.hasProvenName else { return configuration.tournaments.rating }
        return nil
    }

    /// Holds the `join` (and the client's requests after it) until the store says the entrant's rating on
    /// the ladder of the tournament's rules.
    private func askRating(of client: Client, for tournament: HostedTournament, request: Request) {
        client.awaitedRating = request
        let ladder = RulesJSON.ladder(of: tournament.director.configuration.rules.variant)
        append(.lookUpRating(RatingLookup(connection: client.id, name: client.name, ladder: ladder)))
    }

    /// The store's word on an entrant's rating (nil: none, or the store failed or was too slow; the entrant
    /// then counts at the default): the `join` that waited for it is carried out with it, then the requests
    /// that waited behind it.
    public func ratingFound(_ lookup: RatingLookup, _ rating: Int?, at now: Moment) {
        guard let client = clients[lookup.connection], let request = client.awaitedRating else { return }
        client.awaitedRating = nil
        if case .tournament(let asked) = request.message {
            handleTournament(asked, from: client, request: request, at: now, rating: rating ?? configuration.tournaments.rating)
        }
        handleDeferred(of: client, at: now)
    }

    private func joinTournament(_ tournament: HostedTournament, _ client: Client, rating: Int, at now: Moment) throws(TournamentError) {
        let name = client.name
        if let current = tournament.players[name], current !== client, isLive(current) { throw .alreadyEntered }
        do {
            let actions = try tournament.director.join(name, rating: rating, claimed: client.hasProvenName, at: now)
            tournament.players[name] = client
            perform(actions, of: tournament, at: now)
        } catch .alreadyEntered where tournament.players[name] !== client {
            // An entrant back on a new connection (theirs dropped, or moved on): it takes their place, and
            // the seat of a game made while they were away.
            tournament.players[name] = client
            seatLateEntrant(name, of: tournament, at: now)
        }
    }

    private func leaveTournament(_ tournament: HostedTournament, _ client: Client, at now: Moment) throws(TournamentError) {
        let name = client.name
        perform(try tournament.director.leave(name, at: now), of: tournament, at: now)
        tournament.players[name] = nil
        // A game of theirs in progress is forfeited as a room's is when its player leaves.
        for (_, room) in tournament.rooms.sorted(by: { $0.key < $1.key }) {
            guard let seat = room.tournamentGame?.seat(of: name), room.match.playerName(in: seat) != nil else { continue }
            if let seated = room.seatClients[seat.index], seated.room === room {
                leave(seated, id: nil, at: now)
            } else {
                publish((try? room.match.leave(seat: seat, at: now)) ?? [], in: room, id: nil, at: now)
            }
        }
    }

    // MARK: The director's actions

    /// Carries out what the director asked, in order, and notes that followers are to be told.
    func perform(_ actions: [TournamentAction], of tournament: HostedTournament, at now: Moment) {
        for action in actions {
            switch action {
            case .startGame(let pairing, let rules, _):
                startGame(pairing, rules: rules, of: tournament, at: now)
            case .roundStarted(_, _, let bye):
                tournament.bye = bye
                if tournament.startedAt == nil { tournament.startedAt = now }
            case .finished:
                tournament.finishedAt = now
                // Behind its last game's record, so a restart never finds standings without their games.
                if configuration.keepsGames { append(.recordTournament(tournament.finished(at: now))) }
            case .standingsChanged, .withdrawn, .paused, .timeUp:
                break
            }
            tournament.changed = true
        }
    }

    /// Makes the game's room, named after the tournament, and seats its players who are here.
    private func startGame(_ pairing: Pairing, rules: RuleSet, of tournament: HostedTournament, at now: Moment) {
        let base = HostedTournament.roomName(of: tournament.name, game: pairing.game)
        // A player may have made a room of that name: then the game takes the next free suffix.
        var room: Room?
        for attempt in 1...Self.roomNameAttempts where room == nil {
            let name = attempt == 1 ? base : "\(base)-\(attempt)"
            if case .claimed(let claimed) = directory.shared.claimRoom(named: name, on: directory.shard, address: Self.tournamentAddress) {
                room = openRoom(named: claimed, quickMatch: false, rules: rules)
            }
        }
        guard let room else {
            return perform((try? tournament.director.gameNeverStarted(pairing.game, at: now)) ?? [], of: tournament, at: now)
        }
        if tournament.startedAt == nil { tournament.startedAt = now }
        room.tournamentGame = TournamentGameRef(tournament: tournament.name, key: tournament.key, game: pairing.game, names: pairing.seats)
        tournament.rooms[pairing.game] = room
        for name in pairing.seats { seat(name, of: tournament, in: room, at: now) }
    }

    /// Names tried for a game's room (`cup-3`, `cup-3-2`, ...) before the game is given up as never started.
    static let roomNameAttempts = 4
    /// What the seat limits count a tournament's rooms under: no client's address.
    static let tournamentAddress = "tournament"

    /// Puts entrant `name`, if their connection is here, in the seat of `room` their pairing gives them,
    /// taking them out of any room they are in (as `leave` would).
    private func seat(_ name: String, of tournament: HostedTournament, in room: Room, at now: Moment) {
        guard let client = tournament.players[name], isLive(client), let ref = room.tournamentGame else { return }
        if client.room != nil { leave(client, id: nil, at: now) }
        guard case .lobby = client.place, let wanted = ref.names.firstIndex(of: name), room.match.freeSeat != nil else { return }
        sit(client, in: room, id: nil, at: now)
        guard case .seated(let seated, let seat) = client.place, seated === room else { return }
        if seat.index != wanted { room.tournamentGame?.names.swapAt(seat.index, wanted) }
        tournament.director.seated(name, in: ref.game, at: now)
    }

    /// An entrant back on a new connection: seated in a game of theirs that is waiting for them.
    private func seatLateEntrant(_ name: String, of tournament: HostedTournament, at now: Moment) {
        for pairing in tournament.director.currentPairings where pairing.seats.contains(name) {
            guard let room = tournament.rooms[pairing.game], room.match.game == 0,
                  !room.match.seats.contains(where: { room.match.playerName(in: $0) == name }) else { continue }
            seat(name, of: tournament, in: room, at: now)
        }
    }

    // MARK: What rooms and connections report

    /// The states of a tournament game's room: a game that ends (or is given up before it began) is
    /// reported to the director, as its result.
    func noteTournamentStates(_ states: [PublicState], in room: Room, at now: Moment) {
        guard let ref = room.tournamentGame, let tournament = tournaments[ref.tournament] else { return }
        for state in states {
            guard case .reconnect(let seat) = state.event, let client = room.seatClients[seat.index] else { continue }
            reconnected(ref.names[seat.index], on: client, to: tournament, at: now)
        }
        guard tournament.rooms[ref.game] === room else { return }
        for state in states {
            guard let result = result(of: state, in: room, ref: ref) else { continue }
            tournament.rooms[ref.game] = nil
            perform((try? tournament.director.gameEnded(ref.game, result, at: now)) ?? [], of: tournament, at: now)
            return finishInput(of: tournament, at: now)
        }
    }

    /// An entrant took their seat back with `resume`: the new connection is theirs for the tournament too,
    /// and an arena that paused them at the drop takes them back.
    private func reconnected(_ name: String, on client: Client, to tournament: HostedTournament, at now: Moment) {
        tournament.players[name] = client
        if let actions = try? tournament.director.join(name, rating: configuration.tournaments.rating, claimed: client.hasProvenName, at: now) {
            perform(actions, of: tournament, at: now)
        }
        finishInput(of: tournament, at: now)
    }

    /// The tournament result a state brings, if it ends the game.
    private func result(of state: PublicState, in room: Room, ref: TournamentGameRef) -> TournamentGameResult? {
        switch state.event {
        case .forfeit(let seat, .timeouts):
            // Lost on the turn clock: played, so a win for the other.
            return .won(by: ref.names[1 - seat.index])
        case .forfeit(let seat, _):
            return .forfeited(by: [ref.names[seat.index]])
        case let event where event.endsGame:
            switch state.outcome {
            case .win(let seat)?: return .won(by: ref.names[seat.index])
            default: return .draw
            }
        case .leave(let seat) where room.match.game == 0:
            // Gone before the game began (left, or dropped with nobody else at the table): a forfeit.
            return .forfeited(by: [ref.names[seat.index]])
        default:
            return nil
        }
    }

    /// A connection left this shard for good: a watcher stops watching; an entrant's arena pauses them (a
    /// Swiss waits: their game's grace period, or its start, decides).
    func tournamentConnectionGone(_ client: Client, at now: Moment) {
        for tournament in tournaments.values {
            tournament.watchers[client.id] = nil
            for (name, entrant) in tournament.players where entrant === client {
                tournament.players[name] = nil
                perform(tournament.director.disconnected(name, at: now), of: tournament, at: now)
                finishInput(of: tournament, at: now)
            }
        }
    }

    // MARK: Time

    /// Carries out what fell due in the tournaments by `now`: games not started in time, rounds, arena
    /// pairings, ends, and finished tournaments forgotten.
    func advanceTournaments(to now: Moment) {
        guard let due = tournamentDeadline, due <= now else { return }
        for tournament in tournaments.values.sorted(by: { $0.name < $1.name }) {
            guard let deadline = tournament.deadline, deadline <= now else { continue }
            if let finishedAt = tournament.finishedAt,
               finishedAt.milliseconds(until: now) >= configuration.tournaments.keepFinishedMilliseconds {
                tournaments[tournament.name] = nil
                directory.shared.removeTournament(named: tournament.name)
                log(.info, .tournament(name: tournament.name, status: "gone", entrants: tournament.director.entrantNames.count))
                continue
            }
            perform(tournament.director.advance(to: now), of: tournament, at: now)
            closeUnplayedRooms(of: tournament, at: now)
            finishInput(of: tournament, at: now)
        }
        refreshTournamentDeadlines()
    }

    /// The rooms of games the director gave up on (nobody seated in time): whoever sits there is sent back
    /// to the lobby, and the room goes.
    private func closeUnplayedRooms(of tournament: HostedTournament, at now: Moment) {
        let playing = Set(tournament.director.currentPairings.map(\.game))
        for (game, room) in tournament.rooms.sorted(by: { $0.key < $1.key }) where !playing.contains(game) {
            tournament.rooms[game] = nil
            for case let client? in room.seatClients { leave(client, id: nil, at: now) }
            if room.isAbandoned { settle(room, at: now) }
        }
    }

    /// Ends an input: a `tournament` message to every follower but `answered` (who had theirs, with its
    /// id) if it changed, at once when its status moved, else once `TournamentHosting.pushIntervalMilliseconds`
    /// have passed since the last (the change waits for that deadline, merged with whatever follows); the
    /// directory's listing brought up to date, and the tournament's next deadline.
    func finishInput(of tournament: HostedTournament, at now: Moment, answered: Client? = nil) {
        if tournament.changed, tournament.pushedStatus != tournament.phase || tournament.pushDue().map({ $0 <= now }) ?? true {
            push(tournament, at: now, except: answered)
        }
        let summary = tournament.summary
        if tournament.filed != summary {
            if tournament.filed?.status != summary.status {
                log(.info, .tournament(name: summary.name, status: summary.status.rawValue, entrants: summary.entrants))
            }
            tournament.filed = summary
            directory.shared.fileTournament(summary)
        }
        let keepUntil = tournament.finishedAt?.adding(milliseconds: configuration.tournaments.keepFinishedMilliseconds)
        tournament.deadline = [tournament.director.nextDeadline, keepUntil, tournament.pushDue()].compactMap { $0 }.min()
        refreshTournamentDeadlines()
    }

    /// The tournament as it is now to every follower but `except`: the whole message encoded once for those
    /// who follow it whole, and each trimmed one for its follower alone.
    private func push(_ tournament: HostedTournament, at now: Moment, except answered: Client?) {
        tournament.changed = false
        tournament.pushedAt = now
        tournament.pushedStatus = tournament.phase
        let view = tournament.view(at: now)
        var whole: (bytes: [UInt8], messages: Int)?
        var first = true
        // Watchers gone since they asked are forgotten here, so the asks stay as many as the followers (an
        // entrant's is kept by name, at most `TournamentLimits.maxEntrants`).
        if !tournament.followedStandings.isEmpty {
            tournament.followedStandings = tournament.followedStandings.filter { key, _ in
                if case .watcher(let id) = key { clients[id] != nil } else { true }
            }
        }
        for (client, own) in followers(of: tournament) where client !== answered {
            if tournament.followedStandings[Follower(client, entrant: own)] != nil {
                for line in LongAnswers.lines(.tournament(followed(view, by: client, own: own, in: tournament))) { send(line, to: client) }
                continue
            }
            if whole == nil {
                let lines = LongAnswers.lines(.tournament(view))
                whole = (lines.reduce(into: []) { $0 += ServerMessageEncoder.encode($1) }, lines.count)
            }
            append(.broadcast(whole!.bytes, messages: whole!.messages, to: client.id, first: first))
            first = false
        }
    }

    /// Entrants (in order of joining, with the name they entered under) and watchers (with none) with a
    /// connection here, each once; the gone are dropped.
    private func followers(of tournament: HostedTournament) -> [(client: Client, entrant: String?)] {
        var seen: Set<ConnectionID> = []
        var found: [(client: Client, entrant: String?)] = []
        for name in tournament.director.entrantNames {
            guard let client = tournament.players[name], isLive(client), seen.insert(client.id).inserted else { continue }
            found.append((client, name))
        }
        for (id, client) in tournament.watchers.sorted(by: { $0.key.value < $1.key.value }) {
            guard isLive(client) else { tournament.watchers[id] = nil; continue }
            if seen.insert(id).inserted { found.append((client, nil)) }
        }
        return found
    }

    private func refreshTournamentDeadlines() {
        tournamentDeadline = tournaments.values.compactMap(\.deadline).min()
    }

    /// Whether `client` enters or watches a tournament that is not over: it waits for the server, not idly.
    func followsTournament(_ client: Client) -> Bool {
        tournaments.values.contains { tournament in
            tournament.director.status != .finished
                && (tournament.players[client.name] === client || tournament.watchers[client.id] === client)
        }
    }

    /// Whether `client` is still this shard's connection (not closed, not handed to another shard).
    func isLive(_ client: Client) -> Bool { clients[client.id] === client }
}

extension TournamentError {
    /// The protocol's error code for this refusal.
    var code: ErrorCode {
        switch self {
        case .alreadyStarted: .tournamentStarted
        case .full: .tournamentFull
        case .alreadyEntered: .alreadyEntered
        case .notEntered: .notEntered
        case .notTheCreator: .notTheCreator
        case .tooFewPlayers: .tooFewPlayers
        case .finished: .tournamentOver
        case .claimedNamesOnly: .claimedOnly
        // Results are the lobby's own reports, never a client's request.
        case .unknownGame, .notInGame: .badField
        }
    }

    func explanation(of tournament: String, by name: String) -> String {
        switch self {
        case .alreadyStarted: "\(tournament) has started: it takes no more players"
        case .full: "\(tournament) has \(TournamentLimits.maxEntrants) players, as many as it takes"
        case .alreadyEntered: "\(name) is in \(tournament) already"
        case .notEntered: "\(name) is not in \(tournament)"
        case .notTheCreator: "only the creator of \(tournament) starts it"
        case .tooFewPlayers: "\(tournament) needs two players to start"
        case .finished: "\(tournament) is over"
        case .claimedNamesOnly: "\(tournament) takes claimed names only: say hello with your name's password"
        case .unknownGame, .notInGame: "no such game in \(tournament)"
        }
    }
}
