import PairsRecords
import PairsRules

/// One tournament's rules in motion: who has entered, who plays whom, the scores, and when things happen.
///
/// Pure, like the lobby: it reads no clock and draws no random number. Every input carries its moment; the
/// director names the next moment it must act at (`nextDeadline`) and its caller calls `advance(to:)` once
/// that moment has come. Every input returns the actions to carry out, in order (`TournamentAction`).
///
/// The caller (the lobby) reports each game it was asked to start: `seated` as each player sits down, then
/// `gameEnded`, or `gameNeverStarted` if it could not make the game at all. A player not seated by the
/// game's `startBy` forfeits it.
public struct TournamentDirector: Sendable {
    public let configuration: TournamentConfiguration
    public let creator: String
    public private(set) var status = TournamentStatus.open
    /// The current Swiss round (1-based), 0 before the first.
    public private(set) var round = 0
    /// Rounds the Swiss plays, fixed at the start; nil in an arena or before the start.
    public private(set) var rounds: Int?
    /// When an arena's time is up; nil before it starts and for a Swiss.
    public private(set) var endsAt: Moment?

    private var entrants: [String: Entrant] = [:]
    /// Entrants in order of joining, for a stable order of everything derived from `entrants`.
    private var joinOrder: [String] = []
    private var games: [TournamentGameID: GameInProgress] = [:]
    private var nextGame = 1
    /// Swiss: when the next round starts (after the break). Arena: when free players are next paired.
    private var wave: Moment?

    private struct Entrant: Sendable {
        var rating: Int
        var swiss: [SwissEntry] = []
        var arena = ArenaScore()
        /// Swiss: withdrawn; arena: paused.
        var inactive = false
        var forfeits = 0
        var playing: TournamentGameID?
        var lastOpponent: String?
        var seatBalance = 0
        var lastSeat: Int?
    }

    private struct GameInProgress: Sendable {
        var pairing: Pairing
        var startBy: Moment
        var seated: Set<String> = []
    }

    public init(configuration: TournamentConfiguration, creator: String) {
        self.configuration = configuration
        self.creator = creator
    }

    private var isSwiss: Bool { if case .swiss = configuration.format { true } else { false } }

    // MARK: Inputs

    /// A player enters, or (an arena's paused player) comes back.
    public mutating func join(_ name: String, rating: Int, claimed: Bool = true, at now: Moment) throws(TournamentError) -> [TournamentAction] {
        if let entrant = entrants[name] {
            guard !isSwiss, entrant.inactive else { throw .alreadyEntered }
            guard status == .running else { throw status == .finished ? .finished : .alreadyStarted }
            entrants[name]!.inactive = false
            var actions = [TournamentAction.standingsChanged]
            if entrant.playing == nil { actions += freed(at: now) }
            return actions
        }
        try checkNewEntrant(claimed: claimed)
        entrants[name] = Entrant(rating: rating)
        joinOrder.append(name)
        var actions = [TournamentAction.standingsChanged]
        if status == .open, case .players(let count) = configuration.start, entrants.count >= count {
            actions += begin(at: now)
        } else if status == .running {
            actions += freed(at: now)
        }
        return actions
    }

    /// Whether `name` (claimed or not) would enter as a new player now: the lobby asks before it looks the
    /// player's rating up, so a refusal is said at once. Throws what `join` would; returns true for a new
    /// entrant, false for one already entered (whose rating is known, and whom `join` may take back or
    /// refuse).
    public func admitsNewEntrant(_ name: String, claimed: Bool) throws(TournamentError) -> Bool {
        guard entrants[name] == nil else { return false }
        try checkNewEntrant(claimed: claimed)
        return true
    }

    private func checkNewEntrant(claimed: Bool) throws(TournamentError) {
        switch status {
        case .open: break
        case .running where !isSwiss: break
        case .finished: throw .finished
        default: throw .alreadyStarted
        }
        guard entrants.count < configuration.maxEntrants else { throw .full }
        guard claimed || !configuration.claimedOnly else { throw .claimedNamesOnly }
    }

    /// A player leaves: before the start they are out of it; then a Swiss player is withdrawn and an arena
    /// player paused (their game in progress is the lobby's to forfeit and report).
    public mutating func leave(_ name: String, at now: Moment) throws(TournamentError) -> [TournamentAction] {
        guard let entrant = entrants[name] else { throw .notEntered }
        switch status {
        case .finished: throw .finished
        case .open:
            entrants[name] = nil
            joinOrder.removeAll { $0 == name }
            return [.standingsChanged]
        case .running, .finishing:
            guard !entrant.inactive else { return [] }
            entrants[name]!.inactive = true
            return [isSwiss ? .withdrawn(name) : .paused(name), .standingsChanged]
        }
    }

