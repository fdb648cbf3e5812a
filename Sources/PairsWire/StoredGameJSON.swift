import PairsRules

/// How the answers about finished games write their parts: a game's summary, its moves, a standing on a
/// ladder. Shared by `history`, `replay`, `leaderboard` and `profile`, which show the same parts.
enum StoredGameJSON {
    /// A summary as an object of its own (an entry of `history` or `profile`).
    static func write(_ game: FinishedGameSummary, to w: inout JSONWriter) {
        w.beginObject()
        writeFields(of: game, to: &w)
        w.endObject()
    }

    /// A summary's fields, inside an object the caller opened (a `replay` line).
    static func writeFields(of game: FinishedGameSummary, to w: inout JSONWriter) {
        w.key("game"); w.integer(game.game)
        w.key("room"); w.string(game.room)
        w.key("rules"); RulesJSON.write(game.rules, to: &w)
        w.key("players"); w.beginArray()
        for player in game.players {
            w.beginObject()
            w.key("name"); w.string(player.name)
            w.key("score"); w.integer(player.score)
            w.key("claimed"); w.bool(player.claimed)
            w.endObject()
        }
        w.endArray()
        w.key("winner"); if let winner = game.winner { w.integer(winner.index) } else { w.null() }
        switch game.end {
        case .cleared: w.key("end"); w.string("cleared")
        case .forfeit(let reason): w.key("end"); w.string("forfeit"); w.key("forfeit_reason"); w.string(reason.wireName)
        case .timeUp: w.key("end"); w.string("time_up")
        case .exhausted: w.key("end"); w.string("exhausted")
        }
        w.key("started"); w.string(game.started)
        w.key("ended"); w.string(game.ended)
        w.key("flips"); w.integer(game.flips)
        w.key("rated"); w.bool(game.rated)
        if let tournament = game.tournament { w.key("tournament"); w.string(tournament) }
    }

    /// Moves as an array: `{"ms":1200,"seat":0,"kind":"flip","card":5}`, and `reason` for a forfeit.
    static func write(_ moves: [ReplayMove], to w: inout JSONWriter) {
        w.beginArray()
        for move in moves {
            w.beginObject()
            w.key("ms"); w.integer(move.milliseconds)
            w.key("seat"); w.integer(move.seat.index)
            switch move.action {
            case .flip(let card): w.key("kind"); w.string("flip"); w.key("card"); w.integer(card)
            case .timeout: w.key("kind"); w.string("timeout")
            case .disconnect: w.key("kind"); w.string("disconnect")
            case .reconnect: w.key("kind"); w.string("reconnect")
            case .forfeit(let reason): w.key("kind"); w.string("forfeit"); w.key("reason"); w.string(reason.wireName)
            }
            w.endObject()
        }
        w.endArray()
    }

    static func writeFields(of standing: LadderStanding, to w: inout JSONWriter) {
        w.key("name"); w.string(standing.name)
        w.key("rating"); w.integer(standing.rating)
        w.key("deviation"); w.integer(standing.deviation)
        w.key("provisional"); w.bool(standing.provisional)
        w.key("games"); w.integer(standing.games)
        w.key("wins"); w.integer(standing.wins)
        w.key("losses"); w.integer(standing.losses)
        w.key("draws"); w.integer(standing.draws)
    }

    static func writeFields(of standing: SoloStanding, to w: inout JSONWriter) {
        w.key("name"); w.string(standing.name)
        w.key("played"); w.integer(standing.played)
        w.key("cleared"); w.integer(standing.cleared)
        w.key("best_ms"); if let best = standing.bestMilliseconds { w.integer(best) } else { w.null() }
        w.key("fewest_flips"); if let fewest = standing.fewestFlips { w.integer(fewest) } else { w.null() }
    }
}

extension ForfeitReason: WireNamed {
    public var wireName: String {
        switch self {
        case .left: "left"
        case .timeouts: "timeouts"
        case .away: "away"
        }
    }
}
