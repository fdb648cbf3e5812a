import PairsPolling
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsBots
import PairsClient
import PairsWire

/// `pairs bot`: reads the flags, runs a `BotRunner`, and turns how it went into an exit status.
enum BotCommand {
    static let usage = """
    usage: pairs bot [options]

      --host, -h HOST    server to connect to: a name, an IPv4 or an IPv6 address (default localhost)
      --port, -p N       server port (default 7777)
      --room, -r ROOM    join ROOM, or create it (default: quick match)
      --tournament NAME  enter tournament NAME instead: play every game it pairs the bot for, and exit
                         when it ends (--games and --room do not count then)
      --games N          games to play, then leave and exit (default 0: play until stopped)
      --strategy NAME    memory (remembers every card it has seen) or random (default memory)
      --think-ms MS      milliseconds to think before each flip, 0-\(BotConfiguration.maxThinkMilliseconds) (default \(BotConfiguration.standardThinkMilliseconds))
      --name, -n NAME    the bot's name, 24 characters at most (default bot-STRATEGY)
    \(PasswordFlag.usage(column: 21))
      --seed N           seed the bot's own choices, to repeat a run
      --help             this help (so is -h with no host after it)

    \(RuleFlags.usage(heading: "  The room's rules, if the bot creates it (default: the server's):"))

    Prints one line per finished game, such as "game 3: bot-memory 5 - 3 ann (won)" (solo: "game 3:
    bot-memory cleared the board, 12 points (won)"), then a total. It plays by the rules of the room it is
    in, whatever it asked for.
    Exits 0 once its games are played, 1 if it cannot connect or loses the server, 2 on a bad option.
    """

    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        let parsed: (configuration: BotConfiguration, password: PasswordSource)
        let parseWithEnvironment = { (arguments: [String]) throws(UsageError) in try parse(arguments, environment: environment) }
        switch invocation(of: "bot", arguments, usage: usage, parse: parseWithEnvironment) {
        case .exit(let status): return status
        case .run(let options): parsed = options
        }
        let signals = SignalWatcher([SIGINT, SIGTERM])
        signal(SIGPIPE, SIG_IGN)
        let launcher = Launcher(configuration: parsed.configuration)
        signals.start(on: .main) { _ in launcher.stop() }
        switch parsed.password {
        case .none: launcher.start(password: nil)
        case .given(let password): launcher.start(password: password)
        case .ask:
            PasswordPrompt.ask("password for \(parsed.configuration.name): ", queue: .main) { password in
                guard let password else {
                    StandardStream.writeErrorLine("pairs bot: no password: the input ended before one was given")
                    exit(1)
                }
                launcher.start(password: password)
            }
        }
        withExtendedLifetime(launcher) { dispatchMain() }
    }

    /// Starts the runner once the password is known, and stops it (or, while the password is being asked
    /// for, the program) on a signal. Lives on the main queue: that is the `@unchecked Sendable` promise.
    private final class Launcher: @unchecked Sendable {
        let configuration: BotConfiguration
        private var runner: BotRunner?
        /// Whether a signal stopped the runner: the total is then said even before any game ended, so the
        /// person who pressed Ctrl-C sees the bot stop and how it did.
        private var wasStopped = false

        init(configuration: BotConfiguration) {
            self.configuration = configuration
        }

        func start(password: String?) {
            var configuration = configuration
            configuration.password = password
            let runner = BotRunner(
                configuration: configuration,
                output: { StandardStream.writeLine($0) },
                diagnostics: { StandardStream.writeErrorLine("pairs bot: \($0)") })
            self.runner = runner
            runner.start { outcome in
                // Back on the main queue, where `wasStopped` lives.
                DispatchQueue.main.async { [self] in finish(outcome) }
            }
        }

        private func finish(_ outcome: BotRunner.Outcome) {
            if !outcome.records.isEmpty || wasStopped { StandardStream.writeLine(total(outcome.records)) }
            if let failure = outcome.failure {
                StandardStream.writeErrorLine("pairs bot: \(failure)")
                exit(1)
            }
            exit(0)
        }

        func stop() {
            guard let runner else {
                TerminalInputMode.restore()
                exit(130)
            }
            wasStopped = true
            runner.stop()
        }
    }

    /// "total: 10 games, 6 won, 3 lost, 1 drawn" (or "1 game").
    static func total(_ records: [GameRecord]) -> String {
        let won = records.count { $0.result == .won }
        let lost = records.count { $0.result == .lost }
        let drawn = records.count { $0.result == .draw }
        return "total: \(records.count) game\(records.count == 1 ? "" : "s"), \(won) won, \(lost) lost, \(drawn) drawn"
    }

    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError)
        -> (configuration: BotConfiguration, password: PasswordSource) {
        try PasswordFlag.check(arguments)
        let flags = try Flags(arguments, known: Set(["host", "port", "room", "games", "strategy", "think-ms", "name", "seed", "tournament"])
                                .union(RuleFlags.names), switches: RuleFlags.switches.union(["password"]))
        var configuration = BotConfiguration(
            endpoint: try flags.endpoint(),
            room: try flags.room("room"),
            rules: try flags.ruleChoices(),
            games: try flags.integer("games", in: 0...1_000_000) ?? 0,
            strategy: try flags.choice("strategy", of: StrategyKind.self) ?? .memory,
            thinkMilliseconds: try flags.integer("think-ms", in: 0...BotConfiguration.maxThinkMilliseconds)
                ?? BotConfiguration.standardThinkMilliseconds,
            name: try flags.playerName(),
            seed: try flags.seed())
        if let tournament = flags.string("tournament") {
            guard TournamentLimits.isValidName(tournament) else {
                throw UsageError("a tournament name is 1-\(TournamentLimits.maxNameCharacters) letters, digits, - or _")
            }
            configuration.tournament = tournament
        }
        return (configuration, PasswordFlag.source(flags, environment: environment))
    }
}
