import PairsRules

/// Turns one line from a client into a `Request`, or into the `RequestError` to answer it with.
///
/// A line that starts with `{` is JSON; any other line is a text command typed by a person (`flip 3`).
/// Decoding never traps and never loops on its input: every byte sequence ends as a request, an error, or
/// (for a blank line) nothing.
public enum RequestDecoder {
    /// Decodes one line without its terminator. Returns nil for a blank line, which the server ignores.
    public static func decode(line: UnsafeRawBufferPointer) throws(RequestError) -> Request? {
        var start = 0
        while start < line.count, line[start] == UInt8(ascii: " ") || line[start] == UInt8(ascii: "\t") {
            start += 1
        }
        if start == line.count { return nil }
        if line[start] == UInt8(ascii: "{") {
            if let flip = FlipFastPath.decode(line) { return flip }
            return try decodeJSON(line)
        }
        guard let text = String(validating: line, as: UTF8.self) else {
            throw RequestError(.badJSON, "the line is not valid UTF-8")
        }
        return try TextCommand.parse(text)
    }

    /// Decodes one line given as bytes.
    public static func decode(line: some Collection<UInt8>) throws(RequestError) -> Request? {
        let result = Array(line).withUnsafeBytes { buffer in
            Result { () throws(RequestError) -> Request? in try decode(line: buffer) }
        }
        return try result.get()
    }

    static func decodeJSON(_ line: UnsafeRawBufferPointer) throws(RequestError) -> Request {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw RequestError(.badJSON, "not valid JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw RequestError(.badJSON, "a message is a JSON object")
        }
        let id = try requestID(in: object)
        do {
            return Request(id: id, try message(in: object))
        } catch {
            throw RequestError(error.code, error.message, id: id)
        }
    }

    private static func requestID(in object: JSONObject) throws(RequestError) -> RequestID? {
        switch object["id"] {
        case nil, .null?:
            return nil
        case .number(.integer(let value))?:
            return .integer(value)
        case .string(let value)? where value.utf8.count <= RequestID.maxStringBytes:
            // An id is echoed in events the whole room receives, raw where JSON does not escape it: a C1
            // control (8-bit CSI) or a bidi override would reach other players' terminals as one.
            guard !value.unicodeScalars.contains(where: TextCleaner.isUnsafeForDisplay) else {
                throw RequestError(.badField, "id must not contain control or formatting characters")
            }
            return .string(value)
        default:
            throw RequestError(.badField, "id must be an integer or a string of at most \(RequestID.maxStringBytes) bytes")
        }
    }

