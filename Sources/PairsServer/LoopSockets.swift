#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
import PairsPolling
import PairsRules
import PairsWeb
import PairsWire

/// A loop's sockets: its epoll set, its connections and its read buffer. Every byte a client sends is
/// read here (`readRequests`) and every byte it is sent is written here (`send`), goodbyes included
/// (`Goodbyes`); whole messages go to the lobby, and what the lobby decides comes back
/// through `performLobbyActions`.
///
/// Confined to its loop's queue, as the loop is.
final class LoopSockets {
    /// The loop these sockets are part of, which owns them: for the parts they hand work to (the web front,
    /// the store's gateway, the deadlines). Unowned and unchecked: the loop outlives its parts, and a
    /// reference count on every message would be paid for nothing.
    unowned(unsafe) let loop: ConnectionLoop
    /// Every client socket and the listening one, in one epoll set served on the loop's queue.
    let events: EventLoop
    var open: OpenConnections
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ConnectionLoop.readBufferBytes, alignment: 1)
    var traffic = Traffic()
    /// How connections end: goodbyes, lingering, the drain.
    private(set) lazy var goodbyes = Goodbyes(sockets: self)
    /// The frames of the broadcast being carried out, once a WebSocket recipient needed them: a room's
    /// state is framed once however many of its members use WebSockets (`LobbyAction.broadcast`).
    private var broadcastFrames: [UInt8]?
    /// Bytes queued for a connection at most: a connection that does not read is said goodbye to as too slow.
    let outputLimit: Int
    /// Connections moving to other loops.
    private(set) lazy var moves = LoopMoves(sockets: self)

    init(loop: ConnectionLoop, events: EventLoop, outputLimit: Int) {
        self.loop = loop
        self.events = events
        self.outputLimit = outputLimit
        open = OpenConnections(shared: loop.group.connections, loop: loop.index)
    }

    deinit {
        readBuffer.deallocate()
    }

    var lobby: Lobby { loop.lobby }

    // MARK: Connections

    /// Takes a connection in, in its first state: its first bytes awaited. Nil if the epoll set would not
    /// take the socket, which is then closed.
    func admit(_ fd: Int32, address: SocketAddress, id: ConnectionID? = nil) -> Connection? {
        let id = id ?? open.issue()
        let peer = SocketAddress.describe(host: address.host, port: address.port)
        let connection = Connection(id: id, fd: fd, framing: .sniffing(Framing.FirstBytes(peer: peer)))
        guard connection.watch(with: events.poller) else {
            loop.log.write(.warning, .unwatchable(id, peer: peer, error: String(cString: strerror(errno))))
            Glibc.close(fd)
            open.remove(id)
            return nil
        }
        open.add(connection)
        return connection
    }

    /// A connection dealt to this loop after it stopped serving: told `bye {reason: "shutdown"}`, closed.
    func refuseLate(_ fd: Int32, id: ConnectionID?) {
        let bye = ServerMessageEncoder.encode(.bye(.shutdown))
        _ = bye.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        Glibc.close(fd)
        if let id { open.shared.retire(id) }
    }

    /// Closes the socket for good and forgets it; its id's slot may go to the next newcomer. The lobby has
    /// forgotten the connection by then (it closed it, or heard of its end), so no table holds the slot.
    func release(_ connection: Connection) {
        if case .closed = connection.lifecycle { return }
        if let host = connection.webSocketHost { loop.web.webSocketClosed(host) }
        open.remove(connection.id)
        connection.closeSocket()
    }

    // MARK: Reading

    /// One ready socket, as the epoll set reports it: the listening one accepts, a client's is read and
    /// written. Each is handled as its own event: connections whose write failed meanwhile are finished
    /// before the next.
    func serviceReadySocket(_ token: UInt64, events: UInt32) {
        loop.assertOnQueue()
        if token == Listener.token { return loop.acceptConnections() }
        // A socket closed earlier in this batch is no longer in the table. If a newcomer accepted in the
        // same batch already has its slot, the stale report reaches the newcomer instead: harmless, since
        // a read then finds nothing (`wouldBlock`) and a flush sends only what is queued.
        guard let connection = open.reported(by: token) else { return }
        if events & EventPoller.writable != 0 { writable(connection) }
        if events & (EventPoller.readable | EventPoller.failed) != 0 { readable(connection) }
        finishFailures()
    }

    private func readable(_ connection: Connection) {
        switch connection.lifecycle {
        case .open: readRequests(from: connection)
        case .flushing, .lingering: goodbyes.discardInput(of: connection)
        case .failing, .closed: break
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
            let nanoseconds = loop.clock.nanoseconds()
            traffic.read(at: nanoseconds)
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

    /// Hands bytes a connection sent to what reads them now: its message framing (lines or WebSocket
    /// frames), or the web front while its first bytes are awaited or it speaks HTTP.
    func receive(_ bytes: UnsafeRawBufferPointer, from connection: Connection, at now: Moment) {
        // The dialect says which, without copying the framing (and retaining what it holds) to look.
        guard connection.dialect.carriesMessages else { return loop.web.receive(bytes, from: connection, at: now) }
        connection.framing.append(bytes) { input in
            if connection.transit.isMoving { return connection.transit.unread.append(Connection.UnreadInput(input)) }
            switch connection.lifecycle {
            case .open:
                handle(input, from: connection, at: now)
            case .failing:
                // A write to the peer failed while this read's messages were handled (it closed right
                // after sending them): the rest are its last words, as `finishFailures` reads them, so
                // that a `leave` sent just before closing still counts.
                guard case .message(let message) = input else { return }
                lobby.receive(message, from: connection.id, at: now)
                performLobbyActions()
                moves.takeHandOffs()
            case .flushing, .lingering, .closed:
                // Once the connection is closing (quit, flooding, a close frame), the rest of its input is moot.
                return
            }
        }
    }

    /// One input of a line connection or a WebSocket, carried out with everything the lobby says to it.
    func handle(_ input: Framing.Input, from connection: Connection, at now: Moment) {
        switch input {
        case .message(let message):
            // Text commands are lower case: a line starting with a capital is looked at more closely.
            if let first = message.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") {
                loop.web.noteRequestLine(message, from: connection, at: now)
            }
            traffic.timing.pending += 1
            lobby.receive(message, from: connection.id, at: now)
        case .tooLong:
            lobby.receiveTooLong(from: connection.id, at: now)
        case .ping(let payload):
            // Counted as a message: pings answered without limit once let one client keep a core busy.
            if lobby.receiveFrame(from: connection.id, at: now) {
                send(WebSocketFrameEncoder.pong(payload), messages: 0, to: connection)
            }
        case .frame:
            _ = lobby.receiveFrame(from: connection.id, at: now)
        case .close(let code):
            // The client leaves, as if it had closed its socket: a player keeps the seat for the grace
            // period, so a page being reloaded resumes it. The close is answered with its own code (RFC 6455
            // §5.5.1), and nothing queued goes out before it.
            goodbyes.finish(connection, saying: WebSocketFrameEncoder.close(code: code ?? .normalClosure), discardingQueued: true, at: now)
            lobby.disconnect(connection.id, because: .closedByPeer, at: now)
        case .failure(let error):
            goodbyes.finish(connection, saying: WebSocketFrameEncoder.close(code: error.closeCode, reason: error.description),
                   discardingQueued: true, at: now)
            lobby.disconnect(connection.id, because: .brokeFraming(error.description), at: now)
        }
        performLobbyActions()
        moves.takeHandOffs()
    }

    // MARK: Answer timing

    /// A batch of sockets was collected: its arrival is its first read's moment.
    func startBatch() { traffic.startBatch() }

    /// A batch was handled: its last read's messages are answered now.
    func endBatch() {
        if traffic.timing.pending > 0 { traffic.recordAnswers(at: loop.clock.nanoseconds()) }
    }

    // MARK: Writing

    /// Carries out what the lobby decided, in order, until it has nothing more to say. Carrying out an
    /// action can give the lobby more to decide (a send that finds its client too slow), which this loop
    /// then carries out too.
    func performLobbyActions() {
        lobby.performActions { action in
            switch action {
            case .send(let bytes, let messages, let id):
                guard let connection = open[id], connection.isOpen else { return }
                send(connection.dialect == .webSocket ? connection.dialect.outgoing(bytes) : bytes, messages: messages, to: connection)
            case .broadcast(let bytes, let messages, let id, let first):
                if first { broadcastFrames = nil }
                guard let connection = open[id], connection.isOpen else { return }
                guard connection.dialect == .webSocket else { return send(bytes, messages: messages, to: connection) }
                let frames = broadcastFrames ?? connection.dialect.outgoing(bytes)
                broadcastFrames = frames
                send(frames, messages: messages, to: connection)
            case .close(let id, let reason):
                guard let connection = open[id], connection.isOpen else { return }
                goodbyes.sayGoodbye(to: connection, reason, at: loop.clock.now())
            case .sendStatistics(let stats, let id):
                guard let connection = open[id], connection.isOpen else { return }
                guard loop.group.count > 1 else {
                    return deliver(ServerMessageEncoder.encode(.stats(loop.statistics(at: loop.clock.now(), lobbyStatistics: stats))), messages: 1, to: connection)
                }
                // Every loop's counters are gathered off the loops; the answer keeps its place meanwhile.
                connection.holding.statisticsAwaited += 1
                connection.holding.lines.append((bytes: [], messages: -1))
                let group = loop.group
                group.gatherStatistics { total in
                    var total = total
                    total.id = stats.id
                    group.forward(.statisticsGathered(total, for: .message(id)), to: id, from: -1)
                }
            case .log(let entry):
                loop.log.write(entry)
            case .record(let game, let recipients):
                loop.gateway?.keep(game, holding: recipients)
            case .recordTournament(let tournament):
                loop.gateway?.keep(tournament)
            case .query(let query, let request, let id):
                loop.gateway?.answer(query, request: request, to: id)
            case .checkName(let lookup):
                loop.gateway?.check(lookup)
            case .lookUpRating(let lookup):
                // The lobby asks only when it keeps games; without a store every entrant is at the default.
                guard let gateway = loop.gateway else { return lobby.ratingFound(lookup, nil, at: loop.clock.now()) }
                gateway.lookUpRating(lookup)
            case .askCluster(let inquiry):
                guard let cluster = lobby.sharedDirectory.cluster else { return }
                let loop = self.loop
                cluster.ask(inquiry.question) { answer in loop.enqueue(.clusterAnswered(inquiry, answer)) }
            }
        }
    }

    /// Queues lines for a connection, framed as its framing frames them.
    func deliver(_ lines: [UInt8], messages: Int, to connection: Connection) {
        send(connection.dialect == .webSocket ? connection.dialect.outgoing(lines) : lines, messages: messages, to: connection)
    }

    /// Queues bytes ready for the socket (lines, frames), within the output buffer's limit: a connection
    /// that does not read what it is sent is said goodbye to as too slow.
    func send(_ bytes: [UInt8], messages: Int, to connection: Connection) {
        if connection.holding.untilTicket != nil || connection.holding.statisticsAwaited > 0 { return connection.holding.lines.append((bytes, messages)) }
        switch connection.write(bytes, limit: outputLimit) {
        case .accepted:
            traffic.messagesOut += messages
            traffic.bytesOut += bytes.count
        case .overflow:
            let now = loop.clock.now()
            goodbyes.sayGoodbye(to: connection, .tooSlow, at: now)
            lobby.disconnect(connection.id, because: .tooSlow, at: now)
        case .failed:
            // errno is still the failed send's: nothing has run since.
            fail(connection, because: .socketError(errno, whileWriting: true))
        }
    }

    /// Sends what a connection has held, in order, and holds no more.
    func releaseHeld(_ connection: Connection) {
        connection.holding.untilTicket = nil
        guard connection.holding.statisticsAwaited == 0 else { return }
        let held = connection.holding.lines
        connection.holding.lines = []
        guard connection.isOpen else { return }
        for chunk in held { send(chunk.bytes, messages: chunk.messages, to: connection) }
    }

    /// Gathered counters answer the oldest `stats` a connection awaits, in the place its answer was held.
    func fillStatistics(_ lines: [UInt8], for connection: Connection) {
        guard connection.holding.statisticsAwaited > 0, let place = connection.holding.lines.firstIndex(where: { $0.messages < 0 }) else { return }
        connection.holding.lines[place] = (connection.dialect == .webSocket ? connection.dialect.outgoing(lines) : lines, 1)
        connection.holding.statisticsAwaited -= 1
        if connection.holding.statisticsAwaited == 0, connection.holding.untilTicket == nil { releaseHeld(connection) }
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
            goodbyes.startLingering(connection)
        }
    }

    // MARK: Failures

    /// The peer is gone: its seat (if any) is kept for the grace period, and the socket closes at once.
    func drop(_ connection: Connection, because cause: DisconnectCause) {
        // The lobby forgets the connection before its slot is given back (`release`).
        lobby.disconnect(connection.id, because: cause, at: loop.clock.now())
        release(connection)
        performLobbyActions()
    }

    /// A write found the peer gone. Before the connection counts as dropped, what the peer sent before going
    /// is read and handled (once the current event is over): a client that sends `leave` and closes with
    /// unread input makes the kernel answer with a reset, and the `leave` must still count.
    func fail(_ connection: Connection, because cause: DisconnectCause) {
        guard connection.isOpen else { return }
        connection.lifecycle = .failing
        open.failures.append((connection, cause))
    }

    /// Reads the last input of every connection that failed during the event, then drops it.
    func finishFailures() {
        while !open.failures.isEmpty {
            let (connection, cause) = open.failures.removeFirst()
            // Only a connection the lobby knows has last words for it.
            var lastWords = connection.dialect.carriesMessages
            while lastWords {
                switch connection.read(into: readBuffer) {
                case .bytes(let count):
                    traffic.bytesIn += count
                    let now = loop.clock.now()
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
}
