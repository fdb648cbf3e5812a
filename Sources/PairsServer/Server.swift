import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
import PairsPolling
import PairsRules
import PairsStorage
import PairsWeb
import PairsWire

/// The Pairs match server's transport: it accepts TCP connections, reads their bytes, hands whole messages
/// to the `Lobby`, and carries out what the lobby decides (send these bytes, close that connection), with
/// every timer and every goodbye.
///
/// One port speaks the line protocol and HTTP: a connection's first bytes decide (`Framing`,
/// `ConnectionSniffer`). HTTP serves the page, the counters, and WebSockets, whose text frames carry the
/// line protocol's messages; the lobby never learns which framing a connection uses (`Server+Web.swift`).
///
/// One serial queue owns everything: the lobby, the connections, the counters. Sockets are non-blocking and
/// every Dispatch source (readiness, the lobby's timer, goodbye deadlines) targets that queue, so no state
/// is ever touched by two threads and no lock is needed. That is the `@unchecked Sendable` promise: every
/// mutable property below is used only on `queue`. The public methods hop onto it.
///
/// Client sockets and the listening socket sit in one epoll set watched by a single Dispatch read source
/// (`EventLoop`, shared with the load generator), as Redis's ae loop watches all its descriptors: one Dispatch wakeup serves every socket that
/// became ready meanwhile, where a source per socket would cost Dispatch's manager thread two hand-offs per
/// event (README.md, "Benchmarks").
public final class Server: @unchecked Sendable {
    /// Connections accepted each time a harvest reports the listening socket. It is harvested with the
    /// clients' sockets, so under load it gets its turn in every batch, whatever Dispatch's scheduling (a
    /// Dispatch source of its own was served about once a second on a busy server). 256: a crowd arriving
    /// at once is welcomed within a few batches, while accepting, about 10 µs a connection, never takes more
    /// than a batch's share of the queue from the games already running.
    static let maxAcceptsPerEvent = 256
    /// Connections the kernel queues for `accept` while the server is busy: enough for a load test's whole
    /// crowd connecting at once, so none waits for a SYN retry. (The kernel caps it at `somaxconn`.)
    static let listenBacklog: Int32 = 4096
    /// What the epoll set reports the listening socket by: above every connection's slot.
    static let listeningToken = UInt64.max
    /// Bytes read per readable event: one buffer, shared by all connections since only the queue reads.
    static let readBufferBytes = 64 * 1024
    /// Descriptors kept back from `--max-connections`' default: stdio, the listening socket, the spare
    /// descriptor, the epoll set and Dispatch's own.
    static let reservedDescriptors = 16
    /// How long a shutdown waits for goodbyes to drain before closing anyway: the process must exit
    /// within two seconds of SIGTERM.
    static let shutdownDrainMilliseconds: Int64 = 1500
    /// How often a shutdown looks whether every goodbye has gone out: short against the drain limit, long
    /// enough to cost nothing.
    static let shutdownPollMilliseconds = 10
    /// How long a goodbye may take: to write what is queued (`bye` last), then to wait for the peer to close
    /// after the write side is shut. A client reading normally takes microseconds; one that does not read
    /// or never closes holds a descriptor no longer than this.
    static let goodbyeMilliseconds: Int64 = 2000
    /// Reads of what a refused client (server full) already sent before its socket is closed: enough for
    /// a client's first requests, bounded so a client that keeps sending cannot hold the queue there.
    static let refusalReads = 4
    /// At most one "server full" warning a second: a crowd turned away would otherwise flood the log.
    static let serverFullWarningIntervalMilliseconds: Int64 = 1000
    /// How the readiness handler harvests: at most 4 batches per Dispatch wakeup, so the lobby's timer and
    /// the goodbye deadlines get the queue between them however busy the clients are; then, once every
    /// socket is quiet, it waits briefly for the next request (`Linger.forQuickAnswers`: a bot answers a
    /// state within tens of microseconds). Newcomers are not held off by the wait: the listening socket is
    /// in the epoll set, so a connect ends the wait like a request does.
    static let harvestPolicy = EventLoop.Policy(maxBatchesPerWakeup: 4, linger: .forQuickAnswers)
    /// Slack given to the lobby's timer: turn clocks need no more precision, and it lets the kernel batch
    /// wakeups.
    static let timerLeewayMilliseconds = 1
    /// How long `welcome` waits for a connection's first bytes, which may be an HTTP request: a browser
    /// sends its request the moment it connects, so 100 ms covers a busy LAN many times over, and a person
    /// in netcat who types nothing sees no pause. A first byte that cannot start a request line (every
    /// bot's `{`, every text command's lower-case letter) ends the wait at once.
    public static let welcomeWaitMilliseconds: Int64 = 100
    /// The longest a game's last state is held for its game to be committed: the writer commits within a
    /// few milliseconds, so only a disk that stalls (which the log reports) comes near it, and then the end
    /// of every game must not freeze with it.
    static let maxHoldMilliseconds: Int64 = 2000

    public let configuration: ServerConfiguration
    let queue = DispatchQueue(label: "pairs.server")
    let log: ServerLog
    let lobby: Lobby
    /// Where finished games and claimed names are kept; nil when the server keeps nothing.
    private let store: (any PairsStore)?
    /// Runs the store's queries, which block on SQLite: never on `queue`, which runs the rooms. One at a
    /// time, in order.
    private let storageQueue = DispatchQueue(label: "pairs.storage")
    /// Hashes passwords (claims and verifications), apart from `storageQueue`, so guessing delays no query.
    private let nameChecks: NameCheckPool
    /// Runs before each piece of storage work that may touch the disk: nothing in a real server; a test
    /// stalls it to play a frozen disk on the real server path.
    private let storageStep: @Sendable (StorageWork) -> Void
    /// Storage work not yet answered, by ticket: the client gets whichever comes first, the store's answer
    /// or `storage_timeout` at the deadline (`ServerConfiguration.storageDeadlineMilliseconds`).
    private var pendingStorage: [Int: PendingStorage] = [:]
    private var nextStorageTicket = 0
    /// Name checks waiting, in the order they came, for a claim of a look-alike name to be decided (by
    /// the claimed name's skeleton): so a claim and a `hello` for the same name are answered in the order
    /// they came, as when one queue did both, and only those wait.
    private var claimsInFlight: [String: [NameLookup]] = [:]

