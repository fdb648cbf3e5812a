import PairsRules

/// Reads server messages back from their JSON lines, for clients written in Swift.
///
/// Unknown fields are ignored, so a client keeps working when a newer server adds some; a missing or
/// mistyped field that the message needs is an error naming the field.
public enum ServerMessageDecoder {
    /// Decodes one line (without its newline).
    public static func decode(line: some Collection<UInt8>) throws(ServerMessageError) -> ServerMessage {
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(line))
        } catch {
            throw .badJSON(error)
        }
        guard let object = value.objectValue else { throw .notAnObject }
        let reader = Reader(object: object)
        let type = try reader.string("type")
        switch type {
        case "welcome":
            return .welcome(Welcome(
                protocolVersion: try reader.integer("protocol"), server: try reader.string("server"),
                session: try reader.string("session"), hint: try reader.string("hint"),
                name: try reader.optionalString("name"), id: reader.id))
        case "joined":
            return .joined(Joined(room: try reader.string("room"), seat: try reader.optionalSeat("seat"),
                                  token: try reader.optionalString("token"), id: reader.id))
        case "state":
            return .state(try state(reader))
        case "error":
            let raw = try reader.string("code")
            guard let code = ErrorCode(rawValue: raw) else { throw .badField("code") }
            return .error(RequestError(code, try reader.string("message"), id: reader.id))
        case "chat":
            return .chat(ChatMessage(room: try reader.string("room"), from: try reader.string("from"),
                                     seat: try reader.optionalSeat("seat"), text: try reader.string("text"),
                                     id: reader.id))
        case "rooms":
            var rooms: [RoomSummary] = []
            for entry in try reader.array("rooms") {
                guard let room = entry.objectValue else { throw .badField("rooms") }
                let summary = Reader(object: room)
                rooms.append(RoomSummary(
                    name: try summary.string("room"), phase: try summary.phase("phase"),
                    players: try summary.array("players").map { $0.stringValue },
                    spectators: try summary.integer("spectators"), pairs: try summary.integer("pairs")))
            }
            return .rooms(RoomList(rooms: rooms, total: try reader.integer("total"), id: reader.id))
        case "pong":
            return .pong(id: reader.id)
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
            stats.id = reader.id
            return .stats(stats)
        case "left":
            return .left(room: try reader.string("room"), id: reader.id)
        case "help":
            let lines = try reader.array("commands").compactMap(\.stringValue)
            return .help(lines: lines, id: reader.id)
        case "bye":
            guard let reason = ByeReason(rawValue: try reader.string("reason")) else { throw .badField("reason") }
            return .bye(reason)
        default:
            throw .unknownType(type)
        }
    }

    private static func state(_ reader: Reader) throws(ServerMessageError) -> StateMessage {
        let phase = try reader.phase("phase")
        let layout = BoardLayout(rows: try reader.integer("rows"), columns: try reader.integer("cols"))
        var cards: [CardView] = []
        for entry in try reader.array("cards") {
            guard let object = entry.objectValue else { throw .badField("cards") }
            let card = Reader(object: object)
            switch try card.string("state") {
            case "down": cards.append(.down)
            case "up": cards.append(.up(face: try card.string("face")))
            case "matched": cards.append(.matched(face: try card.string("face"), by: try card.seat("by")))
            default: throw .badField("cards")
            }
        }
        var players: [PlayerView?] = []
        for entry in try reader.array("players") {
            guard let object = entry.objectValue else { players.append(nil); continue }
            let player = Reader(object: object)
            players.append(PlayerView(name: try player.string("name"), score: try player.integer("score"),
                                      connected: try player.bool("connected")))
        }
        let winner = try reader.optionalSeat("winner")
        var series = SeriesTally()
        if let object = reader.object["series"]?.objectValue {
            let tally = Reader(object: object)
            let wins = try tally.array("wins").compactMap(\.integerValue).map(Int.init)
            guard wins.count == 2 else { throw .badField("series") }
            series = SeriesTally(wins: wins, draws: try tally.integer("draws"))
        }
        guard let eventObject = reader.object["event"]?.objectValue else { throw .missingField("event") }
        let eventReader = Reader(object: eventObject)
        let state = PublicState(
            game: try reader.integer("game"), seq: try reader.integer("seq"), phase: phase, layout: layout,
            cards: cards, players: players, turn: try reader.optionalSeat("turn"),
            turnMillisecondsLeft: try reader.optionalInteger("turn_ms_left"),
            outcome: phase == .over ? (winner.map(Outcome.win) ?? .draw) : nil,
            series: series, event: try event(eventReader))
        return StateMessage(room: try reader.string("room"), spectators: try reader.integer("spectators"),
                            state: state, id: eventReader.id)
    }

    private static func event(_ reader: Reader) throws(ServerMessageError) -> GameEvent {
        let kind = try reader.string("kind")
        func seat() throws(ServerMessageError) -> Seat { try reader.seat("seat") }
        func cards() throws(ServerMessageError) -> CardPair {
            let values = try reader.array("cards").compactMap(\.integerValue)
            guard values.count == 2 else { throw .badField("cards") }
            return CardPair(Int(values[0]), Int(values[1]))
        }
        switch kind {
        case "join": return .join(try seat())
        case "start": return .start(turn: try seat())
        case "flip": return .flip(try seat(), card: try reader.integer("card"))
        case "match": return .match(try seat(), cards: try cards())
        case "mismatch": return .mismatch(try seat(), cards: try cards())
        case "hide": return .hide(cards: try cards())
        case "timeout": return .timeout(try seat(), hidden: try reader.optionalInteger("card"))
        case "over": return .over(try seat(), cards: try cards())
        case "forfeit": return .forfeit(try seat())
        case "leave": return .leave(try seat())
        case "disconnect": return .disconnect(try seat())
        case "reconnect": return .reconnect(try seat())
        case "rematch": return .rematch(try seat())
        default: throw .badField("event.kind")
        }
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

/// Typed reads of an object's fields that name the field when they fail.
private struct Reader {
    let object: JSONObject

    var id: RequestID? {
        switch object["id"] {
        case .number(.integer(let value))?: .integer(value)
        case .string(let value)?: .string(value)
        default: nil
        }
    }

    func string(_ key: String) throws(ServerMessageError) -> String {
        guard let value = object[key] else { throw .missingField(key) }
        guard let string = value.stringValue else { throw .badField(key) }
        return string
    }

    func optionalString(_ key: String) throws(ServerMessageError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let string = value.stringValue else { throw .badField(key) }
        return string
    }

    func integer(_ key: String) throws(ServerMessageError) -> Int {
        guard let value = object[key] else { throw .missingField(key) }
        guard let integer = value.integerValue else { throw .badField(key) }
        return Int(integer)
    }

    func optionalInteger(_ key: String) throws(ServerMessageError) -> Int? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let integer = value.integerValue else { throw .badField(key) }
        return Int(integer)
    }

    func bool(_ key: String) throws(ServerMessageError) -> Bool {
        guard let value = object[key] else { throw .missingField(key) }
        guard let bool = value.boolValue else { throw .badField(key) }
        return bool
    }

    func array(_ key: String) throws(ServerMessageError) -> [JSONValue] {
        guard let value = object[key] else { throw .missingField(key) }
        guard let array = value.arrayValue else { throw .badField(key) }
        return array
    }

    func seat(_ key: String) throws(ServerMessageError) -> Seat {
        guard let seat = try optionalSeat(key) else { throw .missingField(key) }
        return seat
    }

    func optionalSeat(_ key: String) throws(ServerMessageError) -> Seat? {
        guard let index = try optionalInteger(key) else { return nil }
        guard let seat = Seat(index: index) else { throw .badField(key) }
        return seat
    }

    func phase(_ key: String) throws(ServerMessageError) -> Phase {
        guard let phase = Phase(rawValue: try string(key)) else { throw .badField(key) }
        return phase
    }
}
