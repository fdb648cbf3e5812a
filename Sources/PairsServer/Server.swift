import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsPolling
import PairsRules
import PairsWire

/// The Pairs match server: accepts TCP connections, reads line-delimited requests, runs the rooms, and
/// writes every state change to everyone in the room.
///
/// One serial queue owns everything: connections, rooms, the lobby, the counters. Sockets are non-blocking
/// and every Dispatch source (accepts, readiness, timers) targets that queue, so no state is ever touched
/// by two threads and no lock is needed. That is the `@unchecked Sendable` promise: every mutable property
/// below is used only on `queue`. The public methods hop onto it.
///
/// Client sockets and the listening socket sit in one epoll set (`EventPoller`) watched by a single Dispatch
/// read source, as Redis's ae loop watches all its descriptors: one Dispatch wakeup serves every socket that
/// became ready meanwhile, where a source per socket would cost Dispatch's manager thread two hand-offs per
/// event.
public final class Server: @unchecked Sendable {
    /// Connections accepted each time a harvest reports the listening socket. It is harvested with the
    /// clients' sockets, so under load it gets its turn in every batch, whatever Dispatch's scheduling. (A
    /// Dispatch source of its own, beside a readiness handler that re-queued itself, was served about once
    /// a second on a busy server: 64-128 accepts/s, the backlog full, connects waiting for SYN retries.)
    /// 256: a crowd arriving at once is welcomed within a few batches (500 newcomers in 33 ms beside 1,000
    /// busy games), while accepting, about 10 µs a connection, never takes more than a batch's share of the
    /// queue from the games already running.
    static let maxAcceptsPerEvent = 256
    /// Bytes read per readable event: one buffer, shared by all connections since only the queue reads.
    static let readBufferBytes = 64 * 1024
    /// Descriptors kept back from `--max-connections`' default: stdio, the listening socket, the spare
    /// descriptor, the epoll set and Dispatch's own.
    static let reservedDescriptors = 16
    /// How long a shutdown waits for goodbyes to drain before closing anyway (the process must exit
    /// within two seconds of SIGTERM).
    static let shutdownDrainMilliseconds: Int64 = 1500
    /// How long a client that asked to quit gets to read its last messages.
    static let quitDrainMilliseconds: Int64 = 2000

    public let configuration: ServerConfiguration
    let queue = DispatchQueue(label: "pairs.server")
    let log: ServerLog
    let startedAt = MonotonicClock.now()
    let hint = "type: join | join ROOM | list | help"
    let serverName: String