    private static func message(in object: JSONObject) throws(RequestError) -> ClientMessage {
        guard let typeValue = object["type"] else { throw RequestError(.badField, "missing field: type") }
        guard let type = typeValue.stringValue else { throw RequestError(.badField, "type must be a string") }
        var fields = Fields(object: object)
        switch type {
        case "hello":
            if let version = try fields.optionalInteger("protocol"), version != WireProtocol.version {
                throw RequestError(.unsupportedProtocol, "this server speaks protocol \(WireProtocol.version), not \(version)")
            }
            let name = try name(try fields.string("name"))
            let password = try password(fields.optionalString("password"))
            return .hello(name: name, password: password, followsRedirects: try fields.optionalBool("redirects") ?? false)
        case "join":
            return .join(try joinRequest(&fields))
        case "flip":
            return .flip(card: try fields.integer("card"))
        case "leave": return .leave
        case "rematch": return .rematch
        case "say": return .say(text: try chat(try fields.string("text")))
        case "watch": return .watch(room: try room(try fields.string("room")))
        case "list":
            var query = ListQuery(limit: try fields.optionalInteger("limit", in: ListLimits.limitRange))
            if let after = try fields.optionalString("after") { query.after = try cursor(after) }
            return .list(query)
        case "resume": return .resume(token: try fields.string("token"))
        case "ping": return .ping
        case "stats": return .stats
        case "help": return .help
        case "quit": return .quit
        case "history":
            var query = HistoryQuery()
            if let name = try fields.optionalString("name") { query.name = try self.name(name) }
            if let rules = fields.object["rules"], !rules.isNull { query.rules = try ruleChoices(in: rules, field: "rules") }
            query.limit = try fields.optionalInteger("limit", in: StorageLimits.limitRange)
            query.before = try fields.optionalInteger("before", in: 1...Int.max).map(Int64.init)
            query.tournament = try tournamentKey(fields.optionalString("tournament"))
            return .history(query)
        case "replay":
            return .replay(game: Int64(try fields.integer("game")))
        case "leaderboard":
            var query = LeaderboardQuery()
            if let rules = fields.object["rules"], !rules.isNull { query.rules = try ruleChoices(in: rules, field: "rules") }
            query.limit = try fields.optionalInteger("limit", in: StorageLimits.limitRange)
            query.by = try fields.optionalName("by", of: SoloRankingKind.self)
            return .leaderboard(query)
        case "profile":
            return .profile(name: try name(try fields.string("name")), tournament: try tournamentKey(fields.optionalString("tournament")))
        case "tournament_create":
            return .tournament(.create(try tournamentCreation(fields)))
        case "tournament_join":
            return .tournament(.join(tournament: try tournament(try fields.string("tournament")),
                                     standings: try fields.optionalInteger("standings", in: TournamentLimits.followedStandingsRange)))
        case "tournament_leave": return .tournament(.leave(tournament: try tournament(try fields.string("tournament"))))
        case "tournament_start": return .tournament(.start(tournament: try tournament(try fields.string("tournament"))))
        case "tournament_list": return .tournament(.list)
        case "tournament_watch":
            return .tournament(.watch(tournament: try tournament(try fields.string("tournament")),
                                      standings: try fields.optionalInteger("standings", in: TournamentLimits.followedStandingsRange)))
        default:
            throw RequestError(.unknownType, "unknown type \"\(TextCleaner.cleanChat(type) ?? "")\"; send {\"type\":\"help\"} for the list")
        }
    }

    private static func joinRequest(_ fields: inout Fields) throws(RequestError) -> JoinRequest {
        var request = JoinRequest()
        if let name = try fields.optionalString("room") { request.room = try room(name) }
        request.rules = try ruleChoices(in: fields.object)
        return request
    }

    /// The rules an object chooses, by protocol.md's names, each checked against its own range: a `join`'s
    /// options, or a room's `rules` as the server sends them. The most sets a board holds depends on the
    /// other rules; `RuleChoices.rules(over:)` checks that once they are all known.
    public static func ruleChoices(in object: JSONObject) throws(RequestError) -> RuleChoices {
        let fields = Fields(object: object)
        var rules = RuleChoices()
        rules.seats = try fields.optionalInteger("seats", in: 1...2).flatMap(SeatCount.init(rawValue:))
        rules.setSize = try fields.optionalInteger("match", in: 2...3).flatMap(SetSize.init(rawValue:))
        rules.deck = try fields.optionalName("deck", of: Deck.self)
        rules.scoring = try fields.optionalName("scoring", of: Scoring.Kind.self)
        rules.flipCost = try fields.optionalInteger("flip_cost", in: MatchismoCosts.range)
        rules.mismatchPenalty = try fields.optionalInteger("mismatch_penalty", in: MatchismoCosts.range)
        rules.matchBonus = try fields.optionalInteger("match_bonus", in: MatchismoCosts.range)
        rules.gameSeconds = try fields.optionalInteger("game_seconds", in: Variant.gameSecondsRange)
        rules.peekMilliseconds = try fields.optionalInteger("peek_ms", in: Variant.peekMillisecondsRange)
        rules.pairs = try fields.optionalInteger("pairs", in: RuleSet.pairsLimits)
        rules.turnSeconds = try fields.optionalInteger("turn_seconds", in: RuleSet.turnSecondsRange)
        rules.revealMilliseconds = try fields.optionalInteger("reveal_ms", in: RuleSet.revealMillisecondsRange)
        rules.againOnMatch = try fields.optionalBool("again_on_match")
        return rules
    }

