import PairsRules

/// Writes server messages as JSON lines, by hand.
///
/// States are the hot path: one is written for every change in every room. A general encoder would build
/// a dictionary per state and sort or escape its way through it; this writes the fixed shape straight into
/// bytes. `ServerMessageDecoder` reads them back through the general parser, and the tests check that every
/// message shape survives the round trip and matches Foundation's reading of the same bytes.
///
/// The states of a change go through `encode(states:room:spectators:id:)`, the fast path
/// (`StateLineEncoder`). A `.state` message, the odd state sent to one connection (to a new spectator),
/// is written by the general `JSONWriter` like every other message: the readable reference the tests hold
/// the fast path's bytes to.
public enum ServerMessageEncoder {
    /// The message as one line, newline included.
    public static func encode(_ message: ServerMessage) -> [UInt8] {
        var writer = JSONWriter(capacity: capacity(of: message))
        write(message, to: &writer)
        writer.newline()
        return writer.bytes
    }

    /// The states of one change in `room`, played by `rules`, as consecutive lines in one buffer, so that
    /// the states produced by one change (a mismatch and its immediate hide) reach each socket in one write.
    /// `id` is the request that caused them, echoed in each state's event.
    public static func encode(states: [PublicState], room: String, spectators: Int, rules: RuleSet, id: RequestID?) -> [UInt8] {
        StateLineEncoder.encode(states, room: room, spectators: spectators, rules: rules, id: id)
    }

    private static func capacity(of message: ServerMessage) -> Int {
        if case .state(let state) = message { return 256 + state.state.cards.count * 40 + (state.state.downFaces?.count ?? 0) * 8 }
        return 128
    }

