#if canImport(Glibc)
import Glibc
#endif
import PairsBots
import PairsPolling
import PairsRules
import PairsWire

/// How a load run's connections speak to the server.
public enum LoadTransport: String, Sendable, Hashable, CaseIterable {
    /// The line protocol, as the bundled bots speak it.
    case lines
    /// A WebSocket on `/ws` each, as the browser page connects: the same messages, one per text frame.
    case webSocket = "ws"
}

/// What a load run does: where, how many games at once, for how long, and how the bots play.
public struct LoadConfiguration: Sendable, Hashable {
    /// Connections being opened at once at most. Opening 10,000 at once would overflow the server's
    /// accept backlog (SYNs are dropped and retried only after a second); a few hundred in flight open
    /// thousands a second without that.
    public static let maxConnectsInFlight = 256
    /// Descriptors kept back from the limit for stdio, the epoll instance and Dispatch's own.
    public static let reservedDescriptors = 32
    /// How long to wait at the end for every connection's `left` before closing anyway, in seconds: long
    /// enough for a busy server to answer 10,000 `leave`s, short enough not to hang on a stuck one.
    public static let leaveDrainSeconds: UInt64 = 5
    /// The most event loops a run may ask for: a thread each, and no machine a load test runs on has more
    /// cores than this.
    public static let maxLoops = 1024
    /// The first wait before resending a request the server dropped with `rate_limited`, in milliseconds. It
    /// doubles while the connection keeps being refused (see `maxBackoffMilliseconds`).
    public static let firstBackoffMilliseconds: UInt64 = 50
    /// The longest wait between resends, in milliseconds: the server's default rate refills well within it.
    public static let maxBackoffMilliseconds: UInt64 = 2000
    /// How long a game waits before deciding again after a flip the server refused (`not_your_turn`,
    /// `bad_card`, ...), in milliseconds: a refusal means the bot's view is behind, and the state that
    /// brings it up to date is usually already on its way; deciding at once could only repeat the mistake.
    public static let refusedFlipPauseMilliseconds: UInt64 = 20

    public var host = "localhost"
    public var port = WireProtocol.defaultPort
    /// Lines, or WebSockets as browsers use.
    public var transport = LoadTransport.lines
    /// Stop once this many games have finished; nil for no limit.
    public var games: Int?
    /// Stop after this many seconds; nil for no limit. A run with neither limit runs 10 seconds.
    public var durationSeconds: Double?
    /// Games played at once (each one is two connections, or one when the rules are solo).
    public var concurrency = 100
    public var strategy = StrategyKind.memory
    /// Milliseconds each bot waits after a state before flipping.
    public var thinkMilliseconds = 0
    /// The rules sent in every `join`; what is left unchosen is the server's.
    public var rules = RuleChoices()
    /// Rooms are named `<prefix><k>` for game k. The default (`load<pid>-`) differs from run to run, so
    /// repeated runs against one server never meet each other's rooms.
    public var roomPrefix = "load\(getpid())-"
    /// Requests per second per connection at most; nil for as fast as the game goes. Slower bots are
    /// just slower: the pacing wait is part of the bot's think time, not of the measured latency.
    public var ratePerConnection: Double?
    /// Whether each connection says `hello` (as `load-N`) asking for redirects, and follows them: for a
    /// cluster of instances (protocol.md, "Several instances"), where a game's room may be on another
    /// instance than the one connected to. Off by default, so a run against one server sends what it always did.
    public var followsRedirects = false
    /// Several servers (the instances of a cluster) to spread the connections over, round robin by
    /// connection (so the two players of a game reach different ones); empty for `host` and `port` alone.
    /// The run should follow redirects, since a game's room is on one instance only.
    public var servers: [ServerEndpoint] = []
    /// A tournament every session enters instead of a room of its own: each connection says `hello` as
    /// `sessionName`, sends `tournament_join`, and plays every game the server seats it in (`joined`, then
    /// the room's states). A session is then a game of the run's, with one connection; nil for rooms.
    public var tournament: String?
    /// With `tournament`: the `standings` count each session asks for (protocol.md, `tournament_join`), so
    /// the pushes carry only the top N rows and its own; nil for the whole standings, as older clients get.
    public var tournamentStandings: Int?
    /// The server's process id, to report its CPU time next to the load client's.
    public var serverPID: Int32?
    /// Seeds the bots' choices.
    public var seed: UInt64 = 0
    /// Event loops the connections are spread over, each a serial queue with an epoll set of its own, so
    /// one process can keep a server on many cores busy. By default the cores this process may run on.
    public var loops = ProcessorAffinity.coreCount()
    /// The number of this configuration's game 0 among the whole run's: a loop's share of the games names
    /// its rooms after their place in the run, so every loop's rooms differ.
    var firstGame = 0

