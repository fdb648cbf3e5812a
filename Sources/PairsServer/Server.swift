import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
import PairsPolling
import PairsRules
import PairsStorage
import PairsWire

/// The Pairs match server: it listens, and runs `configuration.loops` `ConnectionLoop`s (`LoopGroup`), each
/// of which takes TCP connections, reads their bytes, hands whole messages to the `Lobby`, and carries out what the lobby decides (send these bytes,
/// close that connection), with every timer and every goodbye.
///
/// One port speaks the line protocol and HTTP: a connection's first bytes decide (`Framing`,
/// `ConnectionSniffer`). HTTP serves the page, the counters, and WebSockets, whose text frames carry the
/// line protocol's messages; the lobby never learns which framing a connection uses (`WebFront`).
///
/// The parts, each in its file: `Listener` (accepting, `server_full`), `ConnectionLoop` (the one entry
/// point, the timer, the drain), `LoopSockets` (reading, writing, goodbyes), `WebFront` (first bytes, HTTP,
/// page visitors), `StoreGateway` (the store, off the loop). The loop's queue owns them all; the public
/// methods here hop onto it.
public final class Server: @unchecked Sendable {
    /// How long `welcome` waits for a connection's first bytes, which may be an HTTP request: a browser
    /// sends its request the moment it connects, so 100 ms covers a busy LAN many times over, and a person
    /// in netcat who types nothing sees no pause. A first byte that cannot start a request line (every
    /// bot's `{`, every text command's lower-case letter) ends the wait at once.
    public static let welcomeWaitMilliseconds: Int64 = 100

    public let configuration: ServerConfiguration
    let group: LoopGroup
    /// Where the log's summaries run with several loops, and a shutdown's last steps: off every loop.
    private let logQueue = DispatchQueue(label: "pairs.log")
    /// Where the server listens, once it does; set once by `start`, before anything reads it.
    private var boundAddress: SocketAddress?

    /// A server with `configuration`, keeping finished games and claimed names in `store` when there is one
    /// (the store is opened first, so a file that cannot be used stops `pairs serve` before it listens).
    public convenience init(configuration: ServerConfiguration, version: String = "dev", store: (any PairsStore)? = nil) {
        self.init(configuration: configuration, version: version, store: store, storageStep: { _ in })
    }

    /// A server that is one instance of a cluster: rooms and resume tokens unknown here are looked up in
    /// `cluster`, and those made here recorded there (`LobbyCluster`).
    public convenience init(configuration: ServerConfiguration, version: String = "dev", store: (any PairsStore)?, cluster: any LobbyCluster) {
        self.init(configuration: configuration, version: version, store: store, cluster: cluster, storageStep: { _ in })
    }