    static func write(_ message: ServerMessage, to w: inout JSONWriter) {
        w.beginObject()
        switch message {
        case .welcome(let welcome):
            w.key("type"); w.string("welcome")
            w.key("protocol"); w.integer(welcome.protocolVersion)
            w.key("server"); w.string(welcome.server)
            w.key("session"); w.string(welcome.session)
            w.key("hint"); w.string(welcome.hint)
            if let name = welcome.name { w.key("name"); w.string(name) }
            writeID(welcome.id, to: &w)
        case .joined(let joined):
            w.key("type"); w.string("joined")
            w.key("room"); w.string(joined.room)
            w.key("seat"); writeSeat(joined.seat, to: &w)
            w.key("token"); if let token = joined.token { w.string(token) } else { w.null() }
            writeRules(joined.rules, to: &w)
            writeID(joined.id, to: &w)
        case .state(let state):
            writeState(state, to: &w)
        case .error(let error):
            w.key("type"); w.string("error")
            w.key("code"); w.string(error.code.rawValue)
            w.key("message"); w.string(error.message)
            if let seconds = error.retryAfterSeconds { w.key("retry_after"); w.integer(seconds) }
            writeID(error.id, to: &w)
        case .chat(let chat):
            w.key("type"); w.string("chat")
            w.key("room"); w.string(chat.room)
            w.key("from"); w.string(chat.from)
            w.key("seat"); writeSeat(chat.seat, to: &w)
            w.key("text"); w.string(chat.text)
            writeID(chat.id, to: &w)
        case .rooms(let list):
            w.key("type"); w.string("rooms")
            w.key("rooms"); w.beginArray()
            for room in list.rooms {
                w.beginObject()
                w.key("room"); w.string(room.name)
                w.key("phase"); w.string(room.phase.wireName)
                w.key("players"); w.beginArray()
                for player in room.players { if let player { w.string(player) } else { w.null() } }
                w.endArray()
                w.key("spectators"); w.integer(room.spectators)
                w.key("pairs"); w.integer(room.pairs)
                writeRules(room.rules, to: &w)
                w.endObject()
            }
            w.endArray()
            w.key("total"); w.integer(list.total)
            if let next = list.next { w.key("next"); w.string(next.wireValue) }
            writeID(list.id, to: &w)
        case .pong(let id):
            w.key("type"); w.string("pong")
            writeID(id, to: &w)
        case .redirect(let redirect):
            w.key("type"); w.string("redirect")
            w.key("host"); w.string(redirect.host)
            w.key("port"); w.integer(redirect.port)
            w.key("request"); w.string(redirect.request.rawValue)
            if let room = redirect.room { w.key("room"); w.string(room) }
            if let token = redirect.token { w.key("token"); w.string(token) }
            writeID(redirect.id, to: &w)
        case .stats(let stats):
            w.key("type"); w.string("stats")
            w.key("connections"); w.integer(stats.connections)
            w.key("rooms"); w.integer(stats.rooms)
            w.key("games_active"); w.integer(stats.gamesActive)
            w.key("games_finished"); w.integer(stats.gamesFinished)
            w.key("flips"); w.integer(stats.flips)
            w.key("messages_in"); w.integer(stats.messagesIn)
            w.key("messages_out"); w.integer(stats.messagesOut)
            w.key("bytes_in"); w.integer(stats.bytesIn)
            w.key("bytes_out"); w.integer(stats.bytesOut)
            w.key("uptime_s"); w.integer(stats.uptimeSeconds)
            w.key("games_stored"); w.integer(stats.gamesStored)
            w.key("storage_errors"); w.integer(stats.storageErrors)
            w.key("errors"); w.beginObject()
            for code in ErrorCode.allCases { if let count = stats.errors[code], count > 0 { w.key(code.rawValue); w.integer(count) } }
            w.endObject()
            w.key("games_finished_by_variant"); w.beginObject()
            for (label, count) in stats.gamesFinishedByVariant.sorted(by: { $0.key < $1.key }) { w.key(label); w.integer(count) }
            w.endObject()
            write(stats.latency, as: "latency_us", to: &w)
            w.key("games_pruned"); w.integer(stats.gamesPruned)
            if let storage = stats.storage { w.key("storage"); w.string(storage.rawValue) }
            write(stats.storeLatency, as: "store_latency_us", to: &w)
            w.key("store_queue"); w.integer(stats.storeQueue)
            if let loops = stats.loops {
                w.key("loops"); w.beginArray()
                for loop in loops {
                    w.beginObject()
                    w.key("connections"); w.integer(loop.connections)
                    w.key("rooms"); w.integer(loop.rooms)
                    w.key("flips"); w.integer(loop.flips)
                    w.key("hand_offs"); w.integer(loop.handOffs)
                    w.endObject()
                }
                w.endArray()
            }
            writeID(stats.id, to: &w)
        case .left(let room, let id):
            w.key("type"); w.string("left")
            w.key("room"); w.string(room)
            writeID(id, to: &w)
        case .help(let lines, let id):
            w.key("type"); w.string("help")
            w.key("commands"); w.beginArray()
            for line in lines { w.string(line) }
            w.endArray()
            writeID(id, to: &w)
        case .bye(let reason):
            w.key("type"); w.string("bye")
            w.key("reason"); w.string(reason.rawValue)
        case .history(let page):
            w.key("type"); w.string("history")
            w.key("games"); w.beginArray()
            for game in page.games { StoredGameJSON.write(game, to: &w) }
            w.endArray()
            writeMore(page.more, to: &w)
            writeID(page.id, to: &w)
        case .replay(let replay):
            w.key("type"); w.string("replay")
            StoredGameJSON.writeFields(of: replay.summary, to: &w)
            w.key("deal"); w.beginArray()
            for face in replay.deal { w.string(face) }
            w.endArray()
            w.key("moves"); StoredGameJSON.write(replay.moves, to: &w)
            writeMore(replay.more, to: &w)
            writeID(replay.id, to: &w)
        case .replayMoves(let part):
            w.key("type"); w.string("replay_moves")
            w.key("game"); w.integer(part.game)
            w.key("moves"); StoredGameJSON.write(part.moves, to: &w)
            writeMore(part.more, to: &w)
            writeID(part.id, to: &w)
        case .leaderboard(let board):
            w.key("type"); w.string("leaderboard")
            w.key("rules"); RulesJSON.write(board.variant, to: &w)
            switch board.places {
            case .rated(let places):
                w.key("players"); w.beginArray()
                for place in places {
                    w.beginObject()
                    w.key("rank"); w.integer(place.rank)
                    StoredGameJSON.writeFields(of: place.standing, to: &w)
                    w.endObject()
                }
                w.endArray()
            case .solo(let places, let by):
                w.key("by"); w.string(by.wireName)
                w.key("players"); w.beginArray()
                for place in places {
                    w.beginObject()
                    w.key("rank"); w.integer(place.rank)
                    StoredGameJSON.writeFields(of: place.standing, to: &w)
                    w.endObject()
                }
                w.endArray()
            }
            writeMore(board.more, to: &w)
            writeID(board.id, to: &w)
        case .profile(let profile):
            w.key("type"); w.string("profile")
            w.key("name"); w.string(profile.name)
            w.key("claimed"); w.bool(profile.claimed)
            w.key("totals"); w.beginObject()
            w.key("games"); w.integer(profile.totals.games)
            w.key("wins"); w.integer(profile.totals.wins)
            w.key("losses"); w.integer(profile.totals.losses)
            w.key("draws"); w.integer(profile.totals.draws)
            w.key("solo_played"); w.integer(profile.totals.soloPlayed)
            w.key("solo_cleared"); w.integer(profile.totals.soloCleared)
            w.endObject()
            w.key("ratings"); w.beginArray()
            for rating in profile.ratings {
                w.beginObject()
                w.key("rules"); RulesJSON.write(rating.variant, to: &w)
                StoredGameJSON.writeFields(of: rating.standing, to: &w)
                w.endObject()
            }
            w.endArray()
            w.key("solo"); w.beginArray()
            for record in profile.solo {
                w.beginObject()
                w.key("rules"); RulesJSON.write(record.variant, to: &w)
                StoredGameJSON.writeFields(of: record.standing, to: &w)
                w.endObject()
            }
            w.endArray()
            w.key("games"); w.beginArray()
            for game in profile.games { StoredGameJSON.write(game, to: &w) }
            w.endArray()
            writeMore(profile.more, to: &w)
            writeID(profile.id, to: &w)
        case .tournament(let view):
            TournamentJSON.write(view, to: &w)
            writeMore(view.more, to: &w)
            writeID(view.id, to: &w)
        case .tournaments(let list):
            TournamentJSON.write(list, to: &w)
            writeMore(list.more, to: &w)
            writeID(list.id, to: &w)
        }
        w.endObject()
    }