    /// The rules an object field chooses (`"rules":{...}`), or `bad_field` when it is not an object.
    private static func ruleChoices(in value: JSONValue, field: String) throws(RequestError) -> RuleChoices {
        guard let object = value.objectValue else { throw RequestError(.badField, "\(field) must be an object of rules") }
        return try ruleChoices(in: object)
    }

    /// A `tournament_create`: a name, a format with its length (a Swiss's optional rounds, an arena's
    /// minutes), two-player rules as `join` takes them (in `rules`), when to start and who may join.
    static func tournamentCreation(in object: JSONObject) throws(RequestError) -> TournamentCreation {
        try tournamentCreation(Fields(object: object))
    }

    private static func tournamentCreation(_ fields: Fields) throws(RequestError) -> TournamentCreation {
        let name = try tournament(try fields.string("name"))
        guard let format = try fields.optionalString("format") else {
            throw RequestError(.badFormat, "format must be \"swiss\" or \"arena\"")
        }
        let rounds = try fields.optionalInteger("rounds", in: TournamentLimits.roundsRange)
        let minutes = try fields.optionalNumber("minutes")
        if let minutes, !TournamentLimits.minutesRange.contains(minutes) {
            throw RequestError(.badField, "minutes must be \(TournamentLimits.minutesRange.lowerBound)...\(TournamentLimits.minutesRange.upperBound)")
        }
        let length: TournamentLength
        switch (TournamentKind(wireName: format), rounds, minutes) {
        case (.swiss?, let rounds, nil): length = .rounds(rounds)
        case (.arena?, nil, let minutes?): length = .milliseconds(Int64((minutes * 60_000).rounded()))
        case (.swiss?, _, _?): throw RequestError(.badFormat, "a Swiss is played in rounds, not minutes")
        case (.arena?, _?, _): throw RequestError(.badFormat, "an arena is played for minutes, not rounds")
        case (.arena?, nil, nil): throw RequestError(.badFormat, "an arena needs minutes")
        case (nil, _, _): throw RequestError(.badFormat, "format must be \"swiss\" or \"arena\", not \"\(TextCleaner.cleanName(format) ?? "")\"")
        }
        var rules = RuleChoices()
        if let value = fields.object["rules"], !value.isNull { rules = try ruleChoices(in: value, field: "rules") }
        guard rules.seats != .one else { throw RequestError(.badFormat, "a tournament's games have two players: no solo rules") }
        let start: TournamentStart
        switch fields.object["start"] {
        case nil, .null?, .string("manual")?: start = .manual
        case .number(.integer(let count))? where TournamentLimits.startPlayersRange.contains(Int(count)): start = .players(Int(count))
        default:
            throw RequestError(.badField, "start must be \"manual\" or a number of players, \(TournamentLimits.startPlayersRange.lowerBound)...\(TournamentLimits.startPlayersRange.upperBound)")
        }
        return TournamentCreation(name: name, length: length, rules: rules, start: start,
                                  claimedOnly: try fields.optionalBool("claimed_only") ?? false)
    }

    /// A tournament's name, checked against the allowed characters and length.
    static func tournament(_ raw: String) throws(RequestError) -> String {
        guard TournamentLimits.isValidName(raw) else {
            throw RequestError(.badField, "a tournament name is 1-\(TournamentLimits.maxNameCharacters) letters, digits, - or _")
        }
        return raw
    }