    private var maxConnections = 0
    /// -1 once the server stops accepting.
    private var listeningFD: Int32 = -1
    private var boundAddress: SocketAddress?
    /// Every client socket and the listening one, in one epoll set served on `queue`.
    private var loop: EventLoop?
    /// Fires at the lobby's next deadline.
    private var lobbyTimer: DeadlineTimer?
    /// Every client connection, by the id the lobby knows it by, until its socket is closed. The epoll set
    /// reports a socket by its id's slot.
    private var connections = ConnectionTable<Connection>()
    /// Numbers and slots for new connections.
    private var connectionIDs = ConnectionIDIssuer()
    /// Connections whose write failed during the current event, with why: their last input is read once
    /// the event is over, never in the middle of reading another message.
    private var failures: [(connection: Connection, cause: DisconnectCause)] = []
    /// Connections whose welcome waits for their first bytes: briefly, or long for an address that loaded
    /// the page lately (`pageVisitors`).
    var welcomeWaits: WelcomeWaits
    /// The addresses that loaded the client page lately.
    var pageVisitors = PageVisitors()
    /// The last lines framed for a WebSocket, with their frames: a state goes to every member of a room as
    /// one array, so it is framed once however many of them use WebSockets. Holding `lines` keeps its
    /// storage alive, so an array with the same storage is the same array.
    private var lastFramed: (lines: [UInt8], frames: [UInt8])?
    /// A descriptor held open so that, when the process runs out, one can be freed to accept a client and
    /// tell it `server_full` instead of leaving it hanging in the backlog.
    private var spareFD: Int32 = -1
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Server.readBufferBytes, alignment: 1)
    var traffic = Traffic()
    private var lastFullWarning = Moment(milliseconds: .min / 2)
    private var isShuttingDown = false
    /// What the log says of the store's failures, rate-limited.
    private var storageAlarm = StorageAlarm()
    /// Whether a write of the store's held failures is scheduled.
    private var storageAlarmScheduled = false
    /// Connections whose output is held until the store settles a game (`Connection.heldUntil`).
    private var holding: [Connection] = []
    /// Whether a check for holds past `maxHoldMilliseconds` is scheduled.
    private var holdCheckScheduled = false

    /// What the transport counts: what crossed the sockets.
    struct Traffic {
        var messagesOut = 0
        var bytesIn = 0
        var bytesOut = 0
        /// Errors the transport sends itself (the store's answers); the lobby counts its own.
        var errors: [ErrorCode: Int] = [:]
        /// How long answers took (`AnswerTiming`).
        var latency = AnswerLatency()
        var timing = AnswerTiming()
    }

    /// Times answers with the clock reads the server makes anyway: each read of a socket reads the clock
    /// before handling what came, which is also when everything handled before it in the batch has been
    /// answered (answers are written as each message is handled). A batch's arrival is its first read's
    /// moment. The one clock read added is at the end of a batch that handled messages, for its last read's.
    struct AnswerTiming {
        /// When the current batch's first socket was read, in nanoseconds; nil until then.
        var batchArrived: UInt64?
        /// Messages handled since the last read's moment, not yet recorded.
        var pending = 0
    }

    /// A server with `configuration`, keeping finished games and claimed names in `store` when there is one
    /// (the store is opened first, so a file that cannot be used stops `pairs serve` before it listens).
    public convenience init(configuration: ServerConfiguration, version: String = "dev", store: (any PairsStore)? = nil) {
        self.init(configuration: configuration, version: version, store: store, storageStep: { _ in })
    }

    /// A server whose storage work runs `storageStep` first (for tests: a stalled disk).
    init(configuration: ServerConfiguration, version: String = "dev", store: (any PairsStore)?,
         storageStep: @escaping @Sendable (StorageWork) -> Void) {
        self.configuration = configuration
        nameChecks = NameCheckPool(workers: configuration.nameCheckWorkers, queueLimit: configuration.nameCheckQueueLimit)
        self.log = ServerLog(configuration)
        self.store = store
        self.storageStep = storageStep
        welcomeWaits = WelcomeWaits(usualMilliseconds: Self.welcomeWaitMilliseconds,
                                    pageVisitorMilliseconds: configuration.pageVisitorSilenceMilliseconds)
        var lobbyConfiguration = configuration.lobby
        lobbyConfiguration.keepsGames = store != nil
        self.lobby = Lobby(configuration: lobbyConfiguration, serverName: "pairs \(version)", startedAt: MonotonicClock.now())
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
        store?.watch { [weak self] event in
            guard let self else { return }
            queue.async { self.storageReported(event) }
        }
    }

    deinit {
        readBuffer.deallocate()
    }

    /// The port the server listens on (the real one when configured with port 0).
    public var port: Int { boundAddress?.port ?? 0 }

    /// `HOST:PORT` as the server listens on it.
    public var listeningAddress: String { boundAddress?.description ?? "" }

    /// The URLs a browser on the LAN opens the page at (`BrowserAddresses`); empty before `start`.
    public var browserURLs: [String] {
        guard let boundAddress else { return [] }
        return BrowserAddresses.urls(boundHost: boundAddress.host, port: boundAddress.port,
                                     interfaceAddresses: BrowserAddresses.interfaceIPv4Addresses())
    }

    /// Binds and starts serving. Throws before anything listens if the address cannot be used.
    public func start() throws(SocketError) {
        let address: SocketAddress
        do {
            // The first address is the one to listen on: for a name with several, the resolver's choice.
            address = try SocketAddress.resolve(host: configuration.host, port: configuration.port, for: .listening)[0]
        } catch {
            throw .resolve(host: configuration.host, message: error.reason)
        }
        // The server should hold as many connections as the system lets it.
        let fileLimit = FileLimit.raise()
        let fd = try SocketOptions.listen(on: address, backlog: Self.listenBacklog)
        let bound: SocketAddress
        let loop: EventLoop
        do throws(SystemCallError) {
            bound = try SocketAddress(boundTo: fd)
            loop = try EventLoop(queue: queue)
            guard loop.poller.add(fd, token: Self.listeningToken, interest: EventPoller.readable) else {
                throw SystemCallError(call: "epoll_ctl", errno: errno)
            }
        } catch {
            Glibc.close(fd)
            throw .system(call: error.call, errno: error.errno)
        }
        queue.sync {
            self.loop = loop
            loop.start(policy: Self.harvestPolicy,
                       beforeEachBatch: { [self] in startBatch() },
                       afterEachBatch: { [self] in endBatch() },
                       handle: { [self] token, events in serviceReadySocket(token, events: events) },
                       afterHarvest: { [self] in armLobbyTimer() })
            lobbyTimer = DeadlineTimer(queue: queue, leeway: .milliseconds(Self.timerLeewayMilliseconds)) { [self] in
                lobbyTimerFired()
            }
            listeningFD = fd
            boundAddress = bound
            maxConnections = configuration.maxConnections ?? max(1, fileLimit - Self.reservedDescriptors)
            spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
            log.startSummaries(on: queue) { [weak self] in self?.lobby.statistics(at: MonotonicClock.now()) ?? ServerStatistics() }
        }
        log.write(.info, .listening(address: bound.description, pid: getpid(), maxConnections: maxConnections, data: store?.path))
    }

    /// Opens the log file again, for log rotation (`pairs serve` does this on SIGUSR1). Safe to call from
    /// any thread: the reopening happens on the server's queue, where the log is written.
    public func reopenLog() {
        queue.async { [self] in log.reopen() }
    }

    /// Stops accepting, says `bye {reason: "shutdown"}` to everyone, lets it drain briefly, closes every
    /// connection, and then calls `completion` (on the server's queue). Safe to call from any thread.
    public func shutdown(completion: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            guard !isShuttingDown else { completion(); return }
            isShuttingDown = true
            stopAccepting()
            let now = MonotonicClock.now()
            let deadline = now.adding(milliseconds: Self.shutdownDrainMilliseconds)
            // Every goodbye starts before the lobby hears of any: the states its departures cause would
            // otherwise reach connections that are about to get `bye` anyway.
            let open = connections.elements.filter(\.isOpen)
            log.write(.info, .shuttingDown(connections: open.count, gamesInProgress: lobby.gamesInProgress))
            for connection in open { sayGoodbye(to: connection, .shutdown, at: now) }
            for connection in open { lobby.disconnect(connection.id, because: .shutdown, at: now) }
            performLobbyActions()
            for connection in connections.elements {
                switch connection.lifecycle {
                case .flushing(let due): connection.lifecycle = .flushing(deadline: min(due, deadline))
                case .lingering(let due): connection.lifecycle = .lingering(deadline: min(due, deadline))
                case .open, .failing, .closed: break
                }
            }
            waitForGoodbyes(then: completion)
        }
    }

    /// `shutdown`, waiting for it to finish. For tests and the command line; it blocks, so it must not be
    /// called on the server's own queue.
    public func stop() {
        dispatchPrecondition(condition: .notOnQueue(queue))
        let done = DispatchSemaphore(value: 0)
        shutdown { done.signal() }
        done.wait()
    }

    /// The server's counters. Safe to call from any thread, the server's queue included.
    public func statistics() -> ServerStatistics {
        if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) {
            return currentStatistics(at: MonotonicClock.now())
        }
        return queue.sync { currentStatistics(at: MonotonicClock.now()) }
    }

    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    private func waitForGoodbyes(then completion: @escaping @Sendable () -> Void) {
        let now = MonotonicClock.now()
        for connection in connections.elements {
            // The process is about to exit: a goodbye that is out and has no input left unread can close
            // now (closing without unread input sends no reset) rather than wait for the peer to close.
            if case .lingering = connection.lifecycle, case .wouldBlock = connection.read(into: readBuffer) {
                release(connection)
            }
            closeIfOverdue(connection, at: now)
        }
        guard connections.isEmpty else {
            queue.asyncAfter(deadline: .now() + .milliseconds(Self.shutdownPollMilliseconds)) { [self] in
                waitForGoodbyes(then: completion)
            }
            return
        }
        lobbyTimer?.cancel()
        lobbyTimer = nil
        loop?.cancel()
        loop = nil
        if spareFD >= 0 { Glibc.close(spareFD); spareFD = -1 }
        // The games that ended last are committed before the process may exit.
        store?.flush()
        log.stopSummaries()
        log.write(.info, .stopped)
        completion()
    }

    // MARK: Accepting

    /// Takes the listening socket out of the epoll set and closes it.
    private func stopAccepting() {
        guard listeningFD >= 0 else { return }
        loop?.poller.remove(listeningFD)
        Glibc.close(listeningFD)
        listeningFD = -1
    }

    private func acceptConnections() {
        for _ in 0..<Self.maxAcceptsPerEvent {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listeningFD, $0, &length) }
            }
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE: refuseWithSpareDescriptor()
                default: break
                }
                break
            }
            SocketOptions.configureClient(fd)
            // Sockets rather than the lobby's clients: the limit is on descriptors, and a connection whose
            // first bytes are awaited, or an HTTP request, holds one as much as a player does.
            guard connections.count < maxConnections, !isShuttingDown else {
                refuse(fd)
                continue
            }
            admit(fd, address: SocketAddress(storage: storage, length: length))
        }
    }

    /// Takes a connection in. The lobby hears of it once its first bytes (or the end of the welcome wait)
    /// have said it speaks lines, or once it has become a WebSocket.
    private func admit(_ fd: Int32, address: SocketAddress) {
        let id = connectionIDs.issue()
        let host = address.host
        let peer = SocketAddress.describe(host: host, port: address.port)
        let now = MonotonicClock.now()
        let connection = Connection(id: id, fd: fd, framing: .sniffing(Framing.FirstBytes(peer: peer)))
        guard let poller = loop?.poller, connection.watch(with: poller) else {
            log.write(.warning, .unwatchable(id, peer: peer, error: String(cString: strerror(errno))))
            Glibc.close(fd)
            connectionIDs.retire(id)
            return
        }
        connections[id] = connection
        welcomeWaits.append(connection, arrivedAt: now, waiting: pageVisitors.loadedThePageRecently(host, at: now) ? .pageVisitor : .usual)
    }

    /// Tells a connection over the limit why it is turned away, and closes it.
    ///
    /// A client that already sent its first request would get a reset from a plain close (unread input
    /// makes the kernel abort the connection), and a reset can destroy the `bye` before the client reads it.
    /// So the server half-closes after the `bye` and discards what has arrived before closing.
    private func refuse(_ fd: Int32) {
        let bye = ServerMessageEncoder.encode(.bye(.serverFull))
        _ = bye.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        Glibc.shutdown(fd, Int32(SHUT_WR))
        var reads = 0
        while reads < Self.refusalReads, Glibc.read(fd, readBuffer.baseAddress, readBuffer.count) > 0 { reads += 1 }
        Glibc.close(fd)
        let now = MonotonicClock.now()
        if lastFullWarning.milliseconds(until: now) >= Self.serverFullWarningIntervalMilliseconds {
            lastFullWarning = now
            log.write(.warning, .serverFull(connections: lobby.connectionCount))
        }
    }

    /// Out of descriptors: free the spare one, accept and refuse one client, and take the spare back.
    private func refuseWithSpareDescriptor() {
        guard spareFD >= 0 else { return }
        Glibc.close(spareFD)
        let fd = accept(listeningFD, nil, nil)
        if fd >= 0 {
            SocketOptions.configureClient(fd)
            refuse(fd)
        }
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    // MARK: Reading and writing

    /// One ready socket, as the event loop reports it: the listening one accepts, a client's is read and
    /// written. Each is handled as its own event: connections whose write failed meanwhile are finished
    /// before the next.
    private func serviceReadySocket(_ token: UInt64, events: UInt32) {
        if token == Self.listeningToken {
            if listeningFD >= 0 { acceptConnections() }
            return
        }
        // A socket closed earlier in this batch is no longer in the table. If a newcomer accepted in the
        // same batch already has its slot, the stale report reaches the newcomer instead: harmless, since
        // a read then finds nothing (`wouldBlock`) and a flush sends only what is queued.
        guard let connection = connections.element(inSlot: Int(truncatingIfNeeded: token)) else { return }
        if events & EventPoller.writable != 0 { writable(connection) }
        if events & (EventPoller.readable | EventPoller.failed) != 0 { readable(connection) }
        finishFailures()
    }

    private func readable(_ connection: Connection) {
        switch connection.lifecycle {
        case .open:
            readRequests(from: connection)
        case .flushing, .lingering:
            discardInput(of: connection)
        case .failing, .closed:
            break
        }
    }

    /// Reads once and hands what came to the connection's framing (`receive`), which hands every whole
    /// message to the lobby and carries out its answers as each message is handled, so replies go out in
    /// the order the requests came.
    func readRequests(from connection: Connection) {
        switch connection.read(into: readBuffer) {
        case .bytes(let count):
            traffic.bytesIn += count
            // One clock read, as ever: it dates this read's requests and ends the previous read's answers.
            let nanoseconds = MonotonicClock.nanoseconds()
            recordAnswers(at: nanoseconds)
            if traffic.timing.batchArrived == nil { traffic.timing.batchArrived = nanoseconds }
            let now = Moment(milliseconds: Int64(nanoseconds / MonotonicClock.nanosecondsPerMillisecond))
            receive(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]), from: connection, at: now)
        case .wouldBlock:
            break
        case .endOfStream:
            drop(connection, because: .closedByPeer)
        case .failed(let code):
            drop(connection, because: .socketError(code, whileWriting: false))
        }
    }

    /// Reads and throws away what a connection saying goodbye still sends; closes it once the peer has
    /// closed, or stops reading while the rest of the goodbye still has to go out.
    private func discardInput(of connection: Connection) {
        switch connection.read(into: readBuffer) {
        case .bytes(let count):
            traffic.bytesIn += count
        case .wouldBlock:
            break
        case .endOfStream, .failed:
            if case .flushing = connection.lifecycle {
                connection.stopReading()
            } else {
                release(connection)
            }
        }
    }

    private func writable(_ connection: Connection) {
        guard connection.flush() else {
            switch connection.lifecycle {
            // errno is still the failed send's: nothing has run since.
            case .open: return fail(connection, because: .socketError(errno, whileWriting: true))
            case .failing, .closed: return
            case .flushing, .lingering: return release(connection)
            }
        }
        if case .flushing = connection.lifecycle, connection.output.isEmpty {
            startLingering(connection)
        }
    }

    /// Carries out what the lobby decided, in order, until it has nothing more to say. Carrying out an
    /// action can give the lobby more to decide (a send that finds its client too slow), which this loop
    /// then carries out too.
    func performLobbyActions() {
        lobby.performActions { action in
            switch action {
            case .send(let bytes, let messages, let id):
                guard let connection = connections[id], connection.isOpen else { return }
                deliver(bytes, messages: messages, to: connection)
            case .close(let id, let reason):
                guard let connection = connections[id], connection.isOpen else { return }
                sayGoodbye(to: connection, reason, at: MonotonicClock.now())
            case .sendStatistics(let stats, let id):
                guard let connection = connections[id], connection.isOpen else { return }
                deliver(ServerMessageEncoder.encode(.stats(completed(stats))), messages: 1, to: connection)
            case .log(let entry):
                log.write(entry)
            case .record(let game, let recipients):
                keep(game, holding: recipients)
            case .query(let query, let request, let id):
                answer(query, request: request, to: id)
            case .checkName(let lookup):
                check(lookup)
            }
        }
    }

    // MARK: The store

    /// Hands a finished game to the store's writer, which commits it off this queue, and holds the output
    /// of `recipients` (its last state first) until it is committed: a client that saw the game end finds it
    /// in the store even if the server is killed the next moment. The writer commits every few
    /// milliseconds, many games a transaction, so what waits is one batch.
    private func keep(_ game: FinishedGame, holding recipients: [ConnectionID]) {
        guard let store else { return }
        let now = MonotonicClock.now()
        let wallNow = WallClock.now()
        let record = StoredGames.record(of: game) { moment in
            WallClockTime(unixMilliseconds: wallNow.unixMilliseconds - moment.milliseconds(until: now))
        }
        let ticket: UInt64?
        do {
            ticket = try store.record(record)
        } catch {
            return log.write(.error, .gameNotKept(room: game.room, error: "\(error)"))
        }
        // Dropped for a full backlog: it will never be settled, so nothing waits for it.
        guard let ticket else { return }
        for id in recipients {
            guard let connection = connections[id], connection.isOpen else { continue }
            if connection.heldUntil == nil {
                holding.append(connection)
                connection.heldSince = now
            }
            connection.heldUntil = ticket
        }
        scheduleHoldCheck()
    }

    /// Releases, `maxHoldMilliseconds` after they began, the holds the store has not settled by then.
    private func scheduleHoldCheck() {
        guard !holdCheckScheduled, let oldest = holding.first else { return }
        holdCheckScheduled = true
        let wait = max(0, Self.maxHoldMilliseconds - oldest.heldSince.milliseconds(until: MonotonicClock.now()))
        queue.asyncAfter(deadline: .now() + .milliseconds(Int(wait))) { [weak self] in
            guard let self else { return }
            holdCheckScheduled = false
            let now = MonotonicClock.now()
            let overdue = holding.filter { $0.heldSince.milliseconds(until: now) >= Self.maxHoldMilliseconds }
            guard !overdue.isEmpty else { return scheduleHoldCheck() }
            holding.removeAll { $0.heldSince.milliseconds(until: now) >= Self.maxHoldMilliseconds }
            overdue.forEach(releaseHeld)
            performLobbyActions()
            finishFailures()
            armLobbyTimer()
            scheduleHoldCheck()
        }
    }

    /// Sends what was held for games the store has now settled (committed, or lost to a failure it logs).
    private func releaseHolds(settledThrough ticket: UInt64) {
        guard !holding.isEmpty else { return }
        var stillHeld: [Connection] = []
        for connection in holding {
            guard let until = connection.heldUntil else { continue }
            if until > ticket { stillHeld.append(connection); continue }
            releaseHeld(connection)
        }
        holding = stillHeld
        performLobbyActions()
        finishFailures()
        armLobbyTimer()
    }

    /// Sends what a connection has held, in order, and holds no more.
    private func releaseHeld(_ connection: Connection) {
        connection.heldUntil = nil
        let held = connection.held
        connection.held = []
        guard connection.isOpen else { return }
        for chunk in held { send(chunk.bytes, messages: chunk.messages, to: connection) }
    }

    /// A failure of the store, or its recovery, for the log (`StorageAlarm` decides which lines to write).
    private func storageReported(_ event: StorageEvent) {
        assertOnQueue()
        let now = MonotonicClock.now()
        switch event {
        case .failed(let failure):
            if let line = storageAlarm.failed(failure, at: now) { log.write(line.level, line.event) }
        case .recovered(let failures, let gamesLost):
            for line in storageAlarm.recovered(failures: failures, gamesLost: gamesLost, at: now) { log.write(line.level, line.event) }
        case .settled(let ticket):
            return releaseHolds(settledThrough: ticket)
        }
        scheduleHeldStorageFailures()
    }

    /// Writes the failures the alarm holds back once they are due, even if no other failure comes.
    private func scheduleHeldStorageFailures() {
        guard !storageAlarmScheduled, let deadline = storageAlarm.heldDeadline else { return }
        storageAlarmScheduled = true
        let wait = max(0, MonotonicClock.now().milliseconds(until: deadline))
        queue.asyncAfter(deadline: .now() + .milliseconds(Int(wait))) { [weak self] in
            guard let self else { return }
            storageAlarmScheduled = false
            if let line = storageAlarm.heldLine(at: MonotonicClock.now()) { log.write(line.level, line.event) }
            scheduleHeldStorageFailures()
        }
    }

    /// Asks the store on its own queue, and sends the answer from this one, or `storage_timeout` if the
    /// answer does not come within the deadline.
    private func answer(_ query: StorageQuery, request: RequestID?, to id: ConnectionID) {
        guard let store else { return }
        let ticket = awaitStorage(.query(request: request, connection: id), afterMilliseconds: 0)
        storageQueue.async { [self] in
            storageStep(.query)
            // Games that ended before the question was asked are committed first, so the answer has them
            // all: a client that saw a game end finds it in the history at once.
            store.flush()
            let answer = Self.ask(store, query, request: request)
            let lines = LongAnswers.lines(answer)
            let bytes = lines.flatMap(ServerMessageEncoder.encode)
            queue.async { [self] in
                guard pendingStorage.removeValue(forKey: ticket) != nil,
                      let connection = connections[id], connection.isOpen else { return }
                if case .error(let error) = answer { traffic.errors[error.code, default: 0] += 1 }
                deliver(bytes, messages: lines.count, to: connection)
                afterStorage()
            }
        }
    }

    /// The store's answer to `query`, or the error to send instead.
    private static func ask(_ store: any PairsStore, _ query: StorageQuery, request: RequestID?) -> ServerMessage {
        do throws(StoreError) {
            switch query {
            case .history(let name, let ladder, let limit, let before):
                let entries = try store.history(name: name, ladder: ladder, limit: limit, before: before.map(GameID.init))
                let games = entries.compactMap { StoredGames.summary(id: $0.id, of: $0.summary, flips: $0.flips) }
                return .history(HistoryPage(games: games, id: request))
            case .replay(let game):
                guard let stored = try store.replay(GameID(game)), let replay = StoredGames.replay(stored, id: request) else {
                    return .error(RequestError(.noSuchGame, "no finished game is number \(game)", id: request))
                }
                return .replay(replay)
            case .leaderboard(let variant, let limit, let soloBy):
                let ladder = RulesJSON.ladder(of: variant)
                if variant.seats == .one {
                    let ranking: SoloRanking = soloBy == .time ? .bestTime : .fewestFlips
                    let places = try store.soloLeaderboard(ladder: ladder, ranking: ranking, limit: limit)
                        .map { Place(rank: $0.rank, standing: StoredGames.standing($0.record)) }
                    return .leaderboard(Leaderboard(variant: variant, places: .solo(places, by: soloBy), id: request))
                }
                let places = try store.leaderboard(ladder: ladder, limit: limit)
                    .map { Place(rank: $0.rank, standing: StoredGames.standing($0.record)) }
                return .leaderboard(Leaderboard(variant: variant, places: .rated(places), id: request))
            case .profile(let name):
                guard let profile = try store.profile(name: name) else {
                    let none = PlayerProfile.Totals(games: 0, wins: 0, losses: 0, draws: 0, soloPlayed: 0, soloCleared: 0)
                    return .profile(PlayerProfile(name: name, claimed: false, ratings: [], solo: [], totals: none, games: [], id: request))
                }
                let ratings = profile.ratings.compactMap { record in
                    RulesJSON.variant(ofLadder: record.ladder).map { OnLadder(variant: $0, standing: StoredGames.standing(record)) }
                }
                let solo = profile.solo.compactMap { record in
                    RulesJSON.variant(ofLadder: record.ladder).map { OnLadder(variant: $0, standing: StoredGames.standing(record)) }
                }
                let totals = PlayerProfile.Totals(
                    games: profile.totals.games, wins: profile.totals.wins, losses: profile.totals.losses,
                    draws: profile.totals.draws, soloPlayed: profile.totals.soloPlayed, soloCleared: profile.totals.soloCleared)
                let games = profile.lastGames.compactMap { StoredGames.summary(id: $0.id, of: $0.summary, flips: $0.flips) }
                return .profile(PlayerProfile(name: profile.name, claimed: profile.isClaimed, ratings: ratings, solo: solo,
                                              totals: totals, games: games, id: request))
            }
        } catch {
            return .error(RequestError(.noStorage, "the history cannot be read right now: \(error)", id: request))
        }
    }

    /// Answers a `hello`'s name. Without a password, from the claimed names in memory, at once: it never
    /// waits for the disk or for anyone's password. With one, after the lookup's delay, on the hashing pool
    /// (`busy` when its queue is full), within the storage deadline.
    private func check(_ lookup: NameLookup) {
        guard let store else { return }
        let skeleton = NameSkeleton.of(lookup.name)
        if claimsInFlight[skeleton] != nil {
            claimsInFlight[skeleton]?.append(lookup)
            return
        }
        guard let password = lookup.password else {
            let result: NameCheckResult = switch store.standing(of: lookup.name) {
            case .free: .free
            case .claimed: .taken
            case .looksLike(let claimed): .looksLike(claimedName: claimed)
            }
            return lobby.nameChecked(lookup, result, at: MonotonicClock.now())
        }
        if let problem = GameStore.problem(withPassword: password) {
            return lobby.nameChecked(lookup, .unusablePassword(reason: problem.description), at: MonotonicClock.now())
        }
        // A name not claimed yet may be claimed by this: until it is known, its look-alikes wait in line.
        let claiming = store.isClaimed(lookup.name) ? nil : skeleton
        if let claiming { claimsInFlight[claiming] = [] }
        let ticket = awaitStorage(.name(lookup, claiming: claiming), afterMilliseconds: lookup.delayMilliseconds)
        guard lookup.delayMilliseconds > 0 else { return hash(lookup, password: password, ticket: ticket, in: store) }
        queue.asyncAfter(deadline: .now() + .milliseconds(Int(lookup.delayMilliseconds))) { [self] in
            guard pendingStorage[ticket] != nil else { return }
            hash(lookup, password: password, ticket: ticket, in: store)
            afterStorage()
        }
    }

    /// Hands a claim or a verification to the hashing pool; `busy` at once when its queue is full.
    private func hash(_ lookup: NameLookup, password: String, ticket: Int, in store: any PairsStore) {
        let accepted = nameChecks.submit { [self] in
            // Only a new claim writes to the disk; a verification reads the hash from memory.
            if !store.isClaimed(lookup.name) { storageStep(.claim) }
            let result = Self.claimOrVerify(lookup.name, password: password, in: store)
            queue.async { [self] in
                answerName(ticket, result)
                afterStorage()
            }
        }
        if !accepted { answerName(ticket, .busy) }
    }

    /// Gives the lobby the word on the name check `ticket`, unless its deadline already did, and lets the
    /// lookups that waited behind it (a claim's look-alikes) go on.
    private func answerName(_ ticket: Int, _ result: NameCheckResult) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard case .name(let lookup, let claiming)? = pendingStorage.removeValue(forKey: ticket) else { return }
        lobby.nameChecked(lookup, result, at: MonotonicClock.now())
        if let claiming {
            for waiting in claimsInFlight.removeValue(forKey: claiming) ?? [] { check(waiting) }
        }
    }

    /// The store's word on a name and password, as the lobby takes it.
    private static func claimOrVerify(_ name: String, password: String, in store: any PairsStore) -> NameCheckResult {
        do throws(StoreError) {
            switch try store.claimOrVerify(name: name, password: password) {
            case .claimed: return .claimed
            case .verified: return .verified
            case .wrongPassword: return .wrongPassword
            case .looksLike(let claimed): return .looksLike(claimedName: claimed)
            }
        } catch {
            if case .password(let problem) = error { return .unusablePassword(reason: problem.description) }
            return .unavailable
        }
    }

    /// Which storage work is about to touch the disk, for `storageStep`.
    enum StorageWork {
        /// A query on the storage queue.
        case query
        /// A claim's insert, on the hashing pool.
        case claim
    }

    /// What a piece of storage work answers when it comes back.
    private enum PendingStorage {
        case query(request: RequestID?, connection: ConnectionID)
        /// A name check; with the skeleton of the name it may claim, if it may claim one.
        case name(NameLookup, claiming: String?)
    }

    /// Notes storage work about to start after `delay` ms, and sets its deadline; returns its ticket.
    private func awaitStorage(_ pending: PendingStorage, afterMilliseconds delay: Int64) -> Int {
        dispatchPrecondition(condition: .onQueue(queue))
        nextStorageTicket += 1
        let ticket = nextStorageTicket
        pendingStorage[ticket] = pending
        let deadline = Int(delay + configuration.storageDeadlineMilliseconds)
        queue.asyncAfter(deadline: .now() + .milliseconds(deadline)) { [self] in
            switch pendingStorage[ticket] {
            case nil:
                return
            case .query(let request, let id)?:
                pendingStorage[ticket] = nil
                guard let connection = connections[id], connection.isOpen else { return }
                let error = RequestError(.storageTimeout, "the store did not answer within \(configuration.storageDeadlineMilliseconds) ms; try again later",
                                         id: request)
                deliver(ServerMessageEncoder.encode(.error(error)), messages: 1, to: connection)
            case .name?:
                answerName(ticket, .timedOut)
            }
            afterStorage()
        }
        return ticket
    }

    /// Password checks waiting for a hashing worker (for tests).
    var nameCheckPoolWaiting: Int { nameChecks.waiting }

    /// Storage work not yet answered (for tests).
    var storageWorkInFlight: Int { queue.sync { pendingStorage.count } }

    /// What every answer that arrives on `queue` from elsewhere is followed by.
    private func afterStorage() {
        performLobbyActions()
        finishFailures()
        armLobbyTimer()
    }

    /// Queues lines of the lobby's for a connection, framed as its framing frames them.
    private func deliver(_ lines: [UInt8], messages: Int, to connection: Connection) {
        guard connection.dialect == .webSocket else {
            return send(lines, messages: messages, to: connection)
        }
        if let lastFramed, lastFramed.lines.count == lines.count,
           lastFramed.lines.withUnsafeBufferPointer(\.baseAddress) == lines.withUnsafeBufferPointer(\.baseAddress) {
            return send(lastFramed.frames, messages: messages, to: connection)
        }
        let frames = connection.dialect.outgoing(lines)
        lastFramed = (lines, frames)
        send(frames, messages: messages, to: connection)
    }

    /// Queues bytes ready for the socket (lines, frames), within the output buffer's limit: a connection
    /// that does not read what it is sent is said goodbye to as too slow.
    func send(_ bytes: [UInt8], messages: Int, to connection: Connection) {
        if connection.heldUntil != nil { return connection.held.append((bytes, messages)) }
        switch connection.write(bytes, limit: configuration.outputBufferLimitBytes) {
        case .accepted:
            traffic.messagesOut += messages
            traffic.bytesOut += bytes.count
        case .overflow:
            sayGoodbye(to: connection, .tooSlow, at: MonotonicClock.now())
            lobby.disconnect(connection.id, because: .tooSlow, at: MonotonicClock.now())
        case .failed:
            // errno is still the failed send's: nothing has run since.
            fail(connection, because: .socketError(errno, whileWriting: true))
        }
    }

    // MARK: Closing

    /// The peer is gone: its seat (if any) is kept for the grace period, and the socket closes at once.
    func drop(_ connection: Connection, because cause: DisconnectCause) {
        // The lobby forgets the connection before its slot is given back (`release`).
        lobby.disconnect(connection.id, because: cause, at: MonotonicClock.now())
        release(connection)
        performLobbyActions()
    }

    /// A write found the peer gone. Before the connection counts as dropped, what the peer sent before going
    /// is read and handled (once the current event is over): a client that sends `leave` and closes with
    /// unread input makes the kernel answer with a reset, and the `leave` must still count.
    private func fail(_ connection: Connection, because cause: DisconnectCause) {
        guard connection.isOpen else { return }
        connection.lifecycle = .failing
        failures.append((connection, cause))
    }

    /// Reads the last input of every connection that failed during the event, then drops it.
    func finishFailures() {
        while !failures.isEmpty {
            let (connection, cause) = failures.removeFirst()
            // Only a connection the lobby knows has last words for it.
            var lastWords = connection.dialect.carriesMessages
            while lastWords {
                switch connection.read(into: readBuffer) {
                case .bytes(let count):
                    traffic.bytesIn += count
                    let now = MonotonicClock.now()
                    connection.framing.append(UnsafeRawBufferPointer(rebasing: readBuffer[..<count])) { input in
                        if case .message(let message) = input { lobby.receive(message, from: connection.id, at: now) }
                        performLobbyActions()
                    }
                case .wouldBlock, .endOfStream, .failed:
                    lastWords = false
                }
            }
            drop(connection, because: cause)
        }
    }

    /// Starts a goodbye: `bye` queued (behind what is already queued, if the reason lets that go first),
    /// then, on a WebSocket, a close frame; then the write side shut, then input drained until the peer
    /// closes, within `goodbyeMilliseconds`.
    func sayGoodbye(to connection: Connection, _ reason: ByeReason, at now: Moment) {
        let bye = ServerMessageEncoder.encode(.bye(reason))
        let lastWords: [UInt8] = switch connection.dialect {
        case .lines, .undecided: bye
        case .webSocket: connection.dialect.outgoing(bye) + WebSocketFrameEncoder.close(code: reason.closeCode, reason: reason.rawValue)
        // A request still arriving gets no answer: it was not asked yet.
        case .http: []
        }
        finish(connection, saying: lastWords, discardingQueued: !reason.deliversQueuedOutput, at: now)
    }

    /// Ends a connection: `lastWords` queued (behind what is already queued unless `discardingQueued`),
    /// then the write side shut, then input drained until the peer closes, within `goodbyeMilliseconds`:
    /// closing with unread input would send a reset, which can destroy the last words before they are read.
    func finish(_ connection: Connection, saying lastWords: [UInt8], discardingQueued: Bool, at now: Moment) {
        guard connection.isOpen else { return }
        if connection.heldUntil != nil {
            if discardingQueued {
                connection.heldUntil = nil
                connection.held = []
            } else {
                // What was held goes before the last words, and only once its game is kept: a goodbye is
                // rare enough (a `quit`, a shutdown) to wait here for the writer's batch.
                store?.flush()
                releaseHeld(connection)
                // Too much to queue: the release said goodbye to it already, as too slow.
                guard connection.isOpen else { return }
            }
        }
        if discardingQueued { connection.output.discardUnsent() }
        let deadline = now.adding(milliseconds: Self.goodbyeMilliseconds)
        connection.lifecycle = .flushing(deadline: deadline)
        guard connection.write(lastWords, limit: .max) != .failed, connection.flush() else {
            return release(connection)
        }
        if connection.output.isEmpty { startLingering(connection) }
        queue.asyncAfter(deadline: .now() + .milliseconds(Int(Self.goodbyeMilliseconds))) { [self] in
            closeIfOverdue(connection, at: MonotonicClock.now())
        }
    }

    /// Everything is said: the write side is shut and the peer's last input drained until it closes.
    private func startLingering(_ connection: Connection) {
        guard case .flushing(let deadline) = connection.lifecycle else { return }
        connection.shutdownWriting()
        // The peer closed its side already: there is nothing left to wait for.
        guard connection.isReading else { return release(connection) }
        connection.lifecycle = .lingering(deadline: deadline)
    }

    func closeIfOverdue(_ connection: Connection, at now: Moment) {
        switch connection.lifecycle {
        case .flushing(let deadline), .lingering(let deadline):
            if deadline <= now { release(connection) }
        case .open, .failing, .closed:
            break
        }
    }

    /// Closes the socket for good and forgets it; its id's slot may go to the next newcomer. The lobby has
    /// forgotten the connection by then (it closed it, or heard of its end), so no table holds the slot.
    private func release(_ connection: Connection) {
        if case .closed = connection.lifecycle { return }
        if let host = connection.webSocketHost { pageVisitors.webSocketClosed(host, at: MonotonicClock.now()) }
        connections[connection.id] = nil
        connection.closeSocket()
        connectionIDs.retire(connection.id)
    }

    // MARK: Time

    private func lobbyTimerFired() {
        assertOnQueue()
        // What arrived before the timer ran counts first: a late timer must not blame a client for the
        // server's own delay (a ping still in the socket, a flip sent before the turn clock ran out).
        loop?.handleReadySockets()
        let now = MonotonicClock.now()
        endWelcomeWaits(at: now)
        lobby.advance(to: now)
        performLobbyActions()
        finishFailures()
        armLobbyTimer()
    }

    /// Ends the welcome waits that are due, then sets the lobby's timer to the next deadline of the lobby or
    /// of a welcome wait, when that changed. Runs after every batch, so a wait ends within a batch of its
    /// deadline on a busy server, and by the timer on a quiet one.
    private func armLobbyTimer() {
        if !welcomeWaits.isEmpty { endWelcomeWaits(at: MonotonicClock.now()) }
        switch (lobby.nextDeadline, welcomeWaits.nextDeadline()) {
        case (let lobbyDeadline?, let welcome?): lobbyTimer?.arm(at: min(lobbyDeadline, welcome))
        case (let lobbyDeadline, let welcome): lobbyTimer?.arm(at: lobbyDeadline ?? welcome)
        }
    }

    /// A batch of sockets was collected: its arrival is its first read's moment. Messages handled outside
    /// a batch (a first line held by a welcome wait) are not timed.
    private func startBatch() {
        traffic.timing.batchArrived = nil
        traffic.timing.pending = 0
    }

    /// A batch was handled: its last read's messages are answered now.
    private func endBatch() {
        if traffic.timing.pending > 0 { recordAnswers(at: MonotonicClock.nanoseconds()) }
    }

    /// Records the messages handled since the last read as answered at `nanoseconds`.
    private func recordAnswers(at nanoseconds: UInt64) {
        let pending = traffic.timing.pending
        guard pending > 0 else { return }
        traffic.timing.pending = 0
        let arrived = traffic.timing.batchArrived ?? nanoseconds
        let microseconds = nanoseconds > arrived ? Int((nanoseconds - arrived) / 1000) : 0
        traffic.latency.record(microseconds: microseconds, answers: pending)
    }

    func currentStatistics(at now: Moment) -> ServerStatistics {
        completed(lobby.statistics(at: now))
    }

    /// The lobby's counters with the transport's and the store's added.
    private func completed(_ lobbyStatistics: ServerStatistics) -> ServerStatistics {
        var stats = lobbyStatistics
        stats.messagesOut = traffic.messagesOut
        stats.bytesIn = traffic.bytesIn
        stats.bytesOut = traffic.bytesOut
        stats.gamesStored = store?.gamesStored ?? 0
        stats.storageErrors = store?.storageErrors ?? 0
        stats.latency = traffic.latency
        stats.errors.merge(traffic.errors, uniquingKeysWith: +)
        stats.gamesPruned = store?.gamesPruned ?? 0
        stats.storage = store.map { $0.isHealthy ? .ok : .failing } ?? StorageHealth.none
        return stats
    }

    /// In debug builds, traps when called off the server's queue, which owns everything here.
    @inline(__always)
    func assertOnQueue() {
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
    }
}