    /// A player's connection dropped: an arena pauses them (as `leave`); a Swiss waits for the lobby's
    /// forfeits, since the player may come back within the grace period.
    public mutating func disconnected(_ name: String, at now: Moment) -> [TournamentAction] {
        guard !isSwiss, status == .running || status == .finishing, entrants[name]?.inactive == false else { return [] }
        return (try? leave(name, at: now)) ?? []
    }

    /// The creator starts the tournament.
    public mutating func start(by name: String, at now: Moment) throws(TournamentError) -> [TournamentAction] {
        guard name == creator else { throw .notTheCreator }
        guard status == .open else { throw status == .finished ? .finished : .alreadyStarted }
        guard entrants.count >= 2 else { throw .tooFewPlayers }
        return begin(at: now)
    }

    /// A player of a game took their seat.
    public mutating func seated(_ name: String, in game: TournamentGameID, at now: Moment) {
        guard games[game]?.pairing.seats.contains(name) == true else { return }
        games[game]!.seated.insert(name)
    }

    /// A game ended.
    public mutating func gameEnded(_ game: TournamentGameID, _ result: TournamentGameResult, at now: Moment) throws(TournamentError) -> [TournamentAction] {
        guard let ended = games[game] else { throw .unknownGame }
        let named: Set<String> = switch result {
        case .won(let winner): [winner]
        case .draw: []
        case .forfeited(let losers): losers
        }
        guard !named.isEmpty || result == .draw, named.isSubset(of: ended.pairing.seats) else { throw .notInGame }
        games[game] = nil
        var actions = record(ended.pairing, result)
        actions.append(.standingsChanged)
        actions += afterGame(at: now)
        return actions
    }

    /// The lobby could not make or start a game: whoever is not seated forfeits it (both, if neither is).
    public mutating func gameNeverStarted(_ game: TournamentGameID, at now: Moment) throws(TournamentError) -> [TournamentAction] {
        guard let unstarted = games[game] else { throw .unknownGame }
        return try gameEnded(game, .forfeited(by: Set(unstarted.pairing.seats).subtracting(unstarted.seated)), at: now)
    }

    /// The moment the director must next act at, if any.
    public var nextDeadline: Moment? {
        let starts = games.values.filter { $0.seated.count < 2 }.map(\.startBy)
        let end = status == .running ? endsAt : nil
        return ([wave, end].compactMap { $0 } + starts).min()
    }

    /// Does what fell due by `now`: forfeits of games not started in time, the next round, an arena's
    /// pairing wave, its end.
    public mutating func advance(to now: Moment) -> [TournamentAction] {
        var actions: [TournamentAction] = []
        for (id, game) in games.sorted(by: { $0.key < $1.key }) where game.seated.count < 2 && game.startBy <= now {
            actions += (try? gameNeverStarted(id, at: now)) ?? []
        }
        if status == .running, let endsAt, endsAt <= now {
            status = .finishing
            wave = nil
            actions.append(.timeUp)
            if games.isEmpty { actions += finish() }
        }
        if let due = wave, due <= now, status == .running {
            wave = nil
            actions += isSwiss ? startRound(at: now) : pairFree(at: now)
        }
        return actions
    }

    // MARK: What the standings and the pairings are now

    public var standings: [TournamentStanding] {
        if isSwiss {
            let entries = Dictionary(uniqueKeysWithValues: joinOrder.map { ($0, entrants[$0]!.swiss) })
            return SwissTieBreaks.standings(entries, ratings: entrants.mapValues(\.rating),
                                            withdrawn: Set(joinOrder.filter { entrants[$0]!.inactive }))
        }
        let ranked = joinOrder.sorted { a, b in
            let (x, y) = (entrants[a]!, entrants[b]!)
            if x.arena.points != y.arena.points { return x.arena.points > y.arena.points }
            if x.rating != y.rating { return x.rating > y.rating }
            return a < b
        }
        return ranked.enumerated().map { index, name in
            let entrant = entrants[name]!
            return TournamentStanding(rank: index + 1, name: name, score: QuarterPoints(points: entrant.arena.points),
                                      games: entrant.arena.games, streak: entrant.arena.wins, active: !entrant.inactive)
        }
    }

    /// The games in progress, by number.
    public var currentPairings: [Pairing] { games.values.map(\.pairing).sorted { $0.game < $1.game } }

    /// The names entered, in order of joining.
    public var entrantNames: [String] { joinOrder }

    // MARK: Running

    private mutating func begin(at now: Moment) -> [TournamentAction] {
        status = .running
        switch configuration.format {
        case .swiss(let asked):
            // No more rounds than opponents: so every player can have a bye at most once, and meet no one twice.
            rounds = min(asked ?? SwissPairing.defaultRounds(players: entrants.count), max(1, entrants.count - 1))
            return startRound(at: now)
        case .arena(let duration):
            endsAt = now.adding(milliseconds: duration)
            return pairFree(at: now)
        }
    }

