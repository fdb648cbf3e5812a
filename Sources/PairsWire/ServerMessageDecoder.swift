import PairsRecords
import PairsRules

/// Reads server messages back from their JSON lines, for clients written in Swift.
///
/// It reads what protocol.md promises and no more, so a client works with any server that follows it, not
/// only this one: fields protocol.md marks optional may be missing (an event may be just its `kind`), and
/// whatever a later version may add (fields, event kinds, message types) is skipped. A missing or mistyped
/// field that a message needs is an error naming the field.
public enum ServerMessageDecoder {
    /// A line as a client reads it.
    public enum DecodedLine: Sendable, Hashable {
        /// A message, and the first thing in its line that this version does not know and skipped, if any.
        case message(ServerMessage, firstUnknown: UnknownPart?)
        /// A message of a type this version does not know, skipped whole.
        case unknownType(String)
    }

    /// Decodes one line (without its newline). Unknown fields and event kinds are skipped silently; a message
    /// of an unknown type is `ServerMessageError.unknownType`.
    public static func decode(line: some Collection<UInt8>) throws(ServerMessageError) -> ServerMessage {
        switch try decodeNotingUnknown(line: line) {
        case .message(let message, _): message
        case .unknownType(let type): throw .unknownType(type)
        }
    }

    /// Decodes one line (without its newline), and says what in it this version did not know, so a client
    /// can tell its user once that the server speaks a newer protocol than it does.
    public static func decodeNotingUnknown(line: some Collection<UInt8>) throws(ServerMessageError) -> DecodedLine {
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(line))
        } catch {
            throw .badJSON(error)
        }
        return try decodeNotingUnknown(value)
    }

    /// Decodes one line already parsed, as `decodeNotingUnknown(line:)` does: for a client that goes over
    /// the parsed value first (the terminal client cleans every string in it).
    public static func decodeNotingUnknown(_ value: JSONValue) throws(ServerMessageError) -> DecodedLine {
        guard let object = value.objectValue else { throw .notAnObject }
        var reader = Reader(object: object, path: "")
        let type = try reader.string("type")
        reader.path = type
        var unknown: UnknownPart?
        let message: ServerMessage
        switch type {
        case "welcome":
            message = .welcome(Welcome(
                protocolVersion: try reader.integer("protocol"), server: try reader.string("server"),
                session: try reader.string("session"), hint: try reader.string("hint"),
                name: try reader.optionalString("name"), id: reader.id()))
        case "joined":
            message = .joined(Joined(room: try reader.string("room"), seat: try reader.optionalSeat("seat"),
                                     token: try reader.optionalString("token"), rules: try reader.optionalRules("rules"),
                                     id: reader.id()))
        case "state":
            message = .state(try state(&reader, unknown: &unknown))
        case "error":
            let raw = try reader.string("code")
            guard let code = ErrorCode(rawValue: raw) else { throw .badField("code") }
            message = .error(RequestError(code, try reader.string("message"), id: reader.id(),
                                          retryAfterSeconds: try reader.optionalInteger("retry_after")))
        case "chat":
            message = .chat(ChatMessage(room: try reader.string("room"), from: try reader.string("from"),
                                        seat: try reader.optionalSeat("seat"), text: try reader.string("text"),
                                        id: reader.id()))
        case "rooms":
            var rooms: [RoomSummary] = []
            for entry in try reader.array("rooms") {
                guard let room = entry.objectValue else { throw .badField("rooms") }
                var summary = Reader(object: room, path: "rooms.rooms[]")
                rooms.append(RoomSummary(
                    name: try summary.string("room"), phase: try summary.phase("phase"),
                    players: try summary.array("players").map { $0.stringValue },
                    spectators: try summary.integer("spectators"), pairs: try summary.integer("pairs"),
                    rules: try summary.optionalRules("rules")))
                summary.noteUnknownField(in: &unknown)
            }
            // A `next` this version cannot read is left out rather than refused: it only offers a next page.
            let next = try reader.optionalString("next").flatMap(RoomListCursor.init(wireValue:))
            message = .rooms(RoomList(rooms: rooms, total: try reader.integer("total"), next: next, id: reader.id()))
        case "pong":
            message = .pong(id: reader.id())
        case "redirect":
            guard let request = Redirect.Kind(rawValue: try reader.string("request")) else { throw .badField("request") }
            message = .redirect(Redirect(host: try reader.string("host"), port: try reader.integer("port"), request: request,
                                         room: try reader.optionalString("room"), token: try reader.optionalString("token"),
                                         id: reader.id()))
        case "stats":
            var stats = ServerStatistics()
            stats.connections = try reader.integer("connections")
            stats.rooms = try reader.integer("rooms")
            stats.gamesActive = try reader.integer("games_active")
            stats.gamesFinished = try reader.integer("games_finished")
            stats.flips = try reader.integer("flips")
            stats.messagesIn = try reader.integer("messages_in")
            stats.messagesOut = try reader.integer("messages_out")
            stats.bytesIn = try reader.integer("bytes_in")
            stats.bytesOut = try reader.integer("bytes_out")
            stats.uptimeSeconds = try reader.integer("uptime_s")
            // Servers that keep no history, or are older, say nothing of it.
            stats.gamesStored = try reader.optionalInteger("games_stored") ?? 0
            stats.storageErrors = try reader.optionalInteger("storage_errors") ?? 0
            // Older servers send none of these; codes and variants this client does not know are skipped.
            for (key, value) in try reader.optionalObject("errors")?.members ?? [] {
                guard let code = ErrorCode(rawValue: key), let count = value.integerValue else { continue }
                stats.errors[code] = Int(count)
            }
            for (key, value) in try reader.optionalObject("games_finished_by_variant")?.members ?? [] {
                if let count = value.integerValue { stats.gamesFinishedByVariant[key] = Int(count) }
            }
            if let latency = try histogram("latency_us", in: &reader) { stats.latency = latency }
            stats.gamesPruned = try reader.optionalInteger("games_pruned") ?? 0
            // A value this client does not know reads as not said.
            stats.storage = try reader.optionalString("storage").flatMap(StorageHealth.init(rawValue:))
            if let latency = try histogram("store_latency_us", in: &reader) { stats.storeLatency = latency }
            stats.storeQueue = try reader.optionalInteger("store_queue") ?? 0
            // Only a server with more than one event loop sends it.
            if try reader.optionalArray("loops") != nil {
                stats.loops = try reader.array("loops").map { (value: JSONValue) throws(ServerMessageError) -> LoopCounters in
                    guard let connections = value["connections"]?.integerValue, let rooms = value["rooms"]?.integerValue,
                          let flips = value["flips"]?.integerValue else { throw .badField("loops") }
                    // Absent from the first servers with loops: read as none.
                    let handOffs = value["hand_offs"]?.integerValue ?? 0
                    return LoopCounters(connections: Int(connections), rooms: Int(rooms), flips: Int(flips), handOffs: Int(handOffs))
                }
            }
            stats.id = reader.id()
            message = .stats(stats)
        case "left":
            message = .left(room: try reader.string("room"), id: reader.id())
        case "help":
            let lines = try reader.array("commands").compactMap(\.stringValue)
            message = .help(lines: lines, id: reader.id())
        case "bye":
            guard let reason = ByeReason(rawValue: try reader.string("reason")) else { throw .badField("reason") }
            message = .bye(reason)
        case "history":
            let games = try reader.array("games").map { value throws(ServerMessageError) in
                guard let object = value.objectValue else { throw .badField("games") }
                var game = Reader(object: object, path: "history.games[]")
                return try game.summary()
            }
            message = .history(HistoryPage(games: games, more: try reader.optionalBool("more") ?? false, id: reader.id()))
        case "replay":
            let summary = try reader.summary()
            let deal = try reader.array("deal").map { value throws(ServerMessageError) in
                guard let face = value.stringValue else { throw .badField("deal") }
                return face
            }
            message = .replay(GameReplay(summary: summary, deal: deal, moves: try reader.moves("moves"),
                                         more: try reader.optionalBool("more") ?? false, id: reader.id()))
        case "replay_moves":
            message = .replayMoves(ReplayMoves(game: Int64(try reader.integer("game")), moves: try reader.moves("moves"),
                                               more: try reader.optionalBool("more") ?? false, id: reader.id()))
        case "leaderboard":
            guard let variant = try reader.optionalRules("rules")?.variant else { throw .missingField("rules") }
            let entries = try reader.array("players").map { value throws(ServerMessageError) in
                guard let object = value.objectValue else { throw .badField("players") }
                return Reader(object: object, path: "leaderboard.players[]")
            }
            let places: Leaderboard.Places
            if let by = try reader.optionalString("by") {
                guard let kind = SoloRankingKind(wireName: by) else { throw .badField("by") }
                places = .solo(try entries.map { entry throws(ServerMessageError) in
                    var entry = entry
                    return Place(rank: try entry.integer("rank"), standing: try entry.soloStanding())
                }, by: kind)
            } else {
                places = .rated(try entries.map { entry throws(ServerMessageError) in
                    var entry = entry
                    return Place(rank: try entry.integer("rank"), standing: try entry.ladderStanding())
                })
            }
            message = .leaderboard(Leaderboard(variant: variant, places: places, more: try reader.optionalBool("more") ?? false,
                                               id: reader.id()))
        case "profile":
            guard let totalsObject = reader.value("totals")?.objectValue else { throw .missingField("totals") }
            var totals = Reader(object: totalsObject, path: "profile.totals")
            let ratings = try reader.array("ratings").map { value throws(ServerMessageError) in
                guard let object = value.objectValue else { throw .badField("ratings") }
                var entry = Reader(object: object, path: "profile.ratings[]")
                guard let variant = try entry.optionalRules("rules")?.variant else { throw .missingField("rules") }
                return OnLadder(variant: variant, standing: try entry.ladderStanding())
            }
            let solo = try reader.array("solo").map { value throws(ServerMessageError) in
                guard let object = value.objectValue else { throw .badField("solo") }
                var entry = Reader(object: object, path: "profile.solo[]")
                guard let variant = try entry.optionalRules("rules")?.variant else { throw .missingField("rules") }
                return OnLadder(variant: variant, standing: try entry.soloStanding())
            }
            let games = try reader.array("games").map { value throws(ServerMessageError) in
                guard let object = value.objectValue else { throw .badField("games") }
                var game = Reader(object: object, path: "profile.games[]")
                return try game.summary()
            }
            message = .profile(PlayerProfile(
                name: try reader.string("name"), claimed: try reader.bool("claimed"), ratings: ratings, solo: solo,
                totals: PlayerProfile.Totals(
                    games: try totals.integer("games"), wins: try totals.integer("wins"), losses: try totals.integer("losses"),
                    draws: try totals.integer("draws"), soloPlayed: try totals.integer("solo_played"),
                    soloCleared: try totals.integer("solo_cleared")),
                games: games, more: try reader.optionalBool("more") ?? false, id: reader.id()))
        case "tournament":
            message = .tournament(try tournament(&reader, unknown: &unknown))
        case "tournaments":
            message = .tournaments(try tournaments(&reader, unknown: &unknown))
        default:
            return .unknownType(type)
        }
        reader.noteUnknownField(in: &unknown)
        return .message(message, firstUnknown: unknown)
    }

    /// A histogram as `stats` sends one (`{"le", "counts", "sum"}`), or nil when `key` is absent (older servers).
    private static func histogram(_ key: String, in reader: inout Reader) throws(ServerMessageError) -> AnswerLatency? {
        guard let object = try reader.optionalObject(key) else { return nil }
        let counts = object["counts"]?.arrayValue?.compactMap(\.integerValue).map { Int($0) }
        let sum = object["sum"]?.integerValue
        guard let counts, let sum, let histogram = AnswerLatency(cumulativeCounts: counts, sumMicroseconds: Int(sum)) else {
            throw .badField(key)
        }
        return histogram
    }

    private static func state(_ reader: inout Reader, unknown: inout UnknownPart?) throws(ServerMessageError) -> StateMessage {
        let phase = try reader.phase("phase")
        let layout = BoardLayout(rows: try reader.integer("rows"), columns: try reader.integer("cols"))
        var cards: [CardView] = []
        for entry in try reader.array("cards") {
            guard let object = entry.objectValue else { throw .badField("cards") }
            var card = Reader(object: object, path: "state.cards[]")
            switch try card.string("state") {
            case "down": cards.append(.down)
            case "up": cards.append(.up(face: try card.string("face")))
            case "matched": cards.append(.matched(face: try card.string("face"), by: try card.seat("by")))
            default: throw .badField("cards")
            }
            card.noteUnknownField(in: &unknown)
        }
        // Clients index the cards by row and column: a layout that does not cover them exactly is no board.
        let (cardCount, overflow) = layout.rows.multipliedReportingOverflow(by: layout.columns)
        guard layout.rows >= 0, layout.columns >= 0, !overflow, cardCount == cards.count else { throw .badField("rows") }
        // A game over's faces never found, one per face-down card (absent from older servers, and from every
        // other phase).
        var downFaces: [String]?
        if let value = reader.value("down_faces"), !value.isNull {
            guard let array = value.arrayValue, array.count == cards.count(where: { $0 == .down }) else { throw .badField("down_faces") }
            downFaces = try array.map { element throws(ServerMessageError) in
                guard let face = element.stringValue else { throw .badField("down_faces") }
                return face
            }
        }
        var players: [PlayerView?] = []
        for entry in try reader.array("players") {
            guard let object = entry.objectValue else { players.append(nil); continue }
            var player = Reader(object: object, path: "state.players[]")
            players.append(PlayerView(name: try player.string("name"), score: try player.integer("score"),
                                      connected: try player.bool("connected")))
            player.noteUnknownField(in: &unknown)
        }
        // Clients index the players by seat: one entry per seat, one or two.
        guard let seats = SeatCount(rawValue: players.count) else { throw .badField("players") }
        let winner = try reader.optionalSeat("winner")
        var series = SeriesTally(seats: seats)
        if let object = reader.value("series")?.objectValue {
            var tally = Reader(object: object, path: "state.series")
            let wins = try tally.array("wins").compactMap(\.integerValue).map(Int.init)
            guard wins.count == players.count else { throw .badField("series") }
            series = SeriesTally(wins: wins, draws: try tally.integer("draws"))
            tally.noteUnknownField(in: &unknown)
        }
        guard let eventObject = reader.value("event")?.objectValue else { throw .missingField("event") }
        var eventReader = Reader(object: eventObject, path: "state.event")
        let event = try event(&eventReader, unknown: &unknown)
        // Without a winner, a game over is drawn between two players, and lost by a solo player.
        let unwon: Outcome = seats == .one ? .loss : .draw
        let state = WireState(
            game: try reader.integer("game"), seq: try reader.integer("seq"), phase: phase, layout: layout,
            cards: cards, players: players, turn: try reader.optionalSeat("turn"),
            turnMillisecondsLeft: try reader.optionalInteger("turn_ms_left"),
            gameMillisecondsLeft: try reader.optionalInteger("game_ms_left"),
            outcome: phase == .over ? (winner.map(Outcome.win) ?? unwon) : nil,
            series: series, event: event, downFaces: downFaces)
        let id = eventReader.id()
        eventReader.noteUnknownField(in: &unknown)
        return StateMessage(room: try reader.string("room"), spectators: try reader.integer("spectators"),
                            state: state, rules: try reader.optionalRules("rules"), id: id)
    }

    /// protocol.md's `{kind, seat?, card?, cards?, points?, id?}`: only the kind is certain.
    private static func event(_ reader: inout Reader, unknown: inout UnknownPart?) throws(ServerMessageError) -> StateEvent {
        let kind = EventKind(wireName: try reader.string("kind"))
        if case .unknown(let name) = kind, unknown == nil { unknown = .eventKind(name) }
        var cards: [Int]?
        if let value = reader.value("cards"), !value.isNull {
            // A set's cards: two or three (or, for a timeout, the cards it turned back).
            guard let array = value.arrayValue, (2...CardSet.capacity).contains(array.count) else { throw .badField("cards") }
            cards = try array.map { element throws(ServerMessageError) in
                guard let card = element.integerValue else { throw .badField("cards") }
                return Int(card)
            }
        }
        return StateEvent(kind: kind, seat: try reader.optionalSeat("seat"), card: try reader.optionalInteger("card"),
                          cards: cards, points: try reader.optionalInteger("points"))
    }
}

