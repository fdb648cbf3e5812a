import PairsLobby
import PairsRules
import PairsWeb
import PairsWire

/// How a connection says goodbye: its last words queued (`bye`, a close frame, an HTTP response), the
/// write side shut once they are out, the peer's input drained until it closes, all within
/// `goodbyeMilliseconds`; and, at a shutdown, every goodbye hurried.
///
/// Confined to its loop's queue, as the loop is.
final class Goodbyes {
    /// How long a goodbye may take: to write what is queued (`bye` last), then to wait for the peer to close
    /// after the write side is shut. A client reading normally takes microseconds; one that does not read
    /// or never closes holds a descriptor no longer than this.
    static let goodbyeMilliseconds: Int64 = 2000

    /// The sockets these goodbyes are said on, which own them.
    unowned(unsafe) let sockets: LoopSockets

    init(sockets: LoopSockets) {
        self.sockets = sockets
    }

    private var loop: ConnectionLoop { sockets.loop }

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
        loop.assertOnQueue()
        guard connection.isOpen else { return }
        if connection.outbox.held.untilTicket != nil {
            if discardingQueued {
                connection.outbox.held.discard()
            } else {
                // What was held goes before the last words, and only once its game is kept: a goodbye is
                // rare enough (a `quit`, a shutdown) to wait here for the writer's batch.
                loop.gateway?.flushStore()
                sockets.releaseHeld(connection)
                // Too much to queue: the release said goodbye to it already, as too slow.
                guard connection.isOpen else { return }
            }
        }
        if discardingQueued { connection.outbox.queued.discardUnsent() }
        let deadline = now.adding(milliseconds: Self.goodbyeMilliseconds)
        connection.lifecycle = .flushing(deadline: deadline)
        guard connection.write(lastWords, limit: .max) != .failed, connection.flush() else {
            return sockets.release(connection)
        }
        if connection.outbox.queued.isEmpty { startLingering(connection) }
        loop.add(.goodbye(connection), at: deadline)
    }

    /// Everything is said: the write side is shut and the peer's last input drained until it closes.
    func startLingering(_ connection: Connection) {
        guard case .flushing(let deadline) = connection.lifecycle else { return }
        connection.shutdownWriting()
        // The peer closed its side already: there is nothing left to wait for.
        guard connection.isReading else { return sockets.release(connection) }
        connection.lifecycle = .lingering(deadline: deadline)
    }

    /// Closes a connection whose goodbye is past its deadline.
    func closeIfOverdue(_ connection: Connection, at now: Moment) {
        switch connection.lifecycle {
        case .flushing(let deadline), .lingering(let deadline):
            if deadline <= now { sockets.release(connection) }
        case .open, .failing, .closed:
            break
        }
    }

    /// Brings every goodbye's deadline forward to `deadline` at the latest (a shutdown's drain).
    func hurryGoodbyes(to deadline: Moment) {
        for connection in sockets.open.all {
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
        for connection in sockets.open.all {
            guard case .lingering = connection.lifecycle else { continue }
            var draining = true
            while draining {
                if case .bytes(let count) = connection.read(into: sockets.readBuffer) { sockets.traffic.bytesIn += count } else { draining = false }
            }
            sockets.release(connection)
        }
    }

    /// Reads and throws away what a connection saying goodbye still sends; closes it once the peer has
    /// closed, or stops reading while the rest of the goodbye still has to go out.
    func discardInput(of connection: Connection) {
        switch connection.read(into: sockets.readBuffer) {
        case .bytes(let count):
            sockets.traffic.bytesIn += count
        case .wouldBlock:
            break
        case .endOfStream, .failed:
            if case .flushing = connection.lifecycle {
                connection.stopReading()
            } else {
                sockets.release(connection)
            }
        }
    }
}