    private mutating func startRound(at now: Moment) -> [TournamentAction] {
        let active = joinOrder.filter { !entrants[$0]!.inactive }
        guard active.count >= 2, round < (rounds ?? 0) else { return finish() }
        round += 1
        let players = active.map { name in
            let entrant = entrants[name]!
            return SwissPairing.Player(name: name, score: entrant.swiss.reduce(0) { $0 + $1.points }, rating: entrant.rating,
                                       opponents: Set(entrant.swiss.compactMap(\.opponent)),
                                       hadBye: entrant.swiss.contains { $0.opponent == nil },
                                       seatBalance: entrant.seatBalance, lastSeat: entrant.lastSeat)
        }
        let paired = SwissPairing.pair(players)
        var pairings: [Pairing] = []
        var actions: [TournamentAction] = []
        for seats in paired.pairs {
            let (pairing, action) = makeGame(seats, round: round, at: now)
            pairings.append(pairing)
            actions.append(action)
        }
        if let bye = paired.bye { entrants[bye]!.swiss.append(SwissEntry(opponent: nil, points: 2)) }
        return [.roundStarted(round: round, pairings: pairings, bye: paired.bye)] + actions + [.standingsChanged]
    }

    private mutating func makeGame(_ seats: [String], round: Int?, at now: Moment) -> (Pairing, TournamentAction) {
        let pairing = Pairing(game: TournamentGameID(nextGame), seats: seats, round: round)
        nextGame += 1
        let startBy = now.adding(milliseconds: configuration.startGraceMilliseconds)
        games[pairing.game] = GameInProgress(pairing: pairing, startBy: startBy)
        for (seat, name) in seats.enumerated() {
            entrants[name]!.playing = pairing.game
            entrants[name]!.seatBalance += seat == 0 ? 1 : -1
            entrants[name]!.lastSeat = seat
            entrants[name]!.lastOpponent = seats[1 - seat]
        }
        return (pairing, .startGame(pairing, rules: configuration.rules, startBy: startBy))
    }

    /// Scores a game's result for both its players; withdraws a Swiss player at their second forfeit.
    private mutating func record(_ pairing: Pairing, _ result: TournamentGameResult) -> [TournamentAction] {
        var actions: [TournamentAction] = []
        for (seat, name) in pairing.seats.enumerated() {
            let opponent = pairing.seats[1 - seat]
            entrants[name]!.playing = nil
            let halfPoints: Int
            var forfeit = false
            switch result {
            case .won(let winner): halfPoints = winner == name ? 2 : 0
            case .draw: halfPoints = 1
            case .forfeited(let losers):
                forfeit = true
                halfPoints = losers.contains(name) ? 0 : 2
                if losers.contains(name) { entrants[name]!.forfeits += 1 }
            }
            if isSwiss {
                entrants[name]!.swiss.append(SwissEntry(opponent: opponent, points: halfPoints, seat: seat, forfeit: forfeit))
                if entrants[name]!.forfeits >= 2, !entrants[name]!.inactive {
                    entrants[name]!.inactive = true
                    actions.append(.withdrawn(name))
                }
            } else {
                entrants[name]!.arena.record(halfPoints == 2 ? .win : halfPoints == 1 ? .draw : .loss)
            }
        }
        return actions
    }

    private mutating func afterGame(at now: Moment) -> [TournamentAction] {
        switch status {
        case .running where isSwiss:
            guard games.isEmpty else { return [] }
            if round >= (rounds ?? 0) { return finish() }
            wave = now.adding(milliseconds: configuration.roundBreakMilliseconds)
            return configuration.roundBreakMilliseconds == 0 ? advance(to: now) : []
        case .running:
            return freed(at: now)
        case .finishing:
            return games.isEmpty ? finish() : []
        case .open, .finished:
            return []
        }
    }

    /// An arena player became free: pair the free players within the pairing delay.
    private mutating func freed(at now: Moment) -> [TournamentAction] {
        guard !isSwiss, status == .running, wave == nil else { return [] }
        wave = now.adding(milliseconds: configuration.pairingDelayMilliseconds)
        return []
    }

    private mutating func pairFree(at now: Moment) -> [TournamentAction] {
        let free = joinOrder.compactMap { name -> ArenaPairing.Candidate? in
            let entrant = entrants[name]!
            guard !entrant.inactive, entrant.playing == nil else { return nil }
            return ArenaPairing.Candidate(name: name, score: entrant.arena.points, rating: entrant.rating,
                                          lastOpponent: entrant.lastOpponent, seatBalance: entrant.seatBalance)
        }
        return ArenaPairing.pair(free).map { makeGame($0, round: nil, at: now).1 }
    }

    private mutating func finish() -> [TournamentAction] {
        status = .finished
        wave = nil
        return [.finished(standings)]
    }
}
