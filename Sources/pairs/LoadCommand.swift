import Dispatch
import PairsPolling
#if canImport(Glibc)
import Glibc
#endif
import PairsBots
import PairsClient
import PairsLoad
import PairsRules
import PairsWire

/// `pairs load`: reads the flags, runs a `LoadRunner`, prints its report.
enum LoadCommand {
    static let usage = """
    usage: pairs load [options]

    Plays many games at once between bots over real TCP, measures every flip, and prints a summary.
    Connections 2k and 2k+1 play game k in room PREFIXk; games are rematched as they end. With --solo,
    connection k plays game k alone in room PREFIXk.

      --host, -h HOST     server to load: a name, an IPv4 or an IPv6 address (default localhost); or
                          several, HOST[:PORT],HOST[:PORT],... (the instances of a cluster): connections
                          are spread over them in turn, and follow redirects
      --port, -p N        server port (default 7777)
      --transport T       lines (default), or ws: each connection a WebSocket on /ws, as the browser page
                          connects, the same messages one per text frame
      --games N           stop once N games have finished
      --duration S        stop after S seconds (default 10 when --games is not given, and with --tournament
                          when it ends; with both, whichever comes first)
      --concurrency C     games at once, 2 connections each, 1 with --solo (default 100)
      --loops K           event loops to spread the connections over, each a thread's worth of work, so one
                          pairs load can drive a server on many cores (default: the cores this process may
                          run on, \(ProcessorAffinity.coreCount()) here; never more than the games at once)
      --strategy NAME     memory or random (default memory)
      --think-ms MS       milliseconds a bot waits after a state before flipping, 0-\(BotConfiguration.maxThinkMilliseconds) (default 0)
      --rate R            requests per second per connection at most (default: no limit)
      --room-prefix P     room names are P0, P1, ... (default load<pid>-, new for every run)
      --server-pid PID    also report the CPU time of the server process PID
      --seed N            seed the bots' choices
      --follow-redirects  say hello (as load-N) asking for redirects, and follow them: for an instance of
                          a cluster (pairs serve --cluster), where a room may be on another instance
      --tournament NAME   instead of rooms, every connection is a session that says hello (as PREFIXk) and
                          enters tournament NAME, and plays every game the server seats it in; --concurrency
                          is the sessions (at most \(TournamentLimits.maxEntrants)). The summary adds the pairings made (per
                          second) and each session's wait from free (entering, or its game's end) to paired;
                          the run ends when the tournament does, or at --duration
      --minutes M         with --tournament: first create NAME as an arena of M minutes (decimals allowed)
                          with the rule flags' rules, starting by itself once every session has entered
      --standings N|all   with --tournament: the standings rows each session's pushes carry, the top N and
                          its own (default 0: its own alone); all for every row, as clients that do not
                          ask get
      --json              print the summary as one JSON object instead of text
      --report FILE       also write the run as one HTML page to FILE: throughput, latency percentiles and
                          errors second by second, the latency histogram, CPU; self-contained (no script,
                          nothing fetched), so it opens from disk
      --compare OTHER     with --report: compare with an earlier run's --json output, before and after
      --help              this help (so is -h with no host after it)

    \(RuleFlags.usage(heading: "  The rules sent in every join (default: the server's):"))

    While running, prints one progress line a second on stderr. Latency is measured from the moment a
    flip was meant to leave (the state's arrival plus --think-ms) to the arrival of the state whose
    event.id is that flip's id; flips still unanswered at the end count with their age so far.
    A rate_limited reply is counted and the request resent after a backoff; a dropped connection
    abandons its game and the run goes on. Ctrl-C ends the run early and still prints the summary.

    JSON keys: target, transport (lines or ws), concurrency, loops, strategy, think_ms, duration_s, games, games_per_s, games_forfeited,
    games_abandoned, games_unfinished, flips, flips_per_s, flips_sent, flips_refused, resends,
    latency_ms {p50, p90, p99, p999, max, samples}, unfinished_flips, unfinished_max_ms,
    errors {CODE: count}, errors_total, connections {requested, opened, failed, dropped},
    connection_failures {REASON: count}, connections_dropped {REASON: count}, unreadable_lines,
    cpu_s {load, server (null without --server-pid)}, server (what the server's welcome calls it, or null),
    tournament (NAME or null), pairings, pairings_per_s, free_to_paired_ms {p50, p90, p99, p999, max, samples},
    bytes_received, bytes_received_per_s (every byte the server sent the run's connections), tournament_lines,
    tournament_bytes (the tournament messages' lines among them, and their bytes),
    series {seconds, flips, games, errors, dropped, failed, latency_ms {p50, p90, p99, max, samples},
    cpu_s {load, server}} (arrays with an element per second of the run; the last second ends with the
    run; a latency of a second with none is null), latency_histogram_ms [[low, high, count], ...] (the
    whole run's latencies in buckets four to a doubling). Durations in seconds, latencies in milliseconds.

    pairs load report RUN.json [--compare OTHER.json] [--svg CHART] prints the HTML report of a run saved with
    --json, the same page --report writes, or with --svg one of its charts alone as an SVG file.

    Exits 0 when the run completes, 1 if no connection could be opened, 2 on a bad option.
    """

