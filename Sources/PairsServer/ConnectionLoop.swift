import Dispatch
import PairsLobby
import PairsPolling
import PairsRules
import PairsStorage
import PairsWire

/// Everything that reaches a loop. Each goes through `ConnectionLoop.handle`, which ends every one the
/// same way: the lobby's actions carried out, failed connections finished, the timer armed.
enum LoopInput {
    /// The epoll set has sockets ready: they are harvested (accepted, read, written) batch after batch.
    case socketsReady
    /// The loop's one timer fired: the lobby's deadlines, the welcome waits and the transport's own.
    case timerFired
    /// Work done off the loop came back: a history answer, a name check, the store's report.
    case stored(StoreGateway.Answer)
    /// Stop: goodbye to everyone, a drain of at most `shutdownDrainMilliseconds`, then `completion`.
    case shutdown(ShutdownTally?, completion: @Sendable () -> Void)
    /// Loop 0 accepted a connection and dealt it to this loop, with its id: nothing has read it yet.
    case connectionArriving(fd: Int32, address: SocketAddress, id: ConnectionID)
    /// Another loop's lobby handed a connection to this one's (`ConnectionLoop.Move`).
    case connectionMovingIn(ConnectionLoop.Move)
    /// Every loop's counters, gathered for a `stats` or an HTTP request of a connection here (or moved on).
    case statisticsGathered(ServerStatistics, for: ConnectionLoop.StatisticsRecipient)
    /// A history answer (or its timeout) for a connection that moved here after asking.
    case deliver(bytes: [UInt8], messages: Int, to: ConnectionID)
}

/// One event loop of the transport: one serial queue, one epoll set with its connections (`LoopSockets`),
/// the web front, the store's gateway, the lobby, and one timer for all their deadlines.
///
/// Every input enters through `handle` on `queue`, the only place that settles what an input left to do.
/// Everything here and in the parts is used only on `queue` (checked in debug builds at each entry), which
/// is the `@unchecked Sendable` promise. Sockets are non-blocking and every Dispatch source (readiness, the
/// timer) targets the queue, so no lock is needed. The loop holds its own lobby, epoll set, read buffer and
/// timer: a server could run several, each with its own listener or dealt connections by one.
///
/// Client sockets and the listening socket sit in one epoll set watched by a single Dispatch read source
/// (`EventLoop`, shared with the load generator), as Redis's ae loop watches all its descriptors: one
/// Dispatch wakeup serves every socket that became ready meanwhile, where a source per socket would cost
/// Dispatch's manager thread two hand-offs per event (README.md, "Benchmarks").
final class ConnectionLoop: @unchecked Sendable {
    /// A connection on its way from another loop: the lobby's hand-off, and the socket with its queued
    /// output, its framing and its unread input (nil when it closed on the way, with why).
    struct Move: @unchecked Sendable {
        let handOff: HandOff
        let connection: Connection?
        let cause: DisconnectCause
    }

    /// Who asked for the counters gathered from every loop.
    enum StatisticsRecipient: Sendable {
        /// A `stats` request: the answer fills the place held in the connection's output.
        case message(ConnectionID)
        /// `GET /stats` or `/metrics`.
        case http(ConnectionID, WebRoute, includingBody: Bool)
    }

    /// One loop's counters, read on its queue.
    struct Snapshot: Sendable {
        let lobby: ServerStatistics
        let loop: LoopCounters
        let traffic: Traffic
        /// How long this loop's finished games waited for the store.
        let commits: AnswerLatency
    }

    /// Bytes read per readable event: one buffer, shared by the loop's connections since only it reads.
    static let readBufferBytes = 64 * 1024
    /// How long a shutdown waits for goodbyes to drain before closing anyway: the process must exit
    /// within two seconds of SIGTERM.
    static let shutdownDrainMilliseconds: Int64 = 1500
    /// How the readiness handler harvests: at most 4 batches per Dispatch wakeup, so the timer gets the
    /// queue between them however busy the clients are; then, once every socket is quiet, it waits briefly
    /// for the next request (`Linger.forQuickAnswers`: a bot answers a state within tens of microseconds).
    /// Newcomers are not held off by the wait: the listening socket is in the epoll set, so a connect ends
    /// the wait like a request does.
    static let harvestPolicy = EventLoop.Policy(maxBatchesPerWakeup: 4, linger: .forQuickAnswers)

