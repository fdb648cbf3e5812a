import PairsPolling
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
import PairsRules
import PairsServer
import PairsStorage

/// `pairs serve`: reads the flags, starts the server, stops it cleanly on SIGINT, SIGTERM or SIGHUP, and
/// reopens its log file on SIGUSR1.
enum ServeCommand {
    /// `--loops` at most: far more than any machine's cores, and a bound on the queues and epoll sets a
    /// mistyped number could make.
    static let maxLoops = 1024

    static let usage = """
    usage: pairs serve [options]

      --host, -h ADDRESS     address to listen on (default 0.0.0.0; IPv6 such as :: or ::1 works too)
      --port, -p N           TCP port (default 7777; 0 picks a free one)
      --grace-seconds N      seconds a dropped player keeps the seat (default 60)
      --seed N               deal every room's boards from this seed (for tests and replays)
      --max-connections N    connections at once (default: what the file-descriptor limit allows)
      --loops N              event loops, each with its own rooms and connections (default: the cores the
                             process may run on, \(ProcessorAffinity.coreCount()) here)
      --idle-seconds N       close connections in no room after this long without a message (default 300)
      --visitor-silence-seconds N
                             close a connection that sends nothing, from an address that loaded the page,
                             after this long; it is never greeted (default 300)
      --rate-limit N         messages per second per connection, bursts of twice that; 0 = off (default 40)
      --log-level LEVEL      debug, info, warning or error (default info)
      --log-format FORMAT    text, or json for log collectors: one object a line (default text)
      --log-file PATH        append the log to PATH instead of stderr; SIGUSR1 reopens it (rotation)
      --pid-file PATH        write the process id to PATH once listening; removed on a clean exit
      --allow-origin ORIGIN  let pages from ORIGIN (such as http://example.lan:8080) open WebSockets
                             here too; repeatable (by default only the server's own page may)
      --data PATH            the SQLite file that keeps finished games, claimed names and ratings, or none
                             to keep nothing (default $XDG_DATA_HOME/pairs/pairs.db, or
                             ~/.local/share/pairs/pairs.db), or a postgresql://USER@HOST:PORT/DB URL
                             that several servers share (a build with the Cluster trait)
      --cluster redis://HOST:PORT
                             run as one instance of several sharing rooms through that Redis (a build with
                             the Cluster trait); see README, "Running several instances"
      --advertise HOST:PORT  the address other instances send clients to (default: the listening address;
                             required with --cluster when listening on a wildcard such as 0.0.0.0)
      --dashboard on|off     serve the live dashboard at /dashboard (default on; /stats and /metrics stay)
      --keep-days N          days a game with an unclaimed player is kept; 0 = until --keep-megabytes
                             needs the room (default 30)
      --keep-megabytes N     the most the --data file may hold: the oldest games go first, anonymous ones
                             before those of claimed names, rated ones last; 0 = no limit (default 1024);
                             not for a PostgreSQL database, whose size its operator keeps
      --help                 this help (so is -h with no address after it)

    \(RuleFlags.usage(heading: "  The rules of rooms whose creator does not choose them (default: the classic game, 8 pairs, 30 s a turn, a 1000 ms reveal, a match moves again):"))

    Prints "pairs listening on HOST:PORT" on stdout once it is listening (unless stdout is the terminal the
    log's own listening line, with the process id, already went to), then "open http://ADDRESS:PORT/ in a
    browser" for each of the machine's LAN addresses: the same port serves the game's page.
    """

    /// `--dashboard`'s values.
    enum OnOff: String, CaseIterable {
        case on, off
    }

    /// What `pairs serve` was asked for: the server, and where it keeps its games.
    struct Options {
        var configuration = ServerConfiguration()
        var storage: StoreLocation = .disabled
        var retention = Retention.standard
        var logFile: String?
        var pidFile: String?
        /// `--cluster`'s Redis URL and `--advertise`'s address.
        var cluster: String?
        var advertise: String?
    }