    static let reportUsage = """
    usage: pairs load report RUN.json [--compare OTHER.json] [--svg CHART]

    Prints the HTML report of a run saved with pairs load --json (the page pairs load --report writes), with
    a before and after comparison against OTHER.json when given.

      --svg CHART   print only this chart of the report, as a standalone SVG file (for a page of its own,
                    such as BENCHMARKS.md): \(LoadReportPage.Chart.allCases.map(\.rawValue).joined(separator: ", "))

    Exits 1 if a file cannot be read or is not the JSON of pairs load --json, or the run has nothing to draw
    in the chart asked for (no series, or no flip answered), 2 on a bad option.
    """

    /// What `pairs load` was asked to do besides the run itself.
    struct Invocation {
        var configuration: LoadConfiguration
        var json = false
        /// Where to write the HTML report.
        var reportPath: String?
        /// The run to compare with, read before this one starts (a bad file is found before, not after).
        var baseline: LoadRunSummary?
        /// With `--minutes`: the arena to create before the run, starting once every session has entered.
        var arena: TournamentCreation?
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == "report" { return report(Array(arguments.dropFirst())) }
        let parsed: Invocation
        switch invocation(of: "load", arguments, usage: usage, parse: parse) {
        case .exit(let status): return status
        case .run(let configuration): parsed = configuration
        }
        if let arena = parsed.arena {
            let endpoint = ServerEndpoint(host: parsed.configuration.host, port: parsed.configuration.port)
            do {
                _ = try ServerQuery.ask(.tournament(.create(arena)), at: endpoint)
            } catch {
                printError("pairs load: cannot create tournament \(arena.name): \(error)")
                return 1
            }
        }
        let signals = SignalWatcher([SIGINT, SIGTERM])
        signal(SIGPIPE, SIG_IGN)
        let runner: LoadRunGroup
        do {
            runner = try LoadRunGroup(configuration: parsed.configuration)
        } catch {
            printError("pairs load: \(error)")
            return 1
        }
        // The first signal ends the run and still prints the report; a second one exits at once.
        var stopping = false
        signals.start(on: .main) { _ in
            if stopping { exit(130) }
            stopping = true
            runner.stop()
        }
        let json = parsed.json
        let reportPath = parsed.reportPath
        let baseline = parsed.baseline
        runner.start(progress: { StandardStream.writeErrorLine("pairs load: \($0)") }) { report in
            if json {
                StandardStream.writeLine(report.json)
            } else {
                StandardStream.write(report.text)
            }
            if let reportPath, !writeReport(of: report, to: reportPath, comparedWith: baseline) { exit(1) }
            if report.connectionsOpened == 0 {
                let reasons = report.connectionFailures.keys.sorted().joined(separator: ", ")
                StandardStream.writeErrorLine("pairs load: no connection to \(report.target) could be opened (\(reasons))")
                exit(1)
            }
            exit(0)
        }
        withExtendedLifetime(runner) { dispatchMain() }
    }

    /// Writes the HTML report of `report`; false (having said why) if it could not.
    static func writeReport(of report: LoadReport, to path: String, comparedWith baseline: LoadRunSummary?) -> Bool {
        let summary: LoadRunSummary
        do {
            summary = try LoadRunSummary(json: report.json)
        } catch {
            printError("pairs load: the run's own JSON could not be read back for --report: \(error)")
            return false
        }
        if let failure = LoadRunFiles.write(LoadReportPage.html(summary, comparedWith: baseline), to: path) {
            printError("pairs load: cannot write the report to \(path): \(String(cString: strerror(failure)))")
            return false
        }
        StandardStream.writeErrorLine("pairs load: report written to \(path)")
        return true
    }

