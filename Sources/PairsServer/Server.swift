import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
import PairsPolling
import PairsRules
import PairsStorage
import PairsWire

/// The Pairs match server: it listens, and runs a `ConnectionLoop` that accepts TCP connections, reads their
/// bytes, hands whole messages to the `Lobby`, and carries out what the lobby decides (send these bytes,
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
    let loop: ConnectionLoop
    /// Where the server listens, once it does; set once by `start`, before anything reads it.
    private var boundAddress: SocketAddress?

    /// A server with `configuration`, keeping finished games and claimed names in `store` when there is one
    /// (the store is opened first, so a file that cannot be used stops `pairs serve` before it listens).
    public convenience init(configuration: ServerConfiguration, version: String = "dev", store: (any PairsStore)? = nil) {
        self.init(configuration: configuration, version: version, store: store, storageStep: { _ in })
    }

    /// A server whose storage work runs `storageStep` first (for tests: a stalled disk), on `clock` (for
    /// tests: a manual one).
    init(configuration: ServerConfiguration, version: String = "dev", store: (any PairsStore)?,
         clock: any TransportClock = SystemTransportClock(),
         storageStep: @escaping @Sendable (StoreGateway.StorageWork) -> Void) {
        self.configuration = configuration
        var lobbyConfiguration = configuration.lobby
        lobbyConfiguration.keepsGames = store != nil
        let lobby = Lobby(configuration: lobbyConfiguration, serverName: "pairs \(version)", startedAt: clock.now())
        let queue = DispatchQueue(label: "pairs.server")
        loop = ConnectionLoop(queue: queue, clock: clock, lobby: lobby, log: ServerLog(configuration))
        loop.configure(configuration, store: store, storageStep: storageStep)
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    /// The queue that owns the loop (tests hold it to play a busy server).
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
                                    maxConnections: configuration.maxConnections, log: loop.log, clock: loop.clock)
        let events: EventLoop
        do throws(SystemCallError) {
            events = try EventLoop(queue: queue)
        } catch {
            throw .system(call: error.call, errno: error.errno)
        }
        let started: Result<Void, SocketError> = queue.sync {
            do throws(SocketError) {
                try loop.start(listener: listener, events: events, outputLimit: configuration.outputBufferLimitBytes)
            } catch {
                return .failure(error)
            }
            loop.log.startSummaries(on: queue) { [weak self] in
                guard let self else { return ServerStatistics() }
                return loop.lobby.statistics(at: loop.clock.now())
            }
            return .success(())
        }
        try started.get()
        boundAddress = listener.address
        loop.log.write(.info, .listening(address: listener.address.description, pid: getpid(), maxConnections: listener.maxConnections,
                                         data: loop.gateway?.store.path))
    }

    /// Opens the log file again, for log rotation (`pairs serve` does this on SIGUSR1). Safe to call from
    /// any thread: the reopening happens on the server's queue, where the log is written.
    public func reopenLog() {
        queue.async { [self] in loop.log.reopen() }
    }

    /// Stops accepting, says `bye {reason: "shutdown"}` to everyone, lets it drain briefly, closes every
    /// connection, and then calls `completion` (on the server's queue). Safe to call from any thread.
    public func shutdown(completion: @escaping @Sendable () -> Void) {
        loop.enqueue(.shutdown(completion: completion))
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
            return loop.statistics(at: loop.clock.now())
        }
        return queue.sync { loop.statistics(at: loop.clock.now()) }
    }

    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Password checks waiting for a hashing worker (for tests).
    var nameCheckPoolWaiting: Int { loop.gateway?.nameChecks.waiting ?? 0 }

    /// Storage work not yet answered (for tests).
    var storageWorkInFlight: Int { queue.sync { loop.gateway?.tickets.count ?? 0 } }

    /// Sockets the server holds open, the ones saying goodbye included (for tests).
    var openSockets: Int { queue.sync { loop.sockets?.open.count ?? 0 } }
}