    /// `"more":true` on every line of a long answer but its last; nothing on the last.
    private static func writeMore(_ more: Bool, to w: inout JSONWriter) {
        if more { w.key("more"); w.bool(true) }
    }

    private static func writeState(_ message: StateMessage, to w: inout JSONWriter) {
        let state = message.state
        w.key("type"); w.string("state")
        w.key("room"); w.string(message.room)
        w.key("game"); w.integer(state.game)
        w.key("seq"); w.integer(state.seq)
        w.key("phase"); w.string(state.phase.wireName)
        w.key("rows"); w.integer(state.layout.rows)
        w.key("cols"); w.integer(state.layout.columns)
        w.key("cards"); w.beginArray()
        for card in state.cards {
            w.beginObject()
            switch card {
            case .down:
                w.key("state"); w.string("down")
            case .up(let face):
                w.key("state"); w.string("up")
                w.key("face"); w.string(face)
            case .matched(let face, let seat):
                w.key("state"); w.string("matched")
                w.key("face"); w.string(face)
                w.key("by"); w.integer(seat.index)
            }
            w.endObject()
        }
        w.endArray()
        if let faces = state.downFaces {
            w.key("down_faces"); w.beginArray(); for face in faces { w.string(face) }; w.endArray()
        }
        w.key("players"); w.beginArray()
        for player in state.players {
            guard let player else { w.null(); continue }
            w.beginObject()
            w.key("name"); w.string(player.name)
            w.key("score"); w.integer(player.score)
            w.key("connected"); w.bool(player.connected)
            w.endObject()
        }
        w.endArray()
        w.key("spectators"); w.integer(message.spectators)
        w.key("turn"); writeSeat(state.turn, to: &w)
        w.key("turn_ms_left"); if let left = state.turnMillisecondsLeft { w.integer(left) } else { w.null() }
        if let rules = message.rules, RulesJSON.isSent(rules), rules.variant.gameSeconds > 0 {
            w.key("game_ms_left"); if let left = state.gameMillisecondsLeft { w.integer(left) } else { w.null() }
        }
        w.key("winner"); writeSeat(state.outcome?.winner, to: &w)
        w.key("series"); w.beginObject()
        w.key("wins"); w.beginArray(); for wins in state.series.wins { w.integer(wins) }; w.endArray()
        w.key("draws"); w.integer(state.series.draws)
        w.endObject()
        writeRules(message.rules, to: &w)
        w.key("event"); w.beginObject()
        let event = state.event
        w.key("kind"); w.string(event.kind.wireName)
        if let seat = event.seat { w.key("seat"); w.integer(seat.index) }
        if let card = event.card { w.key("card"); w.integer(card) }
        if let cards = event.cards {
            w.key("cards"); w.beginArray(); for card in cards { w.integer(card) }; w.endArray()
        }
        if let points = event.points { w.key("points"); w.integer(points) }
        writeID(message.id, to: &w)
        w.endObject()
    }

    /// `"rules":{...}` when a room's rules are sent (`RulesJSON.isSent`); nothing otherwise.
    private static func writeRules(_ rules: RuleSet?, to w: inout JSONWriter) {
        guard let rules, RulesJSON.isSent(rules) else { return }
        w.key("rules"); RulesJSON.write(rules, to: &w)
    }

    private static func writeSeat(_ seat: Seat?, to w: inout JSONWriter) {
        if let seat { w.integer(seat.index) } else { w.null() }
    }

    /// A histogram as `stats` sends one: `{"le": bounds, "counts": cumulative counts, "sum": microseconds}`.
    private static func write(_ latency: AnswerLatency, as key: String, to w: inout JSONWriter) {
        w.key(key); w.beginObject()
        w.key("le"); w.beginArray()
        for bound in AnswerLatency.boundsMicroseconds { w.integer(bound) }
        w.endArray()
        w.key("counts"); w.beginArray()
        for count in latency.cumulativeCounts { w.integer(count) }
        w.endArray()
        w.key("sum"); w.integer(latency.sumMicroseconds)
        w.endObject()
    }

    private static func writeID(_ id: RequestID?, to w: inout JSONWriter) {
        switch id {
        case nil: break
        case .integer(let value)?: w.key("id"); w.integer(value)
        case .string(let value)?: w.key("id"); w.string(value)
        }
    }
}
