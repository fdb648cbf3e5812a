import PairsLobby
import PairsRules
import PairsWeb
import PairsWire

/// How a connection ends: a goodbye said and lingered over, a peer gone, a write that failed.
extension LoopSockets {
    /// How long a goodbye may take: to write what is queued (`bye` last), then to wait for the peer to close
    /// after the write side is shut. A client reading normally takes microseconds; one that does not read
    /// or never closes holds a descriptor no longer than this.
    static let goodbyeMilliseconds: Int64 = 2000

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
                loop.gateway?.flushStore()
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
        loop.add(.goodbye(connection), at: deadline)
    }

    /// Sends what a connection has held, in order, and holds no more.
    func releaseHeld(_ connection: Connection) {
        connection.heldUntil = nil
        let held = connection.held
        connection.held = []
        guard connection.isOpen else { return }
        for chunk in held { send(chunk.bytes, messages: chunk.messages, to: connection) }
    }

    /// Everything is said: the write side is shut and the peer's last input drained until it closes.
    func startLingering(_ connection: Connection) {
        guard case .flushing(let deadline) = connection.lifecycle else { return }
        connection.shutdownWriting()
        // The peer closed its side already: there is nothing left to wait for.
        guard connection.isReading else { return release(connection) }
        connection.lifecycle = .lingering(deadline: deadline)
    }

    /// Closes a connection whose goodbye is past its deadline.
    func closeIfOverdue(_ connection: Connection, at now: Moment) {
        switch connection.lifecycle {
        case .flushing(let deadline), .lingering(let deadline):
            if deadline <= now { release(connection) }
        case .open, .failing, .closed:
            break
        }
    }

    /// Brings every goodbye's deadline forward to `deadline` at the latest (a shutdown's drain).
    func hurryGoodbyes(to deadline: Moment) {
        for connection in open.all {
            switch connection.lifecycle {
            case .flushing(let due): connection.lifecycle = .flushing(deadline: min(due, deadline))
            case .lingering(let due): connection.lifecycle = .lingering(deadline: min(due, deadline))
            case .open, .failing, .closed: break
            }
        }
    }

    /// The process is about to exit: a goodbye that is out closes once the input that came is drained
    /// (closing without unread input sends no reset) rather than wait for the peer to close.
    func closeLingering() {
        for connection in open.all {
            guard case .lingering = connection.lifecycle else { continue }
            var draining = true
            while draining {
                if case .bytes(let count) = connection.read(into: readBuffer) { traffic.bytesIn += count } else { draining = false }
            }
            release(connection)
        }
    }

    /// Reads and throws away what a connection saying goodbye still sends; closes it once the peer has
    /// closed, or stops reading while the rest of the goodbye still has to go out.
    func discardInput(of connection: Connection) {
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