    /// Where the loop is in its life.
    private enum State {
        /// Made, not started: nothing is served yet.
        case idle
        /// Serving, and accepting from the listener if this loop holds it (the listening socket closes when
        /// the loop leaves this).
        case running(Listener?)
        /// Goodbyes are going out; `completion` runs once every connection is closed.
        case draining(completion: @Sendable () -> Void)
        case stopped
    }

    let queue: DispatchQueue
    /// This loop's number, which is its lobby's shard.
    let index: Int
    /// The loops together; owns this one.
    unowned(unsafe) let group: LoopGroup
    let clock: any TransportClock
    let lobby: Lobby
    let log: ServerLog
    /// The epoll set and the connections; nil until `start`.
    private(set) var sockets: LoopSockets!
    private(set) var web: WebFront!
    /// Nil when the server keeps nothing.
    private(set) var gateway: StoreGateway?
    private var timer: LoopTimer
    private var state = State.idle

    init(index: Int, group: LoopGroup, queue: DispatchQueue, clock: any TransportClock, lobby: Lobby, log: ServerLog) {
        self.index = index
        self.group = group
        self.queue = queue
        self.clock = clock
        self.lobby = lobby
        self.log = log
        timer = LoopTimer()
    }

    /// Sets the parts up; before `start`, on any thread, since nothing runs on the queue yet.
    func configure(_ configuration: ServerConfiguration, storage: StoreGateway.Shared?) {
        web = WebFront(loop: self, configuration: configuration)
        gateway = storage.map { StoreGateway(loop: self, shared: $0) }
    }

    /// Starts serving `listener`'s newcomers and `events`' sockets. On the queue.
    func start(listener: Listener?, events: EventLoop, outputLimit: Int) throws(SocketError) {
        assertOnQueue()
        try listener?.watch(with: events.poller)
        state = .running(listener)
        sockets = LoopSockets(loop: self, lobby: lobby, events: events, outputLimit: outputLimit)
        events.start(policy: Self.harvestPolicy,
                     beforeEachBatch: { [self] in sockets.startBatch() },
                     afterEachBatch: { [self] in sockets.endBatch() },
                     handle: { [self] token, events in sockets.serviceReadySocket(token, events: events) },
                     wakeup: { [self] in handle(.socketsReady) })
        timer.start(clock.makeTimer(on: queue) { [self] in handle(.timerFired) })
    }

    /// Hands `input` to the loop from any thread.
    func enqueue(_ input: LoopInput) {
        queue.async { [self] in handle(input) }
    }

    // MARK: The entry point

    /// Handles one input, then settles what it left: the only place that does, so no input can leave the
    /// lobby's actions unsent, a failed connection unfinished or the timer pointed at a stale deadline.
    func handle(_ input: LoopInput) {
        assertOnQueue()
        if case .idle = state {
            // Never started: nothing to stop.
            if case .shutdown(_, let completion) = input { completion() }
            return
        }
        switch input {
        case .socketsReady:
            sockets.events.harvest()
        case .timerFired:
            // What arrived before the timer ran counts first: a late timer must not blame a client for the
            // server's own delay (a ping still in the socket, a flip sent before the turn clock ran out).
            sockets.events.handleReadySockets()
            let now = clock.now()
            while let due = timer.deadlines.popDue(at: now) { carryOut(due, at: now) }
            web.endWelcomeWaits(at: now)
            lobby.advance(to: now)
        case .stored(let answer):
            gateway?.receive(answer)
        case .shutdown(let tally, let completion):
            shutdown(tally: tally, then: completion)
        case .connectionArriving(let fd, let address, let id):
            admit(fd, address: address, id: id)
        case .connectionMovingIn(let move):
            let now = clock.now()
            sockets.moveIn(move, at: now)
            // It left a loop that was serving for one that stops: it gets the goodbye everyone here got.
            if case .draining = state, let connection = move.connection, connection.isOpen {
                sockets.goodbyes.sayGoodbye(to: connection, .shutdown, at: now)
                lobby.disconnect(connection.id, because: .shutdown, at: now)
            }
        case .statisticsGathered(let stats, let recipient):
            deliver(stats, to: recipient)
        case .deliver(let bytes, let messages, let id):
            guard let connection = sockets.open[id] else { return group.forward(input, to: id, from: index) }
            if connection.isOpen { sockets.deliver(bytes, messages: messages, to: connection) }
        }
        settle()
    }

