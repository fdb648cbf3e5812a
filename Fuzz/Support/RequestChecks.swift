import PairsRules
@testable import PairsWire

// What must hold of whatever the request decoder makes of a line: shared by the request decoder's target
// and the text command parser's.

/// The codes a line alone can earn (`bad_format`: a tournament_create whose format and length do not fit); the others depend on the connection's state, which decoding never sees.
private let decodingErrorCodes: Set<ErrorCode> = [.badJSON, .unknownType, .badField, .badRoom, .unsupportedProtocol, .badFormat]

/// An error from decoding `line`: a code decoding can give, and a message a person can read on a terminal.
func checkDecodingError(_ error: RequestError, line: some Sequence<UInt8>) {
    check(decodingErrorCodes.contains(error.code), "\(shown(line)): decoding answered \(error.code)")
    check(!error.message.isEmpty, "\(shown(line)): \(error.code) has no message")
    check(isDisplaySafe(error.message), "\(shown(line)): the message \(error.message.debugDescription) could drive a terminal")
}

/// A request decoded from `line`: every string in it is as cleaning and validation leave them, every option
/// within its range, and a client that encodes it gets it back from the decoder unchanged.
func checkDecodedRequest(_ request: Request, line: some Sequence<UInt8>) {
    let line = Array(line)
    if case .string(let id)? = request.id {
        check(id.utf8.count <= RequestID.maxStringBytes, "\(shown(line)): an id of \(id.utf8.count) bytes")
    }
    switch request.message {
    case .hello(let name, let password, _):
        checkCleaned(name, maxCharacters: TextCleaner.maxNameCharacters, maxBytes: TextCleaner.maxNameBytes, line: line)
        if let password {
            check(!password.isEmpty && password.utf8.count <= StorageLimits.maxPasswordBytes,
                  "\(shown(line)): a password of \(password.utf8.count) bytes")
        }
    case .say(let text):
        checkCleaned(text, maxCharacters: TextCleaner.maxChatCharacters, maxBytes: TextCleaner.maxChatBytes, line: line)
    case .join(let join):
        check(join.room.map(RoomName.isValid) ?? true, "\(shown(line)): joins an invalid room")
        checkInRange(join.rules, line: line)
    case .watch(let room):
        check(RoomName.isValid(room), "\(shown(line)): watches an invalid room")
    case .history(let query):
        if let name = query.name {
            checkCleaned(name, maxCharacters: TextCleaner.maxNameCharacters, maxBytes: TextCleaner.maxNameBytes, line: line)
        }
        if let rules = query.rules { checkInRange(rules, line: line) }
        check(query.limit.map(StorageLimits.limitRange.contains) ?? true, "\(shown(line)): history limit out of range")
        check(query.tournament.map(TournamentLimits.isValidKey) ?? true, "\(shown(line)): history of an invalid tournament key")
    case .leaderboard(let query):
        if let rules = query.rules { checkInRange(rules, line: line) }
        check(query.limit.map(StorageLimits.limitRange.contains) ?? true, "\(shown(line)): leaderboard limit out of range")
    case .profile(let name, let tournament):
        checkCleaned(name, maxCharacters: TextCleaner.maxNameCharacters, maxBytes: TextCleaner.maxNameBytes, line: line)
        check(tournament.map(TournamentLimits.isValidKey) ?? true, "\(shown(line)): profile of an invalid tournament key")
    case .list(let query):
        check(query.limit.map(ListLimits.limitRange.contains) ?? true, "\(shown(line)): list limit out of range")
        check(query.after.map { RoomName.isValid($0.room) } ?? true, "\(shown(line)): list cursor names an invalid room")
    case .tournament(.create(let creation)):
        check(TournamentLimits.isValidName(creation.name), "\(shown(line)): creates a tournament of an invalid name")
        checkInRange(creation.rules, line: line)
        switch creation.length {
        case .rounds(let rounds):
            check(rounds.map(TournamentLimits.roundsRange.contains) ?? true, "\(shown(line)): rounds out of range")
        case .milliseconds(let milliseconds):
            check(TournamentLimits.minutesRange.contains(Double(milliseconds) / 60_000), "\(shown(line)): minutes out of range")
        }
        if case .players(let players) = creation.start {
            check(TournamentLimits.startPlayersRange.contains(players), "\(shown(line)): start players out of range")
        }
    case .tournament(.join(let name, let standings)), .tournament(.watch(let name, let standings)):
        check(TournamentLimits.isValidName(name), "\(shown(line)): names an invalid tournament")
        check(standings.map(TournamentLimits.followedStandingsRange.contains) ?? true, "\(shown(line)): standings out of range")
    case .tournament(.leave(let name)), .tournament(.start(let name)):
        check(TournamentLimits.isValidName(name), "\(shown(line)): names an invalid tournament")
    case .flip, .resume, .leave, .rematch, .ping, .stats, .help, .quit, .replay, .tournament(.list):
        break
    }
    let encoded = RequestEncoder.encode(request)
    check(encoded.last == ASCII.newline && !encoded.dropLast().contains(ASCII.newline),
          "\(shown(line)): encodes to \(shown(encoded)), which is not one line")
    let decoded = Result { () throws(RequestError) in try RequestDecoder.decode(line: encoded.dropLast()) }
    check(decoded == .success(request), "\(shown(line)): \(request) encodes to \(shown(encoded)), which decodes to \(decoded)")
}

/// Every rule option `rules` sets is within the range protocol.md gives it.
private func checkInRange(_ rules: RuleChoices, line: [UInt8]) {
    check(rules.pairs.map(RuleSet.pairsLimits.contains) ?? true, "\(shown(line)): pairs out of range")
    check(rules.turnSeconds.map(RuleSet.turnSecondsRange.contains) ?? true, "\(shown(line)): turn_seconds out of range")
    check(rules.revealMilliseconds.map(RuleSet.revealMillisecondsRange.contains) ?? true,
          "\(shown(line)): reveal_ms out of range")
    check(rules.gameSeconds.map(Variant.gameSecondsRange.contains) ?? true, "\(shown(line)): game_seconds out of range")
    check(rules.peekMilliseconds.map(Variant.peekMillisecondsRange.contains) ?? true, "\(shown(line)): peek_ms out of range")
    for cost in [rules.flipCost, rules.mismatchPenalty, rules.matchBonus] {
        check(cost.map(MatchismoCosts.range.contains) ?? true, "\(shown(line)): a Matchismo constant out of range")
    }
}

/// `text` is what `TextCleaner` leaves: printable, trimmed, within both limits.
private func checkCleaned(_ text: String, maxCharacters: Int, maxBytes: Int, line: [UInt8]) {
    check(!text.isEmpty, "\(shown(line)): empty text")
    check(text.count <= maxCharacters && text.utf8.count <= maxBytes,
          "\(shown(line)): \(text.count) characters, \(text.utf8.count) bytes")
    check(isDisplaySafe(text), "\(shown(line)): \(text.debugDescription) could drive a terminal")
    let scalars = text.unicodeScalars
    check(scalars.first?.properties.isWhitespace == false && scalars.last?.properties.isWhitespace == false,
          "\(shown(line)): \(text.debugDescription) is not trimmed")
}

/// Whether `text` has nothing that drives a terminal or the layout of text: no C0 or C1 control, no DEL, no
/// format character but the zero width joiner. Written from the definition, not with `TextCleaner`'s own
/// test, so that a slip there shows here.
private func isDisplaySafe(_ text: String) -> Bool {
    !text.unicodeScalars.contains { scalar in
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || (scalar.properties.generalCategory == .format && scalar != "\u{200D}")
    }
}