    static func run(_ arguments: [String], version: String) -> Int32 {
        let options: Options
        switch invocation(of: "serve", arguments, usage: usage, parse: parse) {
        case .exit(let status): return status
        case .run(let parsed): options = parsed
        }
        // Before anything else, so that no thread of the program can take these signals from the watcher.
        let signals = SignalWatcher([SIGINT, SIGTERM, SIGHUP, SIGUSR1])
        var configuration = options.configuration
        signal(SIGPIPE, SIG_IGN)
        // The log file and the pid file's first half before anything else: a path that cannot be written
        // stops the server before it listens.
        if let path = options.logFile {
            do {
                configuration.log.destination = .file(try LogFile(path: path))
            } catch {
                printError("pairs serve: \(error)")
                return 1
            }
        }
        let pidFile: PIDFile?
        do {
            pidFile = try options.pidFile.map { path throws(PIDFileError) in try PIDFile(path: path) }
        } catch {
            printError("pairs serve: \(error)")
            return 1
        }
        // The store first: a file that cannot be used stops the server before anything listens.
        let store: (any PairsStore)?
        do throws(StoreOpenError) {
            store = try Self.openStore(options.storage, retention: options.retention)
        } catch {
            pidFile?.discard()
            printError("pairs serve: \(error)")
            return 1
        }
        // The cluster's Redis next, for the same reason.
        let cluster: ServeCluster?
        do throws(ServeCluster.Refusal) {
            cluster = try options.cluster.map { url throws(ServeCluster.Refusal) in
                try ServeCluster(url: url, advertise: options.advertise, host: configuration.host)
            }
        } catch {
            pidFile?.discard()
            printError("pairs serve: \(error)")
            return 1
        }
        let server = cluster.map { Server(configuration: configuration, version: version, store: store, cluster: $0.lobbyCluster) }
            ?? Server(configuration: configuration, version: version, store: store)
        signals.start(on: .main) { number in
            switch number {
            case SIGUSR1:
                // As logrotate's postrotate sends it: the log file is opened again.
                server.reopenLog()
            default:
                // SIGINT, SIGTERM, and SIGHUP too: a dropped SSH session running the server in the
                // foreground ends it as SIGTERM does, with `bye shutdown` to every client. The server
                // flushes the store before it calls back.
                server.shutdown {
                    cluster?.leave()
                    pidFile?.remove()
                    exit(0)
                }
            }
        }
        do {
            try server.start()
        } catch {
            pidFile?.discard()
            printError("pairs serve: cannot listen on \(configuration.host):\(configuration.port): \(error)")
            return 1
        }
        var advertised: String?
        do throws(ServeCluster.Refusal) {
            advertised = try cluster?.join(server)
        } catch {
            pidFile?.discard()
            printError("pairs serve: \(error)")
            return 1
        }
        do {
            try pidFile?.publish()
        } catch {
            printError("pairs serve: \(error)")
            return 1
        }
        if let cluster, let advertised {
            // Said even when the log's listening line went to the terminal: that line does not name the cluster.
            print("pairs listening on \(server.listeningAddress) in the cluster at \(cluster.registry), advertised as \(advertised)")
        } else if !logShowsListeningLine(configuration) {
            print("pairs listening on \(server.listeningAddress)")
        }
        for url in server.browserURLs { print("open \(url) in a browser") }
        fflush(nil) // flushes stdout, so a script waiting for the lines sees them at once

        dispatchMain()
    }

    /// Whether the log's listening line (which has the process id) goes to the very terminal stdout shows,
    /// so that printing the plain line as well would say it twice on screen. A pipe or a file on stdout
    /// always gets the plain line: scripts wait for it.
    /// The store `location` names, opened and migrated: a file or a PostgreSQL database (with the Cluster
    /// trait), or nil to keep nothing. Its failures while running go to the server's log (`storage_failed`).
    static func openStore(_ location: StoreLocation, retention: Retention) throws(StoreOpenError) -> (any PairsStore)? {
        switch location {
        case .disabled:
            return nil
        case .file(let path):
            return try GameStore(path: path, retention: retention)
        case .postgres(let url):
            #if Cluster
            return try PostgresStore(url: url, retention: retention)
            #else
            throw .clusterNotBuilt(url: PostgresURL.withoutPassword(url))
            #endif
        }
    }

