import Dispatch
import PairsLobby
import PairsPolling
import PairsRules
import PairsStorage
import PairsWire

/// One event loop of the transport: one serial queue, one epoll set with its connections (`LoopSockets`),
/// the web front, the store's gateway, the lobby, and one timer for all their deadlines.
///
/// Every input enters through `handle` on `queue`, the only place that settles what an input left to do.
/// Everything here and in the parts is used only on `queue` (checked in debug builds at each entry), which
/// is the `@unchecked Sendable` promise. Sockets are non-blocking, and the readiness
/// thread (`EventLoop`) and the timer run their work on the queue, so no lock is needed. The loop holds its own lobby, epoll set, read buffer and
/// timer: a server could run several, each with its own listener or dealt connections by one.
///
/// Client sockets and the listening socket sit in one epoll set watched by a single Dispatch read source
/// (`EventLoop`, shared with the load generator), as Redis's ae loop watches all its descriptors: one
/// Dispatch wakeup serves every socket that became ready meanwhile, where a source per socket would cost
/// Dispatch's manager thread two hand-offs per event (README.md, "Benchmarks").
final class ConnectionLoop: @unchecked Sendable {
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
    let lobby: Lobby
    /// The epoll set and the connections; nil until `start`.
    private(set) var sockets: LoopSockets!
    private(set) var web: WebFront!
    /// Nil when the server keeps nothing.
    private(set) var gateway: StoreGateway?
    private var timer: LoopTimer
    private var state = State.idle

    init(index: Int, group: LoopGroup, queue: DispatchQueue, lobby: Lobby) {
        self.index = index
        self.group = group
        self.queue = queue
        self.lobby = lobby
        timer = LoopTimer()
    }

    /// The group's clock, as every loop's.
    var clock: any TransportClock { group.clock }
    var log: ServerLog { group.log }

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
        sockets = LoopSockets(loop: self, events: events, outputLimit: outputLimit)
        do throws(SystemCallError) {
            try events.start(policy: Self.harvestPolicy,
                             beforeEachBatch: { [self] in sockets.startBatch() },
                             afterEachBatch: { [self] in sockets.endBatch() },
                             handle: { [self] token, events in sockets.serviceReadySocket(token, events: events) },
                             wakeup: { [self] in handle(.socketsReady) })
        } catch {
            throw .system(call: error.call, errno: error.errno)
        }
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
            sockets.moves.moveIn(move, at: now)
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
        case .clusterAnswered(let inquiry, let answer):
            // A connection waiting for the cluster never moves to another loop: it is still here, or gone.
            lobby.clusterAnswered(inquiry, answer, at: clock.now())
        case .clusterWaitersTaken(let rooms):
            lobby.waitersTakenElsewhere(rooms, at: clock.now())
        }
        settle()
    }

    private func settle() {
        sockets.performLobbyActions()
        sockets.moves.takeHandOffs()
        sockets.moves.moveOut()
        sockets.finishFailures()
        // A failed connection's last words may have asked for a room elsewhere: its hand-off goes now too.
        sockets.moves.takeHandOffs()
        sockets.moves.moveOut()
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
            group.deal(fd, address: address, to: loop, id: connections.issue(on: loop))
        }
    }

    /// Takes a newcomer in, its welcome waiting for its first bytes.
    private func admit(_ fd: Int32, address: SocketAddress, id: ConnectionID?) {
        // Dealt from loop 0: once read (below), it no longer counts as unread.
        defer { if id != nil { group.dealtConnectionRead(from: address.host) } }
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

    /// This loop's counters, with `lobbyStatistics` for its lobby shard's if the lobby has just counted them.
    func snapshot(at now: Moment, lobbyStatistics: ServerStatistics? = nil) -> LoopSnapshot {
        assertOnQueue()
        return LoopSnapshot(lobby: lobbyStatistics ?? lobby.statistics(at: now), loop: lobby.loopStatistics,
                            traffic: sockets?.traffic ?? Traffic(), commits: gateway?.commits.histogram ?? AnswerLatency())
    }

    /// The server's counters, from this loop alone: a server with one loop.
    func statistics(at now: Moment, lobbyStatistics: ServerStatistics? = nil) -> ServerStatistics {
        LoopSnapshot.combined([snapshot(at: now, lobbyStatistics: lobbyStatistics)], store: gateway?.store)
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

    /// In debug builds, traps when called off the loop's queue, which owns everything here.
    @inline(__always)
    func assertOnQueue() {
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
    }
}