/// Why a server line could not be read as a message.
public enum ServerMessageError: Error, Sendable, Hashable, CustomStringConvertible {
    case badJSON(JSONError)
    case notAnObject
    case missingField(String)
    case badField(String)
    case unknownType(String)

    public var description: String {
        switch self {
        case .badJSON(let error): "not valid JSON: \(error)"
        case .notAnObject: "not a JSON object"
        case .missingField(let field): "missing field: \(field)"
        case .badField(let field): "bad field: \(field)"
        case .unknownType(let type): "unknown message type: \(type)"
        }
    }
}

/// Typed reads of an object's fields that name the field when they fail, and remember which fields were
/// read so the ones nobody asked for can be reported as unknown.
private struct Reader {
    let object: JSONObject
    /// Where the object is in its message (`state.event`), to name its unknown fields.
    var path: String
    /// Bit i is set once member i has been read: protocol objects have fewer than 64 members.
    private var read: UInt64 = 0
    /// The members read past the 64th, which only an object padded with unknown fields has.
    private var readBeyond: Set<Int> = []

    init(object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    /// The value of `key`, marking it read.
    mutating func value(_ key: String) -> JSONValue? {
        guard let index = object.members.firstIndex(where: { $0.key == key }) else { return nil }
        if index < UInt64.bitWidth { read |= 1 << UInt64(index) } else { readBeyond.insert(index) }
        return object.members[index].value
    }

    private func wasRead(_ index: Int) -> Bool {
        index < UInt64.bitWidth ? read & (1 << UInt64(index)) != 0 : readBeyond.contains(index)
    }

    /// Records the first member nobody read as `unknown`, unless something was recorded already.
    func noteUnknownField(in unknown: inout UnknownPart?) {
        guard unknown == nil else { return }
        for (index, member) in object.members.enumerated() where !wasRead(index) {
            unknown = .field(path.isEmpty ? member.key : "\(path).\(member.key)")
            return
        }
    }

    mutating func id() -> RequestID? {
        switch value("id") {
        case .number(.integer(let value))?: .integer(value)
        case .string(let value)?: .string(value)
        default: nil
        }
    }

    mutating func string(_ key: String) throws(ServerMessageError) -> String {
        guard let value = value(key) else { throw .missingField(key) }
        guard let string = value.stringValue else { throw .badField(key) }
        return string
    }

    mutating func optionalString(_ key: String) throws(ServerMessageError) -> String? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let string = value.stringValue else { throw .badField(key) }
        return string
    }