    private func settle() {
        sockets.performLobbyActions()
        sockets.takeHandOffs()
        sockets.moveOut()
        sockets.finishFailures()
        // A failed connection's last words may have asked for a room elsewhere: its hand-off goes now too.
        sockets.takeHandOffs()
        sockets.moveOut()
        if case .draining = state { continueDrain() }
        armTimer()
    }

    /// Ends the welcome waits that are due, then points the timer at the next deadline of the lobby, of a
    /// welcome wait or of the transport. Runs after every input, so a wait ends within a batch of its
    /// deadline on a busy server, and by the timer on a quiet one.
    private func armTimer() {
        guard case .running = state else { return timer.arm(at: timer.deadlines.next) }
        if web.hasWelcomeWaits { web.endWelcomeWaits(at: clock.now()) }
        timer.arm(at: earliest(earliest(lobby.nextDeadline, web.nextWelcomeDeadline()), timer.deadlines.next))
    }

    private func earliest(_ a: Moment?, _ b: Moment?) -> Moment? {
        guard let a, let b else { return a ?? b }
        return min(a, b)
    }

    /// Sets a deadline of the transport's: the timer is pointed at it when the input settles.
    func add(_ deadline: LoopDeadline, at moment: Moment) {
        assertOnQueue()
        timer.deadlines.add(deadline, at: moment)
    }

    private func carryOut(_ due: LoopDeadline, at now: Moment) {
        switch due {
        // A connection that moved to another loop since is that loop's to touch (its id never changes).
        case .goodbye(let connection) where sockets.open[connection.id] === connection:
            sockets.goodbyes.closeIfOverdue(connection, at: now)
        case .requestHead(let connection) where sockets.open[connection.id] === connection:
            web.requestHeadOverdue(connection, at: now)
        case .goodbye, .requestHead: break
        case .store(let due): gateway?.due(due, at: now)
        case .drain: for connection in sockets.open.all { sockets.goodbyes.closeIfOverdue(connection, at: now) }
        }
    }

    // MARK: Accepting and stopping

    /// The listening socket is ready: its newcomers are taken in, their welcome waiting for their first bytes.
    func acceptConnections() {
        guard case .running(let listener?) = state else { return }
        let connections = group.connections
        let known = { [self] in group.count == 1 ? lobby.connectionCount : connections.count }
        listener.acceptConnections(open: { connections.count }, connectionsKnown: known()) { fd, address in
            let loop = group.dealNext()
            guard loop != index else { return admit(fd, address: address, id: nil) }
            // The socket is in no epoll set until its loop takes it in: nothing reads it before.
            group.dealtUnread.withLock { $0[address.host, default: 0] += 1 }
            group.loops[loop].enqueue(.connectionArriving(fd: fd, address: address, id: connections.issue(on: loop)))
        }
    }

    /// Takes a newcomer in, its welcome waiting for its first bytes.
    private func admit(_ fd: Int32, address: SocketAddress, id: ConnectionID?) {
        // Dealt from loop 0: once read (below), it no longer counts as unread.
        defer {
            if id != nil {
                group.dealtUnread.withLock { unread in
                    if let count = unread[address.host], count > 1 { unread[address.host] = count - 1 } else { unread[address.host] = nil }
                }
            }
        }
        if case .running = state {} else {
            // Dealt as the server began to stop: it gets the goodbye every connection gets.
            sockets.refuseLate(fd, id: id)
            return
        }
        guard let connection = sockets.admit(fd, address: address, id: id) else { return }
        web.admitted(connection, host: address.host, at: clock.now())
        // With several loops, what a newcomer sent is read at once, before another loop's welcome wait for a
        // socket of the same address can end (a browser's request and its spare socket may be dealt apart).
        if group.count > 1 { sockets.readRequests(from: connection) }
    }

    /// Stops accepting, says `bye {reason: "shutdown"}` to everyone, and lets the goodbyes drain for at most
    /// `shutdownDrainMilliseconds`.
    private func shutdown(tally: ShutdownTally?, then completion: @escaping @Sendable () -> Void) {
        guard case .running(let listener) = state else { return completion() }
        listener?.close(removingFrom: sockets.events.poller)
        let now = clock.now()
        let deadline = now.adding(milliseconds: Self.shutdownDrainMilliseconds)
        // Every goodbye starts before the lobby hears of any: the states its departures cause would
        // otherwise reach connections that are about to get `bye` anyway.
        let open = sockets.open.all.filter(\.isOpen)
        if let tally {
            tally.count(connections: open.count, games: lobby.gamesInProgress, log: log)
        } else {
            log.write(.info, .shuttingDown(connections: open.count, gamesInProgress: lobby.gamesInProgress))
        }
        for connection in open { sockets.goodbyes.sayGoodbye(to: connection, .shutdown, at: now) }
        for connection in open { lobby.disconnect(connection.id, because: .shutdown, at: now) }
        sockets.performLobbyActions()
        sockets.goodbyes.hurryGoodbyes(to: deadline)
        add(.drain, at: deadline)
        state = .draining(completion: completion)
    }