    /// A tournament's key (`history` and `profile`), or nil when none was given.
    static func tournamentKey(_ raw: String?) throws(RequestError) -> String? {
        guard let raw else { return nil }
        guard TournamentLimits.isValidKey(raw) else {
            throw RequestError(.badField, "a tournament's key is 1-\(TournamentLimits.maxKeyCharacters) letters, digits, - or _, as a kept game's tournament says")
        }
        return raw
    }

    /// A password, taken as it is (not cleaned: it is never shown to anyone), 1 to 256 bytes.
    static func password(_ raw: String?) throws(RequestError) -> String? {
        guard let raw else { return nil }
        guard !raw.isEmpty, raw.utf8.count <= StorageLimits.maxPasswordBytes else {
            throw RequestError(.badField, "password must be 1 to \(StorageLimits.maxPasswordBytes) bytes")
        }
        return raw
    }

    /// A player name, cleaned of control characters and trimmed to the name limit.
    static func name(_ raw: String) throws(RequestError) -> String {
        guard let name = TextCleaner.cleanName(raw) else {
            throw RequestError(.badField, "name must have at least one printable character")
        }
        return name
    }

    /// Chat text, cleaned of control characters and trimmed to the chat limit.
    static func chat(_ raw: String) throws(RequestError) -> String {
        guard let text = TextCleaner.cleanChat(raw) else {
            throw RequestError(.badField, "text must have at least one printable character")
        }
        return text
    }

    /// A room list's cursor, as an earlier `next` gave it.
    static func cursor(_ raw: String) throws(RequestError) -> RoomListCursor {
        guard let cursor = RoomListCursor(wireValue: raw) else {
            throw RequestError(.badField, "after must be the next of an earlier rooms answer")
        }
        return cursor
    }

    /// A room name, checked against the allowed characters and length.
    static func room(_ raw: String) throws(RequestError) -> String {
        guard RoomName.isValid(raw) else {
            throw RequestError(.badRoom, "a room name is 1-\(RoomName.maxLength) letters, digits, - or _")
        }
        return raw
    }
}

/// Typed access to the fields of a request object, with errors that name the field.
private struct Fields {
    let object: JSONObject

    func string(_ key: String) throws(RequestError) -> String {
        guard let value = try optionalString(key) else { throw RequestError(.badField, "missing field: \(key)") }
        return value
    }

    func optionalString(_ key: String) throws(RequestError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw RequestError(.badField, "\(key) must be a string")
        }
    }

    func integer(_ key: String) throws(RequestError) -> Int {
        guard let value = try optionalInteger(key) else { throw RequestError(.badField, "missing field: \(key)") }
        return value
    }

    func optionalInteger(_ key: String) throws(RequestError) -> Int? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(.integer(let value))?: return Int(value)
        default: throw RequestError(.badField, "\(key) must be an integer")
        }
    }

    /// A number, with or without a fraction.
    func optionalNumber(_ key: String) throws(RequestError) -> Double? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(.integer(let value))?: return Double(value)
        case .number(.double(let value))?: return value
        default: throw RequestError(.badField, "\(key) must be a number")
        }
    }

    func optionalInteger(_ key: String, in range: ClosedRange<Int>) throws(RequestError) -> Int? {
        guard let value = try optionalInteger(key) else { return nil }
        guard range.contains(value) else {
            throw RequestError(.badField, "\(key) must be \(range.lowerBound)...\(range.upperBound), not \(value)")
        }
        return value
    }

    /// A string field that must be one of the wire names of `type`.
    func optionalName<Value: WireNamed>(_ key: String, of type: Value.Type) throws(RequestError) -> Value? {
        guard let name = try optionalString(key) else { return nil }
        guard let value = Value(wireName: name) else {
            throw RequestError(.badField, "\(key) must be \(Value.wireNames.map { "\"\($0)\"" }.joined(separator: " or ")), not \"\(TextCleaner.cleanName(name) ?? "")\"")
        }
        return value
    }

    func optionalBool(_ key: String) throws(RequestError) -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw RequestError(.badField, "\(key) must be true or false")
        }
    }
}