    mutating func integer(_ key: String) throws(ServerMessageError) -> Int {
        guard let value = value(key) else { throw .missingField(key) }
        guard let integer = value.integerValue else { throw .badField(key) }
        return Int(integer)
    }

    mutating func optionalInteger(_ key: String) throws(ServerMessageError) -> Int? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let integer = value.integerValue else { throw .badField(key) }
        return Int(integer)
    }

    mutating func optionalObject(_ key: String) throws(ServerMessageError) -> JSONObject? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let object = value.objectValue else { throw .badField(key) }
        return object
    }

    mutating func optionalArray(_ key: String) throws(ServerMessageError) -> [JSONValue]? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let array = value.arrayValue else { throw .badField(key) }
        return array
    }

    mutating func bool(_ key: String) throws(ServerMessageError) -> Bool {
        guard let value = value(key) else { throw .missingField(key) }
        guard let bool = value.boolValue else { throw .badField(key) }
        return bool
    }

    mutating func array(_ key: String) throws(ServerMessageError) -> [JSONValue] {
        guard let value = value(key) else { throw .missingField(key) }
        guard let array = value.arrayValue else { throw .badField(key) }
        return array
    }

    mutating func seat(_ key: String) throws(ServerMessageError) -> Seat {
        guard let seat = try optionalSeat(key) else { throw .missingField(key) }
        return seat
    }

    mutating func optionalSeat(_ key: String) throws(ServerMessageError) -> Seat? {
        guard let index = try optionalInteger(key) else { return nil }
        guard let seat = Seat(index: index) else { throw .badField(key) }
        return seat
    }

    mutating func phase(_ key: String) throws(ServerMessageError) -> Phase {
        guard let phase = Phase(wireName: try string(key)) else { throw .badField(key) }
        return phase
    }

    mutating func optionalBool(_ key: String) throws(ServerMessageError) -> Bool? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let bool = value.boolValue else { throw .badField(key) }
        return bool
    }

    /// A finished game's summary, the fields of a `history` entry or of a `replay` line.
    mutating func summary() throws(ServerMessageError) -> FinishedGameSummary {
        guard let rules = try optionalRules("rules") else { throw .missingField("rules") }
        let players = try array("players").map { value throws(ServerMessageError) in
            guard let object = value.objectValue else { throw .badField("players") }
            var player = Reader(object: object, path: "players[]")
            return FinishedPlayer(name: try player.string("name"), claimed: try player.bool("claimed"),
                                  score: try player.integer("score"))
        }
        let end: GameEnd
        switch try string("end") {
        case "cleared": end = .cleared
        case "time_up": end = .timeUp
        case "exhausted": end = .exhausted
        case "forfeit":
            guard let reason = ForfeitReason(wireName: try string("forfeit_reason")) else { throw .badField("forfeit_reason") }
            end = .forfeit(reason)
        default: throw .badField("end")
        }
        return FinishedGameSummary(
            game: Int64(try integer("game")), room: try string("room"), rules: rules, players: players,
            winner: try optionalSeat("winner"), end: end, started: try string("started"), ended: try string("ended"),
            flips: try integer("flips"), rated: try bool("rated"), tournament: try optionalString("tournament"))
    }

    /// A replay's moves.
    mutating func moves(_ key: String) throws(ServerMessageError) -> [ReplayMove] {
        try array(key).map { value throws(ServerMessageError) in
            guard let object = value.objectValue else { throw .badField(key) }
            var move = Reader(object: object, path: "moves[]")
            let action: ReplayMove.Action
            switch try move.string("kind") {
            case "flip": action = .flip(card: try move.integer("card"))
            case "timeout": action = .timeout
            case "disconnect": action = .disconnect
            case "reconnect": action = .reconnect
            case "forfeit":
                guard let reason = ForfeitReason(wireName: try move.string("reason")) else { throw .badField("reason") }
                action = .forfeit(reason)
            default: throw .badField("kind")
            }
            return ReplayMove(milliseconds: Int64(try move.integer("ms")), seat: try move.seat("seat"), action: action)
        }
    }

    mutating func ladderStanding() throws(ServerMessageError) -> LadderStanding {
        LadderStanding(name: try string("name"), rating: try integer("rating"), deviation: try integer("deviation"),
                       provisional: try bool("provisional"), games: try integer("games"), wins: try integer("wins"),
                       losses: try integer("losses"), draws: try integer("draws"))
    }

    mutating func soloStanding() throws(ServerMessageError) -> SoloStanding {
        SoloStanding(name: try string("name"), played: try integer("played"), cleared: try integer("cleared"),
                     bestMilliseconds: try optionalInteger("best_ms"), fewestFlips: try optionalInteger("fewest_flips"))
    }

    /// A room's rules, read as a `join`'s options are and completed from the standard rules where a
    /// server leaves one out.
    mutating func optionalRules(_ key: String) throws(ServerMessageError) -> RuleSet? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let object = value.objectValue else { throw .badField(key) }
        do {
            return try RequestDecoder.ruleChoices(in: object).rules(over: .standard)
        } catch {
            throw .badField(key)
        }
    }
}

