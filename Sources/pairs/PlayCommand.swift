import PairsPolling
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

      --host, -h HOST  server to connect to: a name, an IPv4 or an IPv6 address (default localhost)
      --port, -p N     server port (default 7777)
      --name, -n NAME  your name at the table, 24 characters at most (default: your login name)
      --room, -r ROOM  join ROOM, or create it (default: quick match with whoever is waiting)
      --watch ROOM     watch ROOM instead of playing
      --new            take a new seat even if this command's seat from an earlier run is still held
      --quiet          no bell when your turn begins
    \(PasswordFlag.usage(column: 19))
      --help           this help (so is -h with no host after it)

    \(RuleFlags.usage(heading: "  The room's rules, if you create it (default: the server's):"))

    Type a card number and Enter to flip it; /list, /who, /stats, /say TEXT, /rematch, /leave, /quit,
    /help; /history, /top and /profile NAME show the server's finished games, leaderboard and a player's
    record. A name that belongs to someone asks for its password. During a game, /quit, /leave, Ctrl-C
    and Ctrl-D ask before leaving, since leaving forfeits.
    While you hold a seat, its resume token is kept in $XDG_STATE_HOME/pairs (or ~/.local/state/pairs):
    if pairs play is killed or its terminal closes, the same command takes the seat back while the
    server still holds it.
    On a terminal the board is redrawn in place (NO_COLOR=1 turns the colors off); otherwise
    one line is printed per event. Exits 1 if it cannot connect or the name is refused (or, printing plain
    lines, if the server refuses the room asked for), 2 on a bad option.
    """

    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        let options: PlayOptions
        let parseWithEnvironment = { (arguments: [String]) throws(UsageError) in try parse(arguments, environment: environment) }
        switch invocation(of: "play", arguments, usage: usage, parse: parseWithEnvironment) {
        case .exit(let status): return status
        case .run(let parsed): options = parsed
        }
        play(options, environment: environment)
    }

    /// Runs the terminal client until the player is done, then exits the process with its status: for
    /// `pairs play`, and for `pairs tournament join`, which is the same client entering a tournament.
    static func play(_ options: PlayOptions, environment: [String: String]) -> Never {
        let display = PlayController.standardDisplay(environment: environment)
        let signals = SignalWatcher(PlayController.signals(for: display))
        let controller = PlayController(options: options, display: display, signals: signals)
        controller.start { status in exit(status) }
        // The controller's handlers refer to it without owning it; this keeps it for the life of the process.
        withExtendedLifetime(controller) { dispatchMain() }
    }

    /// The environment variables `pairs play` looks at.
    static func environment() -> [String: String] {
        var values: [String: String] = [:]
        for name in ["NO_COLOR", "TERM", "USER", "LOGNAME", "XDG_STATE_HOME", "HOME", PasswordFlag.variable] {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }

    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> PlayOptions {
        try PasswordFlag.check(arguments)
        let flags = try Flags(arguments, known: Set(["host", "port", "name", "room", "watch"]).union(RuleFlags.names),
                              switches: Set(["new", "quiet", "password"]).union(RuleFlags.switches))
        var options = PlayOptions(endpoint: try flags.endpoint())
        options.room = try flags.room("room")
        options.watch = try flags.room("watch")
        if options.room != nil, options.watch != nil { throw UsageError("--room and --watch cannot go together") }
        options.rules = try flags.ruleChoices()
        if options.watch != nil, !options.rules.isEmpty { throw UsageError("the rules are for playing, not watching") }
        // The login name makes a better default than the server's "player1", when it is a usable name.
        options.name = try flags.playerName() ?? (environment["USER"] ?? environment["LOGNAME"]).flatMap { TextCleaner.cleanName($0) }
        options.savedSeats = SavedSeats.standardDirectory(environment: environment).map(SavedSeats.init(directory:))
        options.ignoresSavedSeat = flags.isSet("new")
        if options.watch != nil, options.ignoresSavedSeat { throw UsageError("--new is for playing, not watching") }
        options.isQuiet = flags.isSet("quiet")
        options.password = PasswordFlag.source(flags, environment: environment)
        if options.password != .none, options.name == nil { throw UsageError("a password goes with a name: --name NAME") }
        return options
    }
}