    /// Closes what has said everything, and, once every connection is closed, stops for good.
    private func continueDrain() {
        sockets.goodbyes.closeLingering()
        guard sockets.open.isEmpty, case .draining(let completion) = state else { return }
        state = .stopped
        timer.cancel()
        sockets.events.cancel()
        completion()
    }

    // MARK: Statistics

    func statistics(at now: Moment) -> ServerStatistics {
        assertOnQueue()
        return completed(lobby.statistics(at: now))
    }

    /// This loop's counters, for the sum over every loop.
    func snapshot(at now: Moment) -> Snapshot {
        assertOnQueue()
        return Snapshot(lobby: lobby.statistics(at: now), loop: lobby.loopStatistics, traffic: sockets?.traffic ?? Traffic(),
                        commits: gateway?.commits.histogram ?? AnswerLatency())
    }

    /// Counters gathered from every loop reach the connection that asked, wherever it is now.
    private func deliver(_ stats: ServerStatistics, to recipient: StatisticsRecipient) {
        switch recipient {
        case .message(let id):
            guard let connection = sockets.open[id] else {
                return group.forward(.statisticsGathered(stats, for: recipient), to: id, from: index)
            }
            sockets.fillStatistics(ServerMessageEncoder.encode(.stats(stats)), for: connection)
        case .http(let id, let route, let includingBody):
            guard let connection = sockets.open[id], connection.isOpen else { return }
            web.respond(with: stats, route: route, to: connection, includingBody: includingBody, at: clock.now())
        }
    }

    /// The lobby's counters with the transport's and the store's added.
    func completed(_ lobbyStatistics: ServerStatistics, traffic: Traffic? = nil, commits: AnswerLatency? = nil) -> ServerStatistics {
        var stats = lobbyStatistics
        let traffic = traffic ?? sockets?.traffic ?? Traffic()
        let store = gateway?.store
        stats.messagesOut = traffic.messagesOut
        stats.bytesIn = traffic.bytesIn
        stats.bytesOut = traffic.bytesOut
        stats.gamesStored = store?.gamesStored ?? 0
        stats.storageErrors = store?.storageErrors ?? 0
        stats.latency = traffic.latency
        stats.errors.merge(traffic.errors, uniquingKeysWith: +)
        stats.gamesPruned = store?.gamesPruned ?? 0
        stats.storage = store.map { $0.isHealthy ? .ok : .failing } ?? StorageHealth.none
        stats.storeLatency = commits ?? gateway?.commits.histogram ?? AnswerLatency()
        stats.storeQueue = store?.gamesWaiting ?? 0
        return stats
    }

    /// In debug builds, traps when called off the loop's queue, which owns everything here.
    @inline(__always)
    func assertOnQueue() {
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
    }
}

/// What a shutdown counts on every loop, for its one log line: the last loop to count writes it.
final class ShutdownTally: Sendable {
    private let state: PthreadLocked<(loops: Int, connections: Int, games: Int)>

    init(loops: Int) { state = PthreadLocked((loops, 0, 0)) }

    func count(connections: Int, games: Int, log: ServerLog) {
        let total = state.withLock { state -> (connections: Int, games: Int)? in
            state.loops -= 1
            state.connections += connections
            state.games += games
            return state.loops == 0 ? (state.connections, state.games) : nil
        }
        if let total { log.write(.info, .shuttingDown(connections: total.connections, gamesInProgress: total.games)) }
    }
}

/// The loop's one timer and the transport's deadlines it serves, with the lobby's and the welcome waits'.
struct LoopTimer {
    private var timer: (any TransportTimer)?
    var deadlines = LoopDeadlines()

    mutating func start(_ timer: any TransportTimer) { self.timer = timer }

    func arm(at deadline: Moment?) { timer?.arm(at: deadline) }

    mutating func cancel() {
        timer?.cancel()
        timer = nil
    }
}
