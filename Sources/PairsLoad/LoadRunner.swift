import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsPolling
import PairsRules
import PairsWeb
import PairsWire

/// Runs a load test: opens two connections per game (one for solo rules), keeps `concurrency` games between
/// bots going over real TCP until enough games have finished or the time is up, measures every flip, and
/// reports.
///
/// This is one event loop's worth of the run (`configuration.loops` is not read here): `LoadRunGroup` deals
/// a run's games out to several runners, one per loop, and merges their reports.
///
/// How it is built, and why (the load client must cost less CPU than the server it drives, or it measures
/// itself):
/// - One serial queue owns everything, as in the server, so nothing needs a lock. That is the
///   `@unchecked Sendable` promise: every mutable property is used only on `queue`.
/// - Every socket is in one level-triggered epoll instance (`EventPoller`), and only the epoll descriptor
///   is waited for (`EventLoop`). One wakeup harvests up to `EventPoller.maxEvents` ready sockets,
///   instead of one wakeup per socket per message as per-socket sources would cost.
/// - Timers (think time, pacing, resends, each second's CPU reading, the end of the run) are entries in one
///   min-heap (`TimerHeap`) behind one Dispatch timer armed for the earliest.
/// - A game is driven from the connection in seat 0 only: both players receive the same state lines, so
///   they are scanned once (`StateScanner`, no JSON tree), and seat 1's stream is only checked for the
///   lines that are not states (errors, `joined`, `bye`), by their first bytes. A solo game has seat 0 only.
/// - A flip goes out with hand-written bytes from one reused buffer; the rare requests (join, rematch,
///   leave) use the general `RequestEncoder`.
public final class LoadRunner: @unchecked Sendable {
    /// Bytes read per readable socket per batch: a whole burst of states in one call.
    static let readBufferBytes = 64 * 1024
    /// Bytes written per writable socket per batch at most, as the server does: requests are small, and one
    /// connection with a backlog should not keep the others waiting.
    static let maxWriteBytesPerEvent = 64 * 1024
    /// Batches harvested per Dispatch wakeup before yielding the queue to the timers (and letting Dispatch
    /// call again if sockets are still ready).
    static let maxBatchesPerWakeup = 16
    /// Slack allowed to the Dispatch timer, in nanoseconds: timers due within it fire together.
    static let timerLeewayNanoseconds = 500_000

    public let configuration: LoadConfiguration
    let address: SocketAddress
    /// Every server connections are spread over, round robin; just `address` for one server.
    let addresses: [SocketAddress]
    let queue = DispatchQueue(label: "pairs.load")
    /// Every socket of the run, in one epoll set served on `queue`.
    let loop: EventLoop
    var poller: EventPoller { loop.poller }

    enum RunPhase {
        case notStarted, running, ending, finished
    }

    var phase = RunPhase.notStarted
    var connections: [LoadConnection] = []
    var games: [LoadGame] = []
    var timers = TimerHeap()
    var scanner = StateScanner()
    var statistics = LoadStatistics()
    /// The moment the current batch of events was harvested: the arrival time of everything in it.
    var batchTime: UInt64 = 0
    /// What the server calls itself in its `welcome` (`pairs 0.1.0`), for the report.
    var serverVersion: String?

