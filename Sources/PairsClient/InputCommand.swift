import PairsWire

/// A line typed into `pairs play`: a card number to flip it, or a slash command.
public enum InputCommand: Sendable, Hashable {
    case flip(card: Int)
    case say(text: String)
    case rematch
    case leave
    case join(room: String?)
    case watch(room: String)
    case list
    case who
    case stats
    case help
    case quit
    /// The last finished games, all or a name's.
    case history(name: String?)
    /// The leaderboard of the game played in the room (the classic game's outside a room).
    case top
    /// A name's ratings, totals and last games.
    case profile(name: String)
    /// A tournament request, typed as in netcat (`/tournament join cup`).
    case tournament(TournamentRequest)

    /// What `/help` shows, one line per command.
    public static let helpLines: [String] = [
        "N + Enter        flip card N (the number on the board)",
        "/say TEXT        chat to the room",
        "/rematch         ask for another game when one is over",
        "/leave           leave the room (asks first during a game: leaving forfeits it)",
        "/join [ROOM]     quick match, or join or create ROOM",
        "/watch ROOM      watch a room",
        "/list            the rooms: who plays in each, and by what rules",
        "/who             who is in your room, or in the lobby who is where",
        "/stats           the server's counters",
        "/history [NAME]  the last finished games, all or NAME's",
        "/top             the best players of the game played here",
        "/profile NAME    NAME's ratings, totals and last games",
        "/tournament join|watch|leave|start NAME, /tournament list: tournaments (/t for short)",
        "/tournament create NAME swiss [rounds R] [players N] | arena minutes M [players N]",
        "/quit            leave and exit (Ctrl-C or Ctrl-D too; asks first during a game)",
    ]

    /// Reads one typed line; nil for a blank one. Command words are case-insensitive, and the slash may be
    /// left off, so `flip 3`, `rematch` and `say hi` (as in netcat) work too.
    public static func parse(_ line: String) throws(InputError) -> InputCommand? {
        let trimmed = line.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        if let card = Int(trimmed) {
            guard card >= 0 else { throw .notACard(String(trimmed)) }
            return .flip(card: card)
        }
        let body = trimmed.hasPrefix("/") ? trimmed.dropFirst() : trimmed
        let (word, rest) = body.splittingCommandWord()
        func noArgument(_ command: InputCommand) throws(InputError) -> InputCommand {
            guard rest.isEmpty else { throw .unexpectedArgument(command: String(word.lowercased())) }
            return command
        }
        switch word.lowercased() {
        case "flip", "f":
            guard let card = Int(rest), card >= 0 else { throw .notACard(String(rest)) }
            return .flip(card: card)
        case "say", "s":
            guard let text = TextCleaner.cleanChat(String(rest)) else { throw .missingText }
            return .say(text: text)
        case "rematch", "r": return try noArgument(.rematch)
        case "leave": return try noArgument(.leave)
        case "list", "rooms": return try noArgument(.list)
        case "who": return try noArgument(.who)
        case "stats": return try noArgument(.stats)
        case "help", "h", "?": return try noArgument(.help)
        case "quit", "q", "exit": return try noArgument(.quit)
        case "join":
            if rest.isEmpty { return .join(room: nil) }
            guard RoomName.isValid(String(rest)) else { throw .badRoom(String(rest)) }
            return .join(room: String(rest))
        case "watch":
            guard RoomName.isValid(String(rest)) else { throw .badRoom(String(rest)) }
            return .watch(room: String(rest))
        case "history":
            if rest.isEmpty { return .history(name: nil) }
            guard let name = TextCleaner.cleanName(String(rest)) else { throw .missingName(command: "history") }
            return .history(name: name)
        case "top", "leaderboard": return try noArgument(.top)
        case "profile":
            guard let name = TextCleaner.cleanName(String(rest)) else { throw .missingName(command: "profile") }
            return .profile(name: name)
        case "tournament", "t":
            // The words are the text protocol's: one parser for netcat and pairs play.
            do throws(RequestError) {
                guard case .tournament(let request)? = try TextCommand.parse("tournament " + rest)?.message else {
                    throw RequestError(.badField, "usage: /tournament join NAME")
                }
                return .tournament(request)
            } catch {
                throw .badTournament(error.message)
            }
        default:
            throw .unknown(TextCleaner.cleanName(String(word)) ?? "?")
        }
    }
}

/// A typed line that is not a command, said so the player knows what to type instead.
public enum InputError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknown(String)
    case notACard(String)
    case missingText
    case badRoom(String)
    case unexpectedArgument(command: String)
    case missingName(command: String)
    /// A /tournament line the text protocol refuses, with its words.
    case badTournament(String)

    public var description: String {
        switch self {
        case .unknown(let word): "\"\(word)\" is not a command: type a card number to flip it, or /help"
        case .notACard(let text): text.isEmpty ? "flip which card? type its number" : "\"\(TextCleaner.cleanName(text) ?? "?")\" is not a card number"
        case .missingText: "say what? type /say and your message"
        case .badRoom: "a room name is 1-\(RoomName.maxLength) letters, digits, - or _"
        case .unexpectedArgument(let command): "/\(command) takes nothing after it"
        case .missingName(let command): "/\(command) needs a name: /\(command) NAME"
        case .badTournament(let message): message
        }
    }
}