    /// `pairs load report RUN.json [--compare OTHER.json] [--svg CHART]`.
    static func report(_ arguments: [String]) -> Int32 {
        let parsed: (run: String, baseline: String?, chart: LoadReportPage.Chart?)
        switch invocation(of: "load report", arguments, usage: reportUsage, parse: { arguments throws(UsageError) in
            let (run, rest) = try QueryCommand.positional(arguments, what: "run's JSON file", valueFlags: ["compare", "svg"])
            let flags = try Flags(rest, known: ["compare", "svg"])
            return (run, flags.string("compare"), try flags.choice("svg", of: LoadReportPage.Chart.self))
        }) {
        case .exit(let status): return status
        case .run(let files): parsed = files
        }
        do {
            let run = try LoadRunSummary(contentsOf: parsed.run)
            let baseline = try parsed.baseline.map { path throws(LoadRunFileError) in try LoadRunSummary(contentsOf: path) }
            guard let chart = parsed.chart else {
                StandardStream.write(LoadReportPage.html(run, comparedWith: baseline))
                return 0
            }
            guard let svg = LoadReportPage.svg(chart, of: run, comparedWith: baseline) else {
                printError("pairs load report: \(parsed.run) has no \(chart.rawValue) chart to draw (no series, or no flip answered)")
                return 1
            }
            StandardStream.write(svg)
            return 0
        } catch {
            printError("pairs load report: \(error)")
            return 1
        }
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        let flags = try Flags(arguments, known: Set([
            "host", "port", "transport", "games", "duration", "concurrency", "loops", "strategy", "think-ms", "rate", "room-prefix",
            "server-pid", "seed", "report", "compare", "tournament", "minutes", "standings",
        ]).union(RuleFlags.names), switches: Set(["json", "follow-redirects"]).union(RuleFlags.switches))
        var configuration = LoadConfiguration()
        let endpoint = try flags.endpoint()
        configuration.host = endpoint.host
        configuration.port = endpoint.port
        if endpoint.host.contains(",") {
            // Several instances of a cluster: a game's two connections reach different ones, and the room
            // is on one of them, so the run follows redirects.
            var servers: [ServerEndpoint] = []
            for part in endpoint.host.split(separator: ",", omittingEmptySubsequences: false) {
                guard let server = ServerEndpoint(String(part), defaultPort: endpoint.port) else {
                    throw UsageError("--host takes HOST or HOST:PORT separated by commas, not '\(part)'")
                }
                servers.append(server)
            }
            configuration.servers = servers
            configuration.host = servers[0].host
            configuration.port = servers[0].port
        }
        configuration.transport = try flags.choice("transport", of: LoadTransport.self) ?? .lines
        configuration.games = try flags.integer("games", in: 1...1_000_000_000)
        if let text = flags.string("duration") {
            guard let seconds = Double(text), seconds > 0, seconds <= 31_536_000 else {
                throw UsageError("--duration must be a number of seconds above 0, not '\(text)'")
            }
            configuration.durationSeconds = seconds
        }
        configuration.concurrency = try flags.integer("concurrency", in: 1...100_000) ?? configuration.concurrency
        configuration.loops = try flags.integer("loops", in: 1...LoadConfiguration.maxLoops) ?? configuration.loops
        configuration.strategy = try flags.choice("strategy", of: StrategyKind.self) ?? configuration.strategy
        configuration.thinkMilliseconds = try flags.integer("think-ms", in: 0...BotConfiguration.maxThinkMilliseconds) ?? 0
        configuration.rules = try flags.ruleChoices()
        if let text = flags.string("rate") {
            guard let rate = Double(text), rate > 0, rate <= 1_000_000 else {
                throw UsageError("--rate must be a number of requests per second above 0, not '\(text)'")
            }
            configuration.ratePerConnection = rate
        }
        if let prefix = flags.string("room-prefix") { configuration.roomPrefix = prefix }
        configuration.followsRedirects = flags.isSet("follow-redirects") || configuration.servers.count > 1
        if let pid = try flags.integer("server-pid", in: 1...Int(Int32.max)) {
            guard ProcessCPU.seconds(ofProcess: Int32(pid)) != nil else {
                throw UsageError("--server-pid \(pid): no such process (or /proc cannot be read)")
            }
            configuration.serverPID = Int32(pid)
        }
        configuration.seed = try flags.seed()
        var arena: TournamentCreation?
        if let tournament = flags.string("tournament") {
            configuration.tournament = tournament
            switch flags.string("standings") {
            case nil: configuration.tournamentStandings = 0
            case "all": configuration.tournamentStandings = nil
            case let text?:
                let range = TournamentLimits.followedStandingsRange
                guard let count = Int(text), range.contains(count) else {
                    throw UsageError("--standings must be all or \(range.lowerBound)-\(range.upperBound), not '\(text)'")
                }
                configuration.tournamentStandings = count
            }
            if let text = flags.string("minutes") {
                guard let minutes = Double(text), TournamentLimits.minutesRange.contains(minutes) else {
                    throw UsageError("--minutes is a number of minutes, \(TournamentLimits.minutesRange.lowerBound)-\(TournamentLimits.minutesRange.upperBound)")
                }
                let sessions = configuration.gamesInFlight
                guard TournamentLimits.startPlayersRange.contains(sessions) else {
                    throw UsageError("--minutes starts the arena once every session has entered: --concurrency must be \(TournamentLimits.startPlayersRange.lowerBound)-\(TournamentLimits.startPlayersRange.upperBound)")
                }
                arena = TournamentCreation(name: tournament, length: .milliseconds(Int64((minutes * 60_000).rounded())),
                                           rules: configuration.rules, start: .players(sessions))
            }
        } else if flags.string("minutes") != nil || flags.string("standings") != nil {
            throw UsageError("--minutes and --standings go with --tournament NAME")
        }
        if let problem = configuration.problem { throw UsageError(problem) }
        var invocation = Invocation(configuration: configuration, json: flags.isSet("json"), reportPath: flags.string("report"))
        invocation.arena = arena
        if let path = flags.string("compare") {
            guard invocation.reportPath != nil else { throw UsageError("--compare needs --report FILE.html to compare in") }
            do {
                invocation.baseline = try LoadRunSummary(contentsOf: path)
            } catch {
                throw UsageError("--compare \(path): \(error)")
            }
        }
        return invocation
    }
}
