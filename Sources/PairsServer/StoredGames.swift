import PairsLobby
import PairsRules
import PairsStorage
import PairsWire

/// The store's shapes and the lobby's and the wire's, turned into each other in one place: a finished game
/// into the record the store keeps, and what the store reads back into the answers protocol.md describes.
/// (The store knows neither the rules nor the wire; the lobby and the wire know no SQL.)
enum StoredGames {
    /// The record the store keeps of `game`, its moments turned into wall-clock times by `wallClock`.
    static func record(of game: FinishedGame, wallClock: (Moment) -> WallClockTime) -> GameRecord {
        let summary = GameSummary(
            room: game.room,
            rules: StoredRules(json: RulesJSON.text(of: game.rules), ladder: RulesJSON.ladder(of: game.rules.variant)),
            players: game.players,
            outcome: outcome(of: game.outcome, seats: game.players.count),
            ending: ending(of: game.end),
            started: wallClock(game.started), ended: wallClock(game.ended), rated: game.isRated, tournament: game.tournament)
        let moves = game.moves.map { move in
            GameMove(milliseconds: move.milliseconds, action: action(of: move))
        }
        return GameRecord(summary: summary, deal: game.deal, moves: moves)
    }

    /// The record the store keeps of a finished `tournament`.
    static func record(of tournament: FinishedTournament, wallClock: (Moment) -> WallClockTime) -> TournamentRecord {
        TournamentRecord(
            key: tournament.key, name: tournament.name, format: tournament.format.wireName, creator: tournament.creator,
            rules: StoredRules(json: RulesJSON.text(of: tournament.rules), ladder: RulesJSON.ladder(of: tournament.rules.variant)),
            started: wallClock(tournament.started), ended: wallClock(tournament.ended), standings: tournament.standings)
    }

    private static func outcome(of outcome: Outcome, seats: Int) -> GameOutcome {
        switch outcome {
        // A solo player's win is a cleared board: the store tells it from a two-player game's win by that.
        case .win(let seat): seats == 1 ? .soloCleared : .won(seat: seat.index)
        case .draw: .draw
        case .loss: .soloLost
        }
    }

    private static func ending(of end: GameEnd) -> GameEnding {
        switch end {
        case .cleared: .cleared
        case .forfeit(let reason): .forfeit(storedReason(reason))
        case .timeUp: .timeUp
        case .exhausted: .exhausted
        }
    }

    private static func action(of move: ReplayMove) -> MoveAction {
        let seat = move.seat.index
        switch move.action {
        case .flip(let card): return .flip(seat: seat, card: card)
        case .timeout: return .timeout(seat: seat)
        case .disconnect: return .disconnect(seat: seat)
        case .reconnect: return .reconnect(seat: seat)
        case .forfeit(let reason): return .forfeit(seat: seat, reason: storedReason(reason))
        }
    }

    private static func storedReason(_ reason: PairsRules.ForfeitReason) -> PairsStorage.ForfeitReason {
        switch reason {
        case .left: .left
        case .timeouts: .timeouts
        case .away: .away
        }
    }

    private static func reason(_ stored: PairsStorage.ForfeitReason) -> PairsRules.ForfeitReason {
        switch stored {
        case .left: .left
        case .timeouts: .timeouts
        case .away: .away
        }
    }

    // MARK: Read back

    /// A stored game's summary as `history` shows it; nil when its rules are no rules this server knows
    /// (a row written by hand, or by a future version).
    static func summary(id: GameID, of summary: GameSummary, flips: Int) -> FinishedGameSummary? {
        guard let rules = rules(ofJSON: summary.rules.json) else { return nil }
        let winner: Seat?
        switch summary.outcome {
        case .won(let seat): winner = Seat(index: seat)
        case .soloCleared: winner = .first
        case .draw, .soloLost: winner = nil
        }
        let end: GameEnd
        switch summary.ending {
        case .cleared: end = .cleared
        case .forfeit(let stored): end = .forfeit(reason(stored))
        case .timeUp: end = .timeUp
        case .exhausted: end = .exhausted
        }
        return FinishedGameSummary(
            game: id.rawValue, room: summary.room, rules: rules,
            players: summary.players,
            winner: winner, end: end, started: seconds(summary.started), ended: seconds(summary.ended), flips: flips,
            rated: summary.rated, tournament: summary.tournament)
    }

    /// A stored game in full, as `replay` shows it.
    static func replay(_ game: StoredGame, id request: RequestID?) -> GameReplay? {
        guard let summary = summary(id: game.id, of: game.record.summary, flips: game.record.flips) else { return nil }
        let moves: [ReplayMove] = game.record.moves.compactMap { move in
            let action: ReplayMove.Action
            switch move.action {
            case .flip(_, let card): action = .flip(card: card)
            case .timeout: action = .timeout
            case .disconnect: action = .disconnect
            case .reconnect: action = .reconnect
            case .forfeit(_, let stored): action = .forfeit(reason(stored))
            }
            return Seat(index: move.action.seat).map { ReplayMove(milliseconds: move.milliseconds, seat: $0, action: action) }
        }
        return GameReplay(summary: summary, deal: game.record.deal, moves: moves, id: request)
    }

    static func standing(_ record: RatingRecord) -> LadderStanding {
        LadderStanding(name: record.name, rating: record.rating, deviation: record.deviation, provisional: record.isProvisional,
                       games: record.games, wins: record.wins, losses: record.losses, draws: record.draws)
    }

    static func standing(_ record: SoloRecord) -> SoloStanding {
        SoloStanding(name: record.name, played: record.played, cleared: record.cleared,
                     bestMilliseconds: record.bestMilliseconds, fewestFlips: record.fewestFlips)
    }

    /// The rules a stored game's JSON text holds.
    private static func rules(ofJSON json: String) -> RuleSet? {
        guard let object = try? JSONParser.parse(Array(json.utf8)).objectValue,
              let choices = try? RequestDecoder.ruleChoices(in: object) else { return nil }
        return try? choices.rules(over: .standard)
    }

    /// A time as the answers give it: ISO 8601 UTC to the second, as protocol.md promises.
    private static func seconds(_ time: WallClockTime) -> String {
        let full = time.iso8601
        guard let dot = full.lastIndex(of: ".") else { return full }
        return String(full[..<dot]) + "Z"
    }
}