extension ServerMessageDecoder {
    private static func tournament(_ reader: inout Reader, unknown: inout UnknownPart?) throws(ServerMessageError) -> TournamentView {
        guard let rules = try reader.optionalRules("rules") else { throw .missingField("rules") }
        let standings = try reader.array("standings").map { value throws(ServerMessageError) in
            guard let object = value.objectValue else { throw .badField("standings") }
            var row = Reader(object: object, path: "tournament.standings[]")
            let standing = TournamentStanding(
                rank: try row.integer("rank"), name: try row.string("name"), score: try row.points("score"),
                games: try row.integer("games"), buchholz: try row.optionalPoints("buchholz"),
                sonnebornBerger: try row.optionalPoints("sonneborn_berger"), streak: try row.integer("streak"),
                active: try row.bool("active"))
            row.noteUnknownField(in: &unknown)
            return standing
        }
        let pairings = try reader.array("pairings").map { value throws(ServerMessageError) in
            guard let object = value.objectValue else { throw .badField("pairings") }
            var board = Reader(object: object, path: "tournament.pairings[]")
            let players = try board.array("players").map { value throws(ServerMessageError) in
                guard let name = value.stringValue else { throw .badField("players") }
                return name
            }
            let result = TournamentBoard(room: try board.string("room"), players: players)
            board.noteUnknownField(in: &unknown)
            return result
        }
        return TournamentView(
            name: try reader.string("name"), format: try reader.named("format", of: TournamentKind.self),
            status: try reader.named("status", of: TournamentPhase.self), creator: try reader.string("creator"),
            rules: rules, round: try reader.optionalInteger("round"), rounds: try reader.optionalInteger("rounds"),
            millisecondsLeft: try reader.optionalInteger("ms_left").map(Int64.init), entrants: try reader.integer("entrants"),
            standings: standings, pairings: pairings, bye: try reader.optionalString("bye"),
            more: try reader.optionalBool("more") ?? false, id: reader.id())
    }

