#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
import PairsRules

/// Moving connections between loops: what the lobby hands to another loop's lobby leaves this loop's epoll
/// set with its queued output and unread input, and arrives at the other loop's, in order.
extension LoopSockets {
    /// Notes the connections the lobby just handed to other loops: their later input waits for the lobby
    /// there. Checked after every input the lobby is given, so no line of a mover is handled here after its
    /// hand-off.
    func takeHandOffs() {
        guard lobby.hasHandOffs else { return }
        for handOff in lobby.takeHandOffs() {
            open[handOff.connection]?.isMoving = true
            moving.append(handOff)
        }
    }

    /// Sends every connection handed over to its loop, with its queued output and unread input (the
    /// lobby's actions are carried out first, so whatever this loop's lobby sent it is queued). One that
    /// closed on the way, or is saying goodbye here, stays to finish here, and its hand-off still goes, so
    /// the lobby there balances its books (`disconnect` follows it).
    func moveOut() {
        guard !moving.isEmpty else { return }
        let handOffs = moving
        moving = []
        for handOff in handOffs {
            let destination = loop.group.loops[handOff.shard]
            guard let connection = open[handOff.connection], connection.isOpen else {
                open[handOff.connection]?.isMoving = false
                destination.enqueue(.connectionMovingIn(.init(handOff: handOff, connection: nil, cause: .closedByPeer)))
                continue
            }
            if connection.heldUntil != nil {
                // A game's end is held until the store keeps it: rare for a mover, so kept simple, by waiting.
                loop.gateway?.flushStore()
                loop.gateway?.forget(connection)
                releaseHeld(connection)
            }
            loop.web.forget(connection)
            open.moveOut(connection, to: handOff.shard)
            destination.enqueue(.connectionMovingIn(.init(handOff: handOff, connection: connection, cause: .closedByPeer)))
        }
    }

    /// A connection arrives from another loop: its socket joins this loop's epoll set, the lobby here takes
    /// the hand-off, and the input it sent meanwhile is handled, in order.
    func moveIn(_ move: ConnectionLoop.Move, at now: Moment) {
        guard let connection = move.connection else {
            lobby.receive(move.handOff, at: now)
            performLobbyActions()
            lobby.disconnect(move.handOff.connection, because: move.cause, at: now)
            return performLobbyActions()
        }
        connection.isMoving = false
        open.add(connection)
        guard connection.move(to: events.poller) else {
            lobby.receive(move.handOff, at: now)
            return drop(connection, because: .socketError(errno, whileWriting: false))
        }
        lobby.receive(move.handOff, at: now)
        performLobbyActions()
        takeHandOffs()
        while !connection.isMoving, connection.isOpen, !connection.unread.isEmpty {
            handle(unread: connection.unread.removeFirst(), from: connection, at: now)
        }
    }

    /// One input of a line connection or a WebSocket, carried out with everything the lobby says to it.
    /// One input of a line connection or a WebSocket, carried out with everything the lobby says to it.
    /// Input a connection sent while it was moving, handled as it would have been when it came.
    func handle(unread input: Connection.UnreadInput, from connection: Connection, at now: Moment) {
        switch input {
        case .message(let bytes): bytes.withUnsafeBytes { handle(.message($0), from: connection, at: now) }
        case .ping(let bytes): bytes.withUnsafeBytes { handle(.ping($0), from: connection, at: now) }
        case .tooLong: handle(.tooLong, from: connection, at: now)
        case .frame: handle(.frame, from: connection, at: now)
        case .close(let code): handle(.close(code), from: connection, at: now)
        case .failure(let error): handle(.failure(error), from: connection, at: now)
        }
    }
}
