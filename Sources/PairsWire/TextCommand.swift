/// The text commands people type in netcat: a word, then its arguments (`join kitchen`, `flip 3`,
/// `say good game`). A line that is only a number flips that card.
public enum TextCommand {
    /// Every command with its arguments, as `help` lists them.
    public static let usage: [String] = [
        "join [ROOM]        quick match, or join or create ROOM",
        "flip N  (or just N) turn card N face up",
        "say TEXT           chat to your room",
        "name NAME          set your name",
        "rematch            ask for another game when one is over",
        "leave              leave the room (forfeits a game in progress)",
        "watch ROOM         watch a room as a spectator",
        "list [NEXT]        the rooms, a page at a time (NEXT: the next of the last page)",
        "resume TOKEN       take your seat back after a dropped connection",
        "history [NAME]     the last games (of NAME)",
        "replay GAME        every move of a finished game",
        "top                the classic game's leaderboard",
        "profile NAME       a player's ratings and last games",
        "tournament create NAME swiss [rounds R] [players N] [claimed]",
        "tournament create NAME arena minutes M [players N] [claimed]",
        "tournament join|leave|start|watch NAME | tournament list",
        "ping | stats | help | quit",
    ]

    /// Parses one line of text (not JSON). Command words are case-insensitive.
    public static func parse(_ line: String) throws(RequestError) -> Request? {
        let trimmed = line.trimmingWhitespace()
        if trimmed.isEmpty { return nil }
        let (word, rest) = trimmed.splittingCommandWord()
        if let card = Int(word), rest.isEmpty {
            return Request(.flip(card: card))
        }
        let command = word.lowercased()
        func noArguments(_ message: ClientMessage) throws(RequestError) -> Request {
            guard rest.isEmpty else { throw RequestError(.badField, "\(command) takes no arguments") }
            return Request(message)
        }
        switch command {
        case "join":
            if rest.isEmpty { return Request(.join(JoinRequest())) }
            return Request(.join(JoinRequest(room: try RequestDecoder.room(String(rest)))))
        case "flip":
            guard let card = Int(rest) else { throw RequestError(.badField, "usage: flip N, with N a card number") }
            return Request(.flip(card: card))
        case "say":
            return Request(.say(text: try RequestDecoder.chat(String(rest))))
        case "name":
            return Request(.hello(name: try RequestDecoder.name(String(rest))))
        case "watch":
            return Request(.watch(room: try RequestDecoder.room(String(rest))))
        case "resume":
            guard !rest.isEmpty else { throw RequestError(.badField, "usage: resume TOKEN") }
            return Request(.resume(token: String(rest)))
        case "history":
            return Request(.history(HistoryQuery(name: rest.isEmpty ? nil : try RequestDecoder.name(String(rest)))))
        case "replay":
            guard let game = Int64(rest), game > 0 else { throw RequestError(.badField, "usage: replay GAME, with GAME a game's number") }
            return Request(.replay(game: game))
        case "top", "leaderboard": return try noArguments(.leaderboard(LeaderboardQuery()))
        case "profile":
            guard !rest.isEmpty else { throw RequestError(.badField, "usage: profile NAME") }
            return Request(.profile(name: try RequestDecoder.name(String(rest))))
        case "tournament":
            return Request(.tournament(try tournament(rest)))
        case "leave": return try noArguments(.leave)
        case "rematch": return try noArguments(.rematch)
        case "list":
            return Request(rest.isEmpty ? .list : .list(ListQuery(after: try RequestDecoder.cursor(String(rest)))))
        case "ping": return try noArguments(.ping)
        case "stats": return try noArguments(.stats)
        case "help": return try noArguments(.help)
        case "quit", "exit": return try noArguments(.quit)
        default:
            let shown = TextCleaner.cleanName(String(word)) ?? "?"
            throw RequestError(.unknownType, "unknown command \"\(shown)\"; type help for the list")
        }
    }

    /// `tournament create NAME swiss [rounds R] [players N] [claimed]`, `tournament create NAME arena minutes M
    /// [players N] [claimed]`, `tournament join|watch NAME [standings N]`, `tournament leave|start NAME`, `tournament list`.
    private static func tournament(_ text: Substring) throws(RequestError) -> TournamentRequest {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let usage = "usage: tournament create NAME swiss [rounds R] | arena minutes M [players N] [claimed]; tournament join|watch NAME [standings N]; tournament leave|start NAME; tournament list"
        guard let verb = words.first?.lowercased() else { throw RequestError(.badField, usage) }
        func named() throws(RequestError) -> String {
            guard words.count == 2 else { throw RequestError(.badField, usage) }
            return try RequestDecoder.tournament(words[1])
        }
        /// `NAME [standings N]`, as `join` and `watch` take them.
        func followed() throws(RequestError) -> (name: String, standings: Int?) {
            guard words.count == 2 || (words.count == 4 && words[2].lowercased() == "standings") else { throw RequestError(.badField, usage) }
            let name = try RequestDecoder.tournament(words[1])
            guard words.count == 4 else { return (name, nil) }
            let range = TournamentLimits.followedStandingsRange
            guard let count = Int(words[3]), range.contains(count) else {
                throw RequestError(.badField, "standings must be \(range.lowerBound)...\(range.upperBound), not \(TextCleaner.cleanName(words[3]) ?? "")")
            }
            return (name, count)
        }
        switch verb {
        case "join":
            let (name, standings) = try followed()
            return .join(tournament: name, standings: standings)
        case "leave": return .leave(tournament: try named())
        case "start": return .start(tournament: try named())
        case "watch":
            let (name, standings) = try followed()
            return .watch(tournament: name, standings: standings)
        case "list":
            guard words.count == 1 else { throw RequestError(.badField, "tournament list takes no arguments") }
            return .list
        case "create":
            guard words.count >= 3 else { throw RequestError(.badField, usage) }
            // The same checks as the JSON request's: built as its object and decoded as one.
            var members: [(String, JSONValue)] = [("name", .string(words[1])), ("format", .string(words[2].lowercased()))]
            var index = 3
            while index < words.count {
                let option = words[index].lowercased()
                if option == "claimed" {
                    members.append(("claimed_only", .bool(true)))
                    index += 1
                    continue
                }
                guard ["rounds", "minutes", "players"].contains(option), index + 1 < words.count,
                      let number = Double(words[index + 1]), number.isFinite else { throw RequestError(.badField, usage) }
                let value: JSONValue = number == number.rounded() && abs(number) < 1e15 ? .number(.integer(Int64(number))) : .number(.double(number))
                members.append((option == "players" ? "start" : option, value))
                index += 2
            }
            return .create(try RequestDecoder.tournamentCreation(in: JSONObject(members.map { (key: $0.0, value: $0.1) })))
        default:
            throw RequestError(.badField, usage)
        }
    }
}