    /// A server whose storage work runs `storageStep` first (for tests: a stalled disk), on `clock` (for
    /// tests: a manual one).
    init(configuration: ServerConfiguration, version: String = "dev", store: (any PairsStore)?, cluster: (any LobbyCluster)? = nil,
         clock: any TransportClock = SystemTransportClock(),
         storageStep: @escaping @Sendable (StoreGateway.StorageWork) -> Void) {
        self.configuration = configuration
        var lobbyConfiguration = configuration.lobby
        lobbyConfiguration.keepsGames = store != nil
        let log = ServerLog(configuration)
        let count = max(1, configuration.loops)
        let startedAt = clock.now()
        let directory = LobbyDirectory(shards: count, configuration: lobbyConfiguration, cluster: cluster)
        let storage = store.map { StoreGateway.Shared(store: $0, configuration: configuration, storageStep: storageStep) }
        group = LoopGroup(count: count, clock: clock, log: log, dealing: configuration.dealing) { index, group in
            let lobby = Lobby(configuration: lobbyConfiguration, serverName: "pairs \(version)", startedAt: startedAt,
                              directory: directory, shard: index)
            let queue = DispatchQueue(label: count == 1 ? "pairs.server" : "pairs.loop.\(index)")
            let loop = ConnectionLoop(index: index, group: group, queue: queue, lobby: lobby)
            loop.configure(configuration, storage: storage)
            return loop
        }
        for loop in group.loops {
            loop.queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(group))
            loop.queue.setSpecific(key: Self.loopKey, value: loop.index)
        }
        // Every loop releases the output it holds for committed games; one writes the store's failures.
        store?.watch { [weak group] event in
            guard let group else { return }
            if case .settled = event {
                for loop in group.loops { loop.enqueue(.stored(.report(event))) }
            } else {
                group.loops[0].enqueue(.stored(.report(event)))
            }
        }
    }

    /// The operator's log, which every loop writes (the group holds it).
    var log: ServerLog { group.log }

    /// The first loop, which holds the listening socket.
    var loop: ConnectionLoop { group.loops[0] }

    /// The first loop's queue (tests hold it to play a busy server).
    var queue: DispatchQueue { loop.queue }

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
        let listener = try Listener(host: configuration.host, port: configuration.port,
                                    maxConnections: configuration.maxConnections, log: log, clock: loop.clock)
        for loop in group.loops {
            let events: EventLoop
            do throws(SystemCallError) {
                events = try EventLoop(queue: loop.queue)
            } catch {
                listener.close()
                throw .system(call: error.call, errno: error.errno)
            }
            let started: Result<Void, SocketError> = loop.queue.sync {
                do throws(SocketError) {
                    try loop.start(listener: loop.index == 0 ? listener : nil, events: events, outputLimit: configuration.outputBufferLimitBytes)
                } catch {
                    return .failure(error)
                }
                if group.count == 1 {
                    loop.log.startSummaries(on: loop.queue) { [weak self] in
                        guard self != nil else { return ServerStatistics() }
                        return loop.lobby.statistics(at: loop.clock.now())
                    }
                }
                return .success(())
            }
            try started.get()
        }
        if group.count > 1 {
            logQueue.sync { log.startSummaries(on: logQueue) { [weak self] in self?.group.statistics() ?? ServerStatistics() } }
        }
        boundAddress = listener.address
        log.write(.info, .listening(address: listener.address.description, pid: getpid(), maxConnections: listener.maxConnections,
                                    data: loop.gateway?.store.path, loops: group.count))
    }

    /// Opens the log file again, for log rotation (`pairs serve` does this on SIGUSR1). Safe to call from
    /// any thread: the reopening happens on the server's queue, where the log is written.
    public func reopenLog() {
        queue.async { [self] in loop.log.reopen() }
    }

    /// Stops accepting, says `bye {reason: "shutdown"}` to everyone on every loop, lets it drain briefly,
    /// closes every connection, and then calls `completion` (on the server's queue with one loop, off the
    /// loops with several). Safe to call from any thread.
    public func shutdown(completion: @escaping @Sendable () -> Void) {
        let (group, log, logQueue) = (group, log, logQueue)
        let finish: @Sendable () -> Void = {
            // The games that ended last are committed before the process may exit.
            group.loops[0].gateway?.flushStore()
            log.stopSummaries()
            log.write(.info, .stopped)
            completion()
        }
        guard group.count > 1 else { return loop.enqueue(.shutdown(nil, completion: finish)) }
        // One line for the whole server, written by the last loop to count; the last loop to stop finishes.
        let tally = ShutdownTally(loops: group.count)
        let running = PthreadLocked(group.count)
        for loop in group.loops {
            loop.enqueue(.shutdown(tally, completion: {
                guard running.withLock({ $0 -= 1; return $0 }) == 0 else { return }
                logQueue.async(execute: finish)
            }))
        }
    }

    /// `shutdown`, waiting for it to finish. For tests and the command line; it blocks, so it must not be
    /// called on one of the server's queues.
    public func stop() {
        for loop in group.loops { dispatchPrecondition(condition: .notOnQueue(loop.queue)) }
        let done = DispatchSemaphore(value: 0)
        shutdown { done.signal() }
        done.wait()
    }

    /// The server's counters, every loop's summed. Safe to call from any thread; on one of the server's
    /// queues with several loops, only that loop's counters are read (a loop never waits for another).
    public func statistics() -> ServerStatistics {
        if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(group) {
            let current = group.loops[DispatchQueue.getSpecific(key: Self.loopKey) ?? 0]
            return current.statistics(at: current.clock.now())
        }
        return group.statistics()
    }

    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    private static let loopKey = DispatchSpecificKey<Int>()

    /// Password checks waiting for a hashing worker (for tests).
    var nameCheckPoolWaiting: Int { loop.gateway?.shared.nameChecks.waiting ?? 0 }

    /// Storage work not yet answered, on every loop (for tests).
    var storageWorkInFlight: Int { group.loops.map { loop in loop.queue.sync { loop.gateway?.tickets.count ?? 0 } }.reduce(0, +) }

    /// Sockets the server holds open on every loop, the ones saying goodbye included (for tests).
    var openSockets: Int { group.loops.map { loop in loop.queue.sync { loop.sockets?.open.count ?? 0 } }.reduce(0, +) }
}