    public init() {}

    /// The seconds a run lasts at most, with the default for a run given no limit at all (a tournament's run
    /// lasts until the tournament ends).
    public var effectiveDurationSeconds: Double? {
        if games == nil, durationSeconds == nil, tournament == nil { return 10 }
        return durationSeconds
    }

    /// Games to keep in flight: no more than the games wanted.
    public var gamesInFlight: Int {
        min(concurrency, games ?? concurrency)
    }

    /// Connections per game: a seat each. A solo game is one player alone in a room of its own; for any
    /// other rules, two bots face each other. (Asked by the rules sent, not the server's: a run that asks
    /// for no seat count against a server whose rooms are solo by default sees its second joins refused.)
    public var connectionsPerGame: Int {
        rules.seats == .one || tournament != nil ? 1 : 2
    }

    /// The name session `index` says `hello` with in a tournament: the room prefix and its place in the run,
    /// so every session of every loop is a different entrant.
    public func sessionName(_ index: Int) -> String {
        room(index)
    }

    /// The name of game `index`'s room.
    public func room(_ index: Int) -> String {
        "\(roomPrefix)\(firstGame + index)"
    }

    /// The loops a run uses: no more than its games in flight, so every loop has a game.
    public var loopsInUse: Int {
        max(1, min(loops, gamesInFlight))
    }

    /// The run split into one configuration per loop in use: the games in flight and the `--games` limit
    /// dealt out as evenly as they go (the first loops take one more of a remainder), each loop's rooms
    /// numbered after the loops before it, and each loop's bots seeded apart. Loop 0 of a one-loop run is
    /// this very configuration.
    public var loopShares: [LoadConfiguration] {
        let count = loopsInUse
        let inFlight = gamesInFlight
        var shares: [LoadConfiguration] = []
        var first = firstGame
        for index in 0..<count {
            var share = self
            share.loops = 1
            share.firstGame = first
            share.concurrency = Self.share(of: inFlight, part: index, of: count)
            share.games = games.map { Self.share(of: $0, part: index, of: count) }
            share.seed = seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15
            first += share.gamesInFlight
            shares.append(share)
        }
        return shares
    }

    /// Part `part` of `total` dealt into `parts` parts: equal, the first `total % parts` one more.
    static func share(of total: Int, part: Int, of parts: Int) -> Int {
        total / parts + (part < total % parts ? 1 : 0)
    }

    /// Why the configuration cannot run, or nil when it can.
    public var problem: String? {
        if concurrency < 1 { return "--concurrency must be at least 1" }
        if loops < 1 || loops > Self.maxLoops { return "--loops must be from 1 to \(Self.maxLoops)" }
        if let games, games < 1 { return "--games must be at least 1" }
        if let durationSeconds, !(durationSeconds > 0) { return "--duration must be more than 0 seconds" }
        if let tournament {
            if !TournamentLimits.isValidName(tournament) {
                return "--tournament must be 1-\(TournamentLimits.maxNameCharacters) letters, digits, - or _"
            }
            if games != nil { return "--tournament plays for a --duration, not a number of --games: the server decides the pairings" }
            if concurrency > TournamentLimits.maxEntrants {
                return "--tournament takes at most \(TournamentLimits.maxEntrants) sessions (--concurrency), as many as a tournament has entrants"
            }
            if room(gamesInFlight - 1).count > TextCleaner.maxNameCharacters {
                return "--room-prefix must be short enough for the session name '\(room(gamesInFlight - 1))' to be at most \(TextCleaner.maxNameCharacters) characters"
            }
        }
        if !RoomName.isValid(room(gamesInFlight - 1)) {
            return "--room-prefix must be letters, digits, - or _, short enough for '\(room(gamesInFlight - 1))' to be at most \(RoomName.maxLength) characters"
        }
        return nil
    }
}