    /// The next connection to open, and how many connects are in flight.
    var nextToOpen = 0
    var connectsInFlight = 0
    /// Sockets open (connecting, playing or leaving); the run is over when this is 0 after the end.
    var openSockets = 0
    /// Games not abandoned.
    var liveGames = 0
    /// Games started or about to start, counted against `--games`.
    var gamesReserved = 0
    /// Games that finished and are waiting in case an abandoned game's place needs taking.
    var idleGames: [Int] = []

    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: LoadRunner.readBufferBytes, alignment: 1)
    /// The bytes of the flip being sent; kept to reuse its storage.
    var flipLine: [UInt8] = []
    /// The frames of the request being sent over a WebSocket; kept to reuse its storage.
    var frameBuffer: [UInt8] = []
    /// Masking keys for WebSocket frames, and nonces for handshakes. RFC 6455 wants keys a script in a
    /// browser cannot predict, so it cannot steer what a proxy on the way sees; a load generator runs no
    /// one's scripts, and a generator this cheap keeps its cost per flip down.
    var maskingKeys: SplitMix64
    let thinkNanoseconds: UInt64
    /// How the event loop harvests. Once every socket is quiet, it waits briefly for the server's next
    /// state (`Linger.forQuickAnswers`), as the server does for requests: a state that arrives meanwhile is
    /// read by the waiting thread at once, without letting go of the queue and being woken again. Without it, at
    /// one game the load client used more CPU than the server it drives, and added those hand-offs to every
    /// latency it measured. Only without think time or pacing: then the timers are resends, the seconds' CPU
    /// readings and the end of the run, which can wait the 3.2 ms the waits may take; paced bots' could not.
    let harvestPolicy: EventLoop.Policy

    /// Fires at the earliest deadline in `timers`.
    private var timer: DeadlineTimer?
    private var progressSource: DispatchSourceTimer?
    private var progress: (@Sendable (String) -> Void)?
    private var completion: (@Sendable (LoadReport) -> Void)?

    private var startTime: UInt64 = 0
    private var stopTime: UInt64 = 0
    private var startCPU = 0.0
    private var stopCPU = 0.0
    private var startServerCPU: Double?
    private var stopServerCPU: Double?
    private var lastProgressFlips = 0
    /// Set when this runner is one loop of a `LoadRunGroup`: the run's common start (so every loop's seconds
    /// are the same seconds), and what to call when this loop stops measuring. The group reads the CPU,
    /// which is the whole process's, and prints the progress; a part does neither.
    private var part: (start: UInt64, finished: @Sendable () -> Void)?

    /// Raises the descriptor limit as far as it goes and checks the run fits in it, and resolves the server's
    /// address; nothing connects until `start`.
    public init(configuration: LoadConfiguration) throws(LoadError) {
        self.configuration = configuration
        let needed = configuration.connectionsPerGame * configuration.gamesInFlight + LoadConfiguration.reservedDescriptors
        // As the server does: one process holds every connection of the run.
        let limit = FileLimit.raise()
        guard needed <= limit else { throw .tooFewDescriptors(needed: needed, limit: limit) }
        address = try ServerAddress.resolve(host: configuration.host, port: configuration.port)
        var addresses: [SocketAddress] = []
        for server in configuration.servers { addresses.append(try ServerAddress.resolve(host: server.host, port: server.port)) }
        self.addresses = addresses.isEmpty ? [address] : addresses
        do {
            loop = try EventLoop(queue: queue)
        } catch {
            throw .system(call: error.call, errno: error.errno)
        }
        thinkNanoseconds = UInt64(configuration.thinkMilliseconds) * MonotonicClock.nanosecondsPerMillisecond
        let isPaced = configuration.thinkMilliseconds > 0 || configuration.ratePerConnection != nil
        harvestPolicy = EventLoop.Policy(maxBatchesPerWakeup: Self.maxBatchesPerWakeup,
                                         linger: isPaced ? .none : .forQuickAnswers)
        flipLine.reserveCapacity(64)
        maskingKeys = SplitMix64(seed: configuration.seed ^ 0x6455)
        // Watched from now on, so that a thread the system cannot give is said here, before any connection.
        // Its epoll set is empty until the run begins, so nothing runs on the queue before `begin`.
        do {
            try loop.start(policy: harvestPolicy,
                           beforeEachBatch: { [self] in batchTime = MonotonicClock.nanoseconds() },
                           handle: { [self] token, events in handle(Int(token), events: events) },
                           afterHarvest: { [self] in
                               // Busy or quiet, the loop returns; the timers due meanwhile run first.
                               runDueTimers()
                               armTimer()
                           })
        } catch {
            throw .system(call: error.call, errno: error.errno)
        }
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Starts the run. `progress` gets one line a second; `completion` gets the report once every
    /// connection has said goodbye. Both are called on the runner's queue.
    public func start(progress: (@Sendable (String) -> Void)? = nil,
                      completion: @escaping @Sendable (LoadReport) -> Void) {
        queue.async { [self] in
            guard phase == .notStarted else { return }
            self.progress = progress
            self.completion = completion
            begin()
        }
    }

    /// Starts the run as one loop of a `LoadRunGroup`, whose seconds begin at `start`; `finished` is called
    /// when this loop stops measuring, before its goodbyes, and `completion` with its report (CPU not read).
    func start(asPartFrom start: UInt64, finished: @escaping @Sendable () -> Void,
               completion: @escaping @Sendable (LoadReport) -> Void) {
        queue.async { [self] in
            guard phase == .notStarted else { return }
            part = (start, finished)
            self.completion = completion
            begin()
        }
    }

    /// Lets go of a runner that will never start: its loop stops watching, and nothing holds it any more.
    func discard() {
        queue.sync { loop.cancel() }
    }

    /// Ends the run early (Ctrl-C): the games in flight are counted as unfinished and the report follows.
    public func stop() {
        queue.async { [self] in finish() }
    }

    // MARK: The run

    private func begin() {
        phase = .running
        if let part {
            startTime = part.start
            statistics.timeline.begin(at: startTime, cpu: 0, serverCPU: nil)
        } else {
            startTime = MonotonicClock.nanoseconds()
            startCPU = ProcessCPU.ownSeconds()
            startServerCPU = configuration.serverPID.flatMap { ProcessCPU.seconds(ofProcess: $0) }
            statistics.timeline.begin(at: startTime, cpu: startCPU, serverCPU: startServerCPU)
            schedule(at: statistics.timeline.startOfSecond(1), .secondOfRun, target: 1)
        }

        let interval = configuration.ratePerConnection.map { UInt64(1_000_000_000 / $0) } ?? 0
        let count = configuration.gamesInFlight
        var seeds = SplitMix64(seed: configuration.seed)
        let perGame = configuration.connectionsPerGame
        for index in 0..<count {
            let mine = Array(perGame * index..<perGame * (index + 1))
            let game = LoadGame(index: index, connections: mine, strategy: configuration.strategy, seed: seeds.next())
            game.holdsReservation = true
            games.append(game)
            for connection in mine {
                let partner = mine.first { $0 != connection }
                connections.append(LoadConnection(index: connection, game: index, partner: partner, interval: interval))
            }
        }
        gamesReserved = count
        liveGames = count

        timer = DeadlineTimer(queue: queue, leeway: .nanoseconds(Self.timerLeewayNanoseconds)) { [self] in
            runDueTimers()
            armTimer()
        }
        if progress != nil {
            let ticker = DispatchSource.makeTimerSource(queue: queue)
            ticker.setEventHandler { [self] in reportProgress() }
            ticker.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1), leeway: .milliseconds(50))
            ticker.activate()
            progressSource = ticker
        }
        if let seconds = configuration.effectiveDurationSeconds {
            schedule(at: startTime + UInt64(seconds * 1e9), .endOfRun, target: 0)
        }
        batchTime = startTime
        openConnections()
        armTimer()
    }

    /// Ends the run: stops every game, counts what was in flight, and says goodbye on every connection.
    func finish() {
        guard phase == .running else { return }
        phase = .ending
        let now = MonotonicClock.nanoseconds()
        stopTime = now
        if part == nil {
            stopCPU = ProcessCPU.ownSeconds()
            stopServerCPU = configuration.serverPID.flatMap { ProcessCPU.seconds(ofProcess: $0) }
        }
        progressSource?.cancel()
        timers.removeAll()
        for game in games where game.status != .abandoned {
            recordUnfinishedFlips(of: game, now: now)
            if game.isInProgress, countsGames(of: game) { statistics.gamesUnfinished += 1 }
        }
        statistics.timeline.close(at: now, cpu: stopCPU, serverCPU: stopServerCPU, keepingSliver: part != nil)
        for connection in connections {
            switch connection.status {
            case .open: beginLeaving(connection, now: now)
            case .connecting, .upgrading: closeSocket(connection)
            case .idle: connection.status = .closed
            case .leaving, .closed: break
            }
        }
        schedule(at: now + LoadConfiguration.leaveDrainSeconds * MonotonicClock.nanosecondsPerSecond, .endOfDrain, target: 0)
        part?.finished()
        checkDrained()
    }

    /// Counts the flips of `game` that should have been answered by `now` and were not: the one sent, and
    /// one whose moment to leave has passed while it waited (for a resend, or for the client itself).
    func recordUnfinishedFlips(of game: LoadGame, now: UInt64) {
        if let flip = game.outstanding {
            statistics.recordUnfinished(age: now &- flip.intended, at: now)
            game.outstanding = nil
        }
        if let flip = game.planned, flip.intended < now {
            statistics.recordUnfinished(age: now - flip.intended, at: now)
        }
        game.planned = nil
    }

    /// Once the run has ended and every socket is closed: the report.
    func checkDrained() {
        guard phase == .ending, openSockets == 0 else { return }
        complete()
    }

    private func complete() {
        guard phase == .ending else { return }
        phase = .finished
        // Cancelled and released: their handlers hold the runner.
        loop.cancel()
        timer?.cancel()
        progressSource?.cancel()
        timer = nil
        progressSource = nil
        timers.removeAll()
        for connection in connections where connection.fd >= 0 { closeSocket(connection) }
        completion?(makeReport())
        completion = nil
        progress = nil
        part = nil
    }

    private func makeReport() -> LoadReport {
        var report = LoadReport()
        report.target = configuration.servers.isEmpty ? SocketAddress.describe(host: configuration.host, port: configuration.port)
            : configuration.servers.map(\.description).joined(separator: ",")
        report.transport = configuration.transport
        report.concurrency = configuration.gamesInFlight
        report.strategy = configuration.strategy.rawValue
        report.thinkMilliseconds = configuration.thinkMilliseconds
        report.durationSeconds = Double(stopTime - startTime) / 1e9
        report.connectionsRequested = connections.count
        report.serverVersion = serverVersion
        report.tournament = configuration.tournament
        report.counts = statistics
        report.cpuSeconds = stopCPU - startCPU
        if let start = startServerCPU, let stop = stopServerCPU { report.serverCPUSeconds = stop - start }
        return report
    }

    /// The tick at the start of each second: CPU readings for the timeline, and the next tick. A late tick
    /// still marks its own second (the reading is a little late, rather than missing); the next follows.
    private func readCPU(second: Int) {
        guard phase == .running else { return }
        statistics.timeline.readCPU(second: second, cpu: ProcessCPU.ownSeconds(),
                                    serverCPU: configuration.serverPID.flatMap { ProcessCPU.seconds(ofProcess: $0) })
        schedule(at: statistics.timeline.startOfSecond(second + 1), .secondOfRun, target: second + 1)
    }

    private func reportProgress() {
        guard phase == .running, let progress else { return }
        progress(takeProgress().line(elapsed: Double(MonotonicClock.nanoseconds() - startTime) / 1e9))
    }

    /// The counts for a progress line, and the flips and latencies since the last one (which it forgets).
    func takeProgress() -> LoadProgress {
        dispatchPrecondition(condition: .onQueue(queue))
        var taken = LoadProgress()
        taken.connectionsOpened = statistics.connectionsOpened
        taken.connectionsRequested = connections.count
        taken.games = statistics.games
        taken.flips = statistics.flips - lastProgressFlips
        lastProgressFlips = statistics.flips
        taken.errors = statistics.errorCount
        taken.connectionsLost = statistics.connectionFailures.values.reduce(0, +) + statistics.connectionsDropped.values.reduce(0, +)
        taken.latency = statistics.recentLatency
        statistics.recentLatency.reset()
        return taken
    }

    // MARK: Events and timers

    /// Adds a timer.
    func schedule(at deadline: UInt64, _ action: TimerHeap.Action, target: Int, seat: Seat = .first,
                  generation: UInt32 = 0) {
        timers.push(TimerHeap.Entry(deadline: deadline, target: Int32(target), action: action,
                                    seat: UInt8(seat.index), generation: generation))
    }

    private func runDueTimers() {
        let now = MonotonicClock.nanoseconds()
        batchTime = now
        while let entry = timers.popDue(at: now) {
            fire(entry, now: now)
        }
    }

    /// Points the Dispatch timer at the earliest deadline.
    private func armTimer() {
        guard phase == .running || phase == .ending else { return }
        timer?.arm(atNanoseconds: timers.nextDeadline)
    }

    private func fire(_ entry: TimerHeap.Entry, now: UInt64) {
        let target = Int(entry.target)
        switch entry.action {
        case .sendFlip: sendPlannedFlip(games[target], generation: entry.generation, now: now)
        case .replan: replan(games[target], generation: entry.generation, now: now)
        case .rematch: resendRematch(games[target], seat: Seat(index: Int(entry.seat)) ?? .first, game: Int(entry.generation), now: now)
        case .join: resendJoin(connections[target], now: now)
        case .leave: resendLeave(connections[target], now: now)
        case .closeConnection:
            if connections[target].status == .leaving { closeSocket(connections[target]) }
        case .endOfRun: finish()
        case .endOfDrain: complete()
        case .secondOfRun: readCPU(second: target)
        }
    }
}
