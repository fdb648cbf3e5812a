import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsClient
import PairsWire

/// `pairs play`: reads the flags and hands over to `PlayController`.
enum PlayCommand {
    static let usage = """
    usage: pairs play [options]

      --host HOST     server to connect to: a name, an IPv4 or an IPv6 address (default localhost)
      --port N        server port (default 7777)
      --name NAME     your name at the table (default: your login name)
      --room ROOM     join ROOM, or create it (default: quick match with whoever is waiting)
      --watch ROOM    watch ROOM instead of playing
    \(PasswordFlag.usage(column: 18))


    \(RuleFlags.usage(heading: "  The room's rules, if you create it (default: the server's):"))

    Type a card number and Enter to flip it; /say TEXT, /rematch, /leave, /quit, /help; /history,
    /top and /profile NAME show the server's finished games, leaderboard and a player's record.
    On a terminal the board is redrawn in place (NO_COLOR=1 turns the colors off); otherwise
    one line is printed per event. A name that belongs to someone asks for its password.
    Exits 1 if it cannot connect or the name is refused, 2 on a bad option.
    """

    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        let options: PlayOptions
        let parseWithEnvironment = { (arguments: [String]) throws(UsageError) in try parse(arguments, environment: environment) }
        switch invocation(of: "play", arguments, usage: usage, parse: parseWithEnvironment) {
        case .exit(let status): return status
        case .run(let parsed): options = parsed
        }
        let controller = PlayController(options: options, display: PlayController.standardDisplay(environment: environment))
        controller.start { status in exit(status) }
        // The controller's handlers refer to it without owning it; this keeps it for the life of the process.
        withExtendedLifetime(controller) { dispatchMain() }
    }

    /// The environment variables `pairs play` looks at.
    static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for name in ["NO_COLOR", "TERM", "USER", "LOGNAME", PasswordFlag.variable] {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }

    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> PlayOptions {
        try PasswordFlag.check(arguments)
        let flags = try Flags(arguments, known: Set(["host", "port", "name", "room", "watch"]).union(RuleFlags.names),
                              switches: RuleFlags.switches.union(["password"]))
        var options = PlayOptions(endpoint: try flags.endpoint())
        options.room = try flags.room("room")
        options.watch = try flags.room("watch")
        if options.room != nil, options.watch != nil { throw UsageError("--room and --watch cannot go together") }
        options.rules = try flags.ruleChoices()
        if options.watch != nil, !options.rules.isEmpty { throw UsageError("the rules are for playing, not watching") }
        // The login name makes a better default than the server's "player1", when it is a usable name.
        options.name = try flags.playerName() ?? (environment["USER"] ?? environment["LOGNAME"]).flatMap { TextCleaner.cleanName($0) }
        options.password = PasswordFlag.source(flags, environment: environment)
        if options.password != .none, options.name == nil { throw UsageError("a password goes with a name: --name NAME") }
        return options
    }
}