    static func logShowsListeningLine(_ configuration: ServerConfiguration) -> Bool {
        guard case .standardError = configuration.log.destination, configuration.log.level <= .info,
              isatty(STDOUT_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return false }
        var output = stat(), errors = stat()
        guard fstat(STDOUT_FILENO, &output) == 0, fstat(STDERR_FILENO, &errors) == 0 else { return false }
        return output.st_dev == errors.st_dev && output.st_ino == errors.st_ino
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let flags = try Flags(arguments, known: Set([
            "host", "port", "grace-seconds", "seed", "max-connections", "loops", "idle-seconds", "visitor-silence-seconds", "rate-limit", "log-level", "data",
            "log-format", "log-file", "pid-file", "allow-origin", "dashboard", "keep-days", "keep-megabytes", "cluster", "advertise",
        ]).union(RuleFlags.names), switches: RuleFlags.switches)
        var options = Options()
        for name in ["log-file", "pid-file"] where flags.string(name)?.isEmpty == true {
            throw UsageError("--\(name) needs a path")
        }
        options.logFile = flags.string("log-file")
        options.pidFile = flags.string("pid-file")
        options.cluster = flags.string("cluster")
        options.advertise = flags.string("advertise")
        if options.advertise != nil, options.cluster == nil { throw UsageError("--advertise is for an instance of a cluster: give --cluster too") }
        if let data = flags.string("data") {
            guard let location = StoreLocation(argument: data) else { throw UsageError("--data needs a file, a postgresql:// URL or none") }
            options.storage = location
        } else {
            guard let location = StoreLocation.defaultFile(environment: { getenv($0).map { String(cString: $0) } }) else {
                throw UsageError("no home directory to keep games in: give --data PATH, or --data none")
            }
            options.storage = location
        }
        if let days = try flags.integer("keep-days", in: 0...36_500) {
            options.retention.anonymousDays = days > 0 ? days : nil
        }
        if let megabytes = try flags.integer("keep-megabytes", in: 0...1_048_576) {
            options.retention.maxMegabytes = megabytes > 0 ? megabytes : nil
        }
        var configuration = ServerConfiguration()
        if let host = flags.string("host") {
            guard !host.isEmpty else { throw UsageError("--host needs an address") }
            configuration.host = host
        }
        configuration.port = try flags.integer("port", in: 0...65535) ?? configuration.port
        for origin in flags.strings("allow-origin") {
            guard configuration.web.allow(origin: origin) else {
                throw UsageError("--allow-origin needs an origin such as http://example.lan:8080, not '\(origin)'")
            }
        }
        var lobby = configuration.lobby
        do {
            lobby.defaultRules = try flags.ruleChoices().rules(over: lobby.defaultRules)
        } catch {
            throw UsageError("\(error)")
        }
        lobby.graceSeconds = try flags.integer("grace-seconds", in: 0...86_400) ?? lobby.graceSeconds
        if let seed = flags.string("seed") {
            guard let value = UInt64(seed) else { throw UsageError("--seed must be a whole number from 0 to \(UInt64.max), not '\(seed)'") }
            lobby.seed = value
        }
        lobby.idleSeconds = try flags.integer("idle-seconds", in: 1...86_400) ?? lobby.idleSeconds
        if let perSecond = try flags.integer("rate-limit", in: 0...1_000_000) {
            lobby.rateLimit = perSecond > 0 ? RateLimit(messagesPerSecond: perSecond) : nil
        }
        configuration.lobby = lobby
        if let seconds = try flags.integer("visitor-silence-seconds", in: 1...86_400) {
            configuration.web.pageVisitorSilenceMilliseconds = Int64(seconds) * 1000
        }
        configuration.maxConnections = try flags.integer("max-connections", in: 1...10_000_000)
        configuration.loops = try flags.integer("loops", in: 1...ServeCommand.maxLoops) ?? ProcessorAffinity.coreCount()
        if let level = flags.string("log-level") {
            guard let parsed = LogLevel(name: level) else { throw UsageError("--log-level must be debug, info, warning or error, not '\(level)'") }
            configuration.log.level = parsed
        }
        configuration.log.format = try flags.choice("log-format", of: LogFormat.self) ?? configuration.log.format
        if let dashboard = try flags.choice("dashboard", of: OnOff.self) { configuration.web.dashboard = dashboard == .on }
        options.configuration = configuration
        return options
    }
}