    var connections: [Int: Connection] = [:]
    var directory = RoomDirectory()
    var idleList = IdleList()
    var counters = ServerStatistics()
    var maxConnections = 0
    private var nextConnectionID = 1
    /// -1 once the server stops accepting.
    private var listeningFD: Int32 = -1
    /// Fires when any client socket is ready; the handler harvests them all from `poller`.
    private var readinessSource: DispatchSourceRead?
    private var poller: EventPoller?
    /// Every open client socket by descriptor (the token the epoll set reports), including connections
    /// still saying goodbye; a socket leaves it when it is closed.
    private var sockets: [Int32: Connection] = [:]
    private var sweepTimer: DispatchSourceTimer?
    /// A descriptor held open so that, when the process runs out, one can be freed to accept a client and
    /// tell it `server_full` instead of leaving it hanging in the backlog.
    private var spareFD: Int32 = -1
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Server.readBufferBytes, alignment: 1)
    /// Connections to close once the current event is handled, never in the middle of a broadcast.
    private var pendingCloses: [(Connection, CloseKind)] = []
    /// Connections saying goodbye: closed when their output drains or their deadline passes.
    private var draining: [Int: (connection: Connection, deadline: Moment)] = [:]
    private var lastFullWarning = Moment(milliseconds: .min / 2)
    private(set) var isShuttingDown = false
    private var boundAddress: SocketAddress?

    /// How a connection ends.
    enum CloseKind {
        /// The socket is gone: nothing can be said.
        case dropped(String)
        /// Say `bye` with the reason and close at once, dropping anything still queued.
        case bye(ByeReason)
        /// Say `bye` after everything queued, and close once it has gone out.
        case byeAfterFlush(ByeReason)
    }

    public init(configuration: ServerConfiguration, version: String = "dev") {
        self.configuration = configuration
        self.log = ServerLog(level: configuration.logLevel)
        self.serverName = "pairs \(version)"
    }

    deinit {
        readBuffer.deallocate()
    }

    /// The port the server listens on (the real one when configured with port 0).
    public var port: Int { boundAddress?.port ?? 0 }

    /// `HOST:PORT` as the server listens on it.
    public var listeningAddress: String { boundAddress?.description ?? "" }

    /// Binds and starts serving. Throws before anything listens if the address cannot be used.
    public func start() throws(SocketError) {
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        let fileLimit = SocketOptions.raiseFileLimit()
        let fd = try SocketOptions.listen(on: address, backlog: 4096)
        let bound = try SocketAddress(boundTo: fd)
        let poller: EventPoller
        do {
            poller = try EventPoller()
        } catch {
            Glibc.close(fd)
            throw .system(call: error.call, errno: error.errno)
        }
        guard poller.add(fd, token: UInt64(fd), interest: EventPoller.readable) else {
            let code = errno
            Glibc.close(fd)
            throw .system(call: "epoll_ctl", errno: code)
        }
        queue.sync {
            self.poller = poller
            let readiness = DispatchSource.makeReadSource(fileDescriptor: poller.descriptor, queue: queue)
            readiness.setEventHandler { [self] in serviceReadySockets() }
            // The epoll descriptor must stay open until Dispatch has let go of it.
            readiness.setCancelHandler { withExtendedLifetime(poller) {} }
            readiness.activate()
            readinessSource = readiness
            listeningFD = fd
            boundAddress = bound
            maxConnections = configuration.maxConnections ?? max(1, fileLimit - Self.reservedDescriptors)
            spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
            let sweep = DispatchSource.makeTimerSource(queue: queue)
            sweep.setEventHandler { [self] in sweepIdleConnections() }
            sweep.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1), leeway: .milliseconds(100))
            sweep.activate()
            sweepTimer = sweep
        }
        log.info("pairs listening on \(bound) (max \(maxConnections) connections)")
    }

    /// Stops accepting, says `bye {reason: "shutdown"}` to everyone, lets it drain briefly, closes every
    /// connection, and then calls `completion` (on the server's queue).
    public func shutdown(completion: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            guard !isShuttingDown else { completion(); return }
            isShuttingDown = true
            stopAccepting()
            let deadline = MonotonicClock.now().adding(milliseconds: Self.shutdownDrainMilliseconds)
            for connection in connections.values {
                schedule(close: connection, .byeAfterFlush(.shutdown))
            }
            finishEvent()
            for entry in draining.values { draining[entry.connection.id] = (entry.connection, min(entry.deadline, deadline)) }
            waitForDrain(then: completion)
        }
    }

    /// `shutdown`, waiting for it to finish. For tests and the command line; not to be called on the
    /// server's own queue.
    public func stop() {
        let done = DispatchSemaphore(value: 0)
        shutdown { done.signal() }
        done.wait()
    }

    /// The server's counters, read on its queue.
    public func statistics() -> ServerStatistics {
        queue.sync { currentStatistics(id: nil) }
    }

    private func waitForDrain(then completion: @escaping @Sendable () -> Void) {
        let now = MonotonicClock.now()
        for (id, entry) in draining where entry.connection.output.isEmpty || entry.deadline <= now {
            draining[id] = nil
            release(entry.connection)
        }
        if draining.isEmpty {
            sweepTimer?.cancel()
            sweepTimer = nil
            readinessSource?.cancel()
            readinessSource = nil
            for room in directory.rooms.values { room.timer.cancel() }
            if spareFD >= 0 { Glibc.close(spareFD); spareFD = -1 }
            log.info("server stopped")
            completion()
        } else {
            queue.asyncAfter(deadline: .now() + .milliseconds(10)) { [self] in waitForDrain(then: completion) }
        }
    }

    // MARK: Accepting

    /// Closes the listening socket, which also takes it out of the epoll set.
    private func stopAccepting() {
        guard listeningFD >= 0 else { return }
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
            guard connections.count < maxConnections, !isShuttingDown else {
                refuse(fd)
                continue
            }
            admit(fd, peer: SocketAddress(storage: storage, length: length).description)
        }
        finishEvent()
    }

    private func admit(_ fd: Int32, peer: String) {
        let now = MonotonicClock.now()
        let connection = Connection(id: nextConnectionID, fd: fd, peer: peer, now: now)
        nextConnectionID += 1
        if configuration.rateLimit > 0 {
            let rate = Double(configuration.rateLimit)
            connection.rateLimit = TokenBucket(ratePerSecond: rate, burst: Double(configuration.rateBurst), now: now)
            // A client is cut off after dropping about a burst's worth of messages in a row beyond its
            // allowance; a client that backs off when told earns the allowance back within seconds.
            connection.floodAllowance = TokenBucket(ratePerSecond: rate / 4, burst: Double(configuration.rateBurst), now: now)
        }
        guard let poller, connection.watch(with: poller) else {
            log.warning("c\(connection.id) refused: cannot watch its socket: \(String(cString: strerror(errno)))")
            Glibc.close(fd)
            return
        }
        sockets[fd] = connection
        connections[connection.id] = connection
        idleList.touch(connection)
        send(.welcome(Welcome(server: serverName, session: "c\(connection.id)", hint: hint)), to: connection)
        log.debug("c\(connection.id) connected from \(peer)")
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
        var reads = 0 // bounded, so a client that keeps sending cannot hold the queue here
        while reads < 4, Glibc.read(fd, readBuffer.baseAddress, readBuffer.count) > 0 { reads += 1 }
        Glibc.close(fd)
        let now = MonotonicClock.now()
        if lastFullWarning.milliseconds(until: now) >= 1000 {
            lastFullWarning = now
            log.warning("connection refused: server full (\(connections.count) connections)")
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

    /// Batches of ready sockets harvested per Dispatch wakeup at most, so room timers and the sweep get the
    /// queue between them however busy the clients are.
    static let maxBatchesPerWakeup = 4

    /// Once every socket is quiet, the readiness handler waits up to 200 µs, asleep in `epoll_pwait2`, for
    /// the next request before giving the thread back to Dispatch. A bot answers a state within tens of
    /// microseconds, and a request that arrives during the wait is read by the very thread the kernel wakes.
    /// Without it, every request woke Dispatch's manager thread, which then woke a worker to run this handler:
    /// that second hand-off made the median round trip 1.45 x the C reference's (README.md, "Benchmarks").
    /// Asleep, the wait costs no CPU; a lone human's line costs one timer wakeup more. At most 16 waits per
    /// wakeup, because nothing else runs on the queue meanwhile: back-to-back traffic can hold off room
    /// timers and the sweep by 16 x 200 µs = 3.2 ms of waiting at most. (Newcomers are not held off: the
    /// listening socket is in the epoll set, so a connect ends the wait like a request does.)
    static let linger = EventPoller.Linger(microseconds: 200, times: 16)

    /// The readiness source's handler: every socket that is ready, each handled as its own event, then the
    /// next requests as they come, while they come quickly (see `linger`).
    private func serviceReadySockets() {
        guard let poller else { return }
        poller.harvestUntilQuiet(maxBatches: Self.maxBatchesPerWakeup, lingering: Self.linger) {
            token, events in
            if token == UInt64(truncatingIfNeeded: listeningFD), listeningFD >= 0 {
                acceptConnections()
                return
            }
            // A socket closed earlier in this batch is no longer in the table. If a newcomer accepted in the
            // same batch already has its descriptor, the stale report reaches the newcomer instead: harmless,
            // since a read then finds nothing (`wouldBlock`) and a flush sends only what is queued.
            guard let connection = sockets[Int32(truncatingIfNeeded: token)] else { return }
            if events & EventPoller.writable != 0 { writable(connection) }
            if events & (EventPoller.readable | EventPoller.failed) != 0, !connection.isSocketClosed {
                readable(connection)
            }
        }
        // Still busy after the batches allowed, or not: either way, return. The epoll descriptor stays
        // readable while any socket is ready, so Dispatch calls again, after the timers due meanwhile. Coming
        // back through `queue.async` instead starved Dispatch's own sources under load: with 1,000 games
        // running, a 1 s turn clock fired up to 0.9 s late.
    }

    private func readable(_ connection: Connection) {
        switch connection.read(into: readBuffer) {
        case .bytes(let count):
            counters.bytesIn += count
            guard !connection.isClosing else { break } // still drained, so epoll stops reporting it
            var framer = LineFramer()
            swap(&framer, &connection.framer) // the handlers below may not touch connection.framer
            framer.append(UnsafeRawBufferPointer(rebasing: readBuffer[..<count])) { frame in
                guard !connection.isClosing else { return }
                switch frame {
                case .line(let line): handle(line: line, from: connection)
                case .tooLong: handleTooLong(from: connection)
                }
            }
            swap(&framer, &connection.framer)
        case .wouldBlock:
            break
        case .endOfStream:
            peerGone(connection, why: "closed by peer")
        case .failed:
            peerGone(connection, why: "read failed: \(String(cString: strerror(errno)))")
        }
        finishEvent()
    }

    /// The peer closed or reset: a goodbye in progress is over, anyone else is dropped. (An end of stream
    /// stays readable, so leaving the socket open would report it in every batch.)
    private func peerGone(_ connection: Connection, why: String) {
        if let entry = draining.removeValue(forKey: connection.id) {
            release(entry.connection)
        } else {
            schedule(close: connection, .dropped(why))
        }
    }

    private func writable(_ connection: Connection) {
        if !connection.flush() {
            schedule(close: connection, .dropped("write failed"))
        } else if connection.output.isEmpty, draining[connection.id] != nil {
            draining[connection.id] = nil
            release(connection)
        }
        finishEvent()
    }

    /// Queues `message` for `connection`.
    func send(_ message: ServerMessage, to connection: Connection) {
        deliver(ServerMessageEncoder.encode(message), to: connection)
    }

    /// Queues bytes already encoded (states encoded once for a whole room), holding `messages` lines, for
    /// `connection`.
    func deliver(_ bytes: [UInt8], to connection: Connection, messages: Int = 1) {
        guard !connection.isClosing else { return }
        switch connection.write(bytes, limit: configuration.outputBufferLimitBytes) {
        case .accepted:
            counters.messagesOut += messages
            counters.bytesOut += bytes.count
        case .overflow:
            schedule(close: connection, .bye(.tooSlow))
        case .failed:
            schedule(close: connection, .dropped("write failed"))
        }
    }

    // MARK: Closing

    /// Marks `connection` to be closed once the current event is handled.
    func schedule(close connection: Connection, _ kind: CloseKind) {
        guard !connection.isClosing else { return }
        connection.isClosing = true
        pendingCloses.append((connection, kind))
    }

    /// Ends every event handler: closes what the event scheduled for closing. Closing a player can change
    /// a room and so overflow another client, which this loop then closes too.
    func finishEvent() {
        while !pendingCloses.isEmpty {
            let (connection, kind) = pendingCloses.removeFirst()
            close(connection, kind)
        }
    }

    private func close(_ connection: Connection, _ kind: CloseKind) {
        idleList.remove(connection)
        connections[connection.id] = nil
        detachFromRoom(connection)
        let why: String
        switch kind {
        case .dropped(let reason):
            why = reason
            release(connection)
        case .bye(let reason):
            why = reason.rawValue
            connection.output.removeAll()
            connection.writeLastWords(ServerMessageEncoder.encode(.bye(reason)))
            release(connection)
        case .byeAfterFlush(let reason):
            why = reason.rawValue
            let bye = ServerMessageEncoder.encode(.bye(reason))
            if connection.output.isEmpty {
                connection.writeLastWords(bye)
                release(connection)
            } else {
                _ = connection.write(bye, limit: .max)
                let wait = reason == .shutdown ? Self.shutdownDrainMilliseconds : Self.quitDrainMilliseconds
                draining[connection.id] = (connection, MonotonicClock.now().adding(milliseconds: wait))
            }
        }
        if case .bye(.serverFull) = kind {} else if !isShuttingDown {
            log.info("c\(connection.id) (\(connection.name)) disconnected: \(why)")
        }
    }

    /// Closes the socket for good and forgets it.
    private func release(_ connection: Connection) {
        sockets[connection.fd] = nil
        connection.closeSocket()
    }

    // MARK: Housekeeping

    /// Once a second: closes idle lobby connections and goodbyes that never drained.
    private func sweepIdleConnections() {
        let now = MonotonicClock.now()
        let idleLimit = Int64(configuration.idleSeconds) * 1000
        while let oldest = idleList.first, oldest.lastActivity.milliseconds(until: now) >= idleLimit {
            idleList.remove(oldest)
            schedule(close: oldest, .bye(.idle))
        }
        for (id, entry) in draining where entry.deadline <= now {
            draining[id] = nil
            release(entry.connection)
        }
        finishEvent()
    }

    func currentStatistics(id: RequestID?) -> ServerStatistics {
        var stats = counters
        stats.connections = connections.count
        stats.rooms = directory.count
        stats.gamesActive = directory.rooms.values.count { $0.match.phase == .playing || $0.match.phase == .reveal }
        stats.uptimeSeconds = Int(startedAt.milliseconds(until: MonotonicClock.now()) / 1000)
        stats.id = id
        return stats
    }
}