    private static func tournaments(_ reader: inout Reader, unknown: inout UnknownPart?) throws(ServerMessageError) -> TournamentList {
        let summaries = try reader.array("tournaments").map { value throws(ServerMessageError) in
            guard let object = value.objectValue else { throw .badField("tournaments") }
            var entry = Reader(object: object, path: "tournaments.tournaments[]")
            let length: TournamentLength
            switch try entry.named("format", of: TournamentKind.self) {
            case .swiss: length = .rounds(try entry.optionalInteger("rounds"))
            case .arena:
                guard let minutes = try entry.number("minutes") else { throw .missingField("minutes") }
                length = .milliseconds(Int64((minutes * 60_000).rounded()))
            }
            guard let rules = try entry.optionalRules("rules") else { throw .missingField("rules") }
            let start: TournamentStart
            switch entry.value("start") {
            case .string("manual")?: start = .manual
            case .number(.integer(let count))?: start = .players(Int(count))
            case nil: throw .missingField("start")
            default: throw .badField("start")
            }
            let summary = TournamentSummary(
                name: try entry.string("name"), length: length, status: try entry.named("status", of: TournamentPhase.self),
                creator: try entry.string("creator"), entrants: try entry.integer("entrants"), rules: rules, start: start,
                claimedOnly: try entry.bool("claimed_only"))
            entry.noteUnknownField(in: &unknown)
            return summary
        }
        return TournamentList(tournaments: summaries, more: try reader.optionalBool("more") ?? false, id: reader.id())
    }
}

extension Reader {
    /// A string field naming one value of `type`.
    mutating func named<Value: WireNamed>(_ key: String, of type: Value.Type) throws(ServerMessageError) -> Value {
        guard let value = Value(wireName: try string(key)) else { throw .badField(key) }
        return value
    }

    /// A number, with or without a fraction.
    mutating func number(_ key: String) throws(ServerMessageError) -> Double? {
        switch value(key) {
        case nil, .null?: return nil
        case .number(.integer(let value))?: return Double(value)
        case .number(.double(let value))?: return value
        default: throw .badField(key)
        }
    }

    /// A score in whole quarters (`2.5`, `6.25`).
    mutating func optionalPoints(_ key: String) throws(ServerMessageError) -> QuarterPoints? {
        guard let number = try number(key) else { return nil }
        guard let points = QuarterPoints(number) else { throw .badField(key) }
        return points
    }

    mutating func points(_ key: String) throws(ServerMessageError) -> QuarterPoints {
        guard let points = try optionalPoints(key) else { throw .missingField(key) }
        return points
    }
}
