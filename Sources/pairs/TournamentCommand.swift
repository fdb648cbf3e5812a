import PairsClient
import PairsWire

/// `pairs tournament create|start|join|watch|standings|list`: one tournament request under a name, its
/// answer printed; `join` and `watch` go on printing the standings as they change until the tournament ends.
enum TournamentCommand {
    static let usage = """
    usage: pairs tournament create NAME [--format swiss|arena] [--rounds R | --minutes M] [--players N] [--claimed]
           pairs tournament start|join|watch|standings NAME
           pairs tournament list

      create      make a tournament: a Swiss (the default) of R rounds (default: enough for one winner) or
                  an arena of M minutes (decimals allowed: 0.5 is 30 seconds); with --players N it starts by
                  itself once N have joined, else its creator starts it (pairs tournament start NAME)
      start       start it (its creator only: the same --name)
      join        enter it and play it, as pairs play does: the standings between games, the game screen
                  when the server seats you (pairs bot --tournament NAME plays them for you instead);
                  --password proves a claimed name, for a tournament of claimed names (or set
                  \(PasswordFlag.variable)), and --quiet rings no bell
      watch       follow it without playing: the standings each time they change, until it ends
      standings   print its standings and games in progress once
      list        every tournament the server has

    \(QueryCommand.serverUsage)
      --name, -n NAME   the name to ask as (default: $USER): a tournament's creator is known by it
    \(RuleFlags.usage(heading: "  The rules of every game of a tournament made with create (default: the server's):"))

    Exits 0 once answered (watch: once the tournament is over; join: when you quit, as pairs play), 1 if
    the server cannot be asked or refuses (its error is printed), 2 on a bad option.
    """

    private struct Options {
        var request: TournamentRequest
        var follow: Bool
        var endpoint: ServerEndpoint
        var name: String?
        /// `join`: the terminal client that enters the tournament and plays it.
        var play: PlayOptions?
    }

    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        let options: Options
        switch invocation(of: "tournament", arguments, usage: usage, parse: { (arguments) throws(UsageError) in
            try parse(arguments, environment: environment)
        }) {
        case .exit(let status): return status
        case .run(let parsed): options = parsed
        }
        if let play = options.play { PlayCommand.play(play, environment: environment) }
        do {
            try TournamentSession.run(options.request, as: options.name, at: options.endpoint, follow: options.follow) { message in
                let lines: [String] = switch message {
                case .tournament(let view): TournamentReport.lines(view) + [""]
                case .tournaments(let list): TournamentReport.lines(list)
                default: []
                }
                for line in lines { StandardStream.writeLine(line) }
            }
            return 0
        } catch {
            printError("pairs tournament: \(error)")
            return 1
        }
    }

    private static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Options {
        guard let verb = arguments.first, !verb.hasPrefix("-") else { throw UsageError("which? create, start, join, watch, standings or list") }
        let rest = Array(arguments.dropFirst())
        let valueFlags = QueryCommand.serverFlags.union(["name", "format", "rounds", "minutes", "players"]).union(RuleFlags.names)
        if verb == "list" {
            let flags = try Flags(rest, known: valueFlags)
            return Options(request: .list, follow: false, endpoint: try flags.endpoint(), name: try flags.playerName())
        }
        // Before the name is looked for: a password after --password would read as a second name.
        if verb == "join" { try PasswordFlag.check(rest) }
        let (raw, flagArguments) = try QueryCommand.positional(rest, what: "tournament", valueFlags: valueFlags)
        guard TournamentLimits.isValidName(raw) else {
            throw UsageError("a tournament name is 1-\(TournamentLimits.maxNameCharacters) letters, digits, - or _")
        }
        if verb == "join" { return try joining(raw, flagArguments, environment: environment) }
        let flags = try Flags(flagArguments, known: valueFlags, switches: RuleFlags.switches.union(["claimed"]))
        let name = try flags.playerName() ?? (environment["USER"] ?? environment["LOGNAME"]).flatMap { TextCleaner.cleanName($0) }
        let request: TournamentRequest
        var follow = false
        switch verb {
        case "create": request = .create(try creation(named: raw, flags))
        case "start": request = .start(tournament: raw)
        case "watch": request = .watch(tournament: raw); follow = true
        case "standings": request = .watch(tournament: raw)
        default: throw UsageError("unknown '\(verb)': create, start, join, watch, standings or list")
        }
        return Options(request: request, follow: follow, endpoint: try flags.endpoint(), name: name)
    }

    /// `join NAME`: `pairs play` entering the tournament, with the flags of a player (no rules: the
    /// tournament has them).
    private static func joining(_ tournament: String, _ arguments: [String], environment: [String: String]) throws(UsageError) -> Options {
        let flags = try Flags(arguments, known: QueryCommand.serverFlags.union(["name"]), switches: ["password", "quiet"])
        var play = PlayOptions(endpoint: try flags.endpoint())
        play.tournament = tournament
        play.command = "pairs tournament"
        play.name = try flags.playerName() ?? (environment["USER"] ?? environment["LOGNAME"]).flatMap { TextCleaner.cleanName($0) }
        play.isQuiet = flags.isSet("quiet")
        play.password = PasswordFlag.source(flags, environment: environment)
        if play.password != .none, play.name == nil { throw UsageError("a password goes with a name: --name NAME") }
        return Options(request: .join(tournament: tournament), follow: true, endpoint: play.endpoint, name: play.name, play: play)
    }

    private static func creation(named name: String, _ flags: Flags) throws(UsageError) -> TournamentCreation {
        let format = try flags.choice("format", of: TournamentKind.self) ?? .swiss
        let rounds = try flags.integer("rounds", in: TournamentLimits.roundsRange)
        var minutes: Double?
        if let text = flags.string("minutes") {
            guard let value = Double(text), TournamentLimits.minutesRange.contains(value) else {
                throw UsageError("--minutes is a number of minutes, \(TournamentLimits.minutesRange.lowerBound)-\(TournamentLimits.minutesRange.upperBound)")
            }
            minutes = value
        }
        let length: TournamentLength
        switch (format, rounds, minutes) {
        case (.swiss, let rounds, nil): length = .rounds(rounds)
        case (.arena, nil, let minutes?): length = .milliseconds(Int64((minutes * 60_000).rounded()))
        case (.swiss, _, _?): throw UsageError("a Swiss plays rounds (--rounds), not minutes")
        case (.arena, _?, _): throw UsageError("an arena lasts --minutes, not rounds")
        case (.arena, nil, nil): throw UsageError("an arena needs --minutes")
        }
        let start: TournamentStart = try flags.integer("players", in: TournamentLimits.startPlayersRange).map { .players($0) } ?? .manual
        return TournamentCreation(name: name, length: length, rules: try flags.ruleChoices(), start: start, claimedOnly: flags.isSet("claimed"))
    }
}
