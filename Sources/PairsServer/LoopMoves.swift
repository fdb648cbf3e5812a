#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
import PairsRules

/// Moving connections between loops: what the lobby hands to another loop's lobby leaves this loop's epoll
/// set with its queued output and unread input, and arrives at the other loop's, in order.
///
/// Part of its loop's sockets, confined to the loop's queue as they are.
final class LoopMoves {
    /// The sockets these moves are part of, which own them (unowned for the reason `LoopSockets.loop` is).
    unowned(unsafe) let sockets: LoopSockets
    /// Connections the lobby handed to other loops' lobbies, to be moved once the input is settled.
    private var moving: [HandOff] = []

    init(sockets: LoopSockets) {
        self.sockets = sockets
    }

    private var lobby: Lobby { sockets.loop.lobby }
    private var loop: ConnectionLoop { sockets.loop }

    /// Notes the connections the lobby just handed to other loops: their later input waits for the lobby
    /// there. Checked after every input the lobby is given, so no line of a mover is handled here after its
    /// hand-off.
    func takeHandOffs() {
        guard lobby.hasHandOffs else { return }
        for handOff in lobby.takeHandOffs() {
            sockets.open[handOff.connection]?.transit.isMoving = true
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
            guard let connection = sockets.open[handOff.connection], connection.isOpen else {
                sockets.open[handOff.connection]?.transit.isMoving = false
                destination.enqueue(.connectionMovingIn(.init(handOff: handOff, connection: nil, cause: .closedByPeer)))
                continue
            }
            if connection.outbox.held.untilTicket != nil {
                // A game's end is held until the store keeps it: rare for a mover, so kept simple, by waiting.
                loop.gateway?.flushStore()
                loop.gateway?.forget(connection)
                sockets.releaseHeld(connection)
            }
            loop.web.forget(connection)
            sockets.open.moveOut(connection, to: handOff.shard)
            destination.enqueue(.connectionMovingIn(.init(handOff: handOff, connection: connection, cause: .closedByPeer)))
        }
    }

    /// A connection arrives from another loop: its socket joins this loop's epoll set, the lobby here takes
    /// the hand-off, and the input it sent meanwhile is handled, in order.
    func moveIn(_ move: ConnectionLoop.Move, at now: Moment) {
        guard let connection = move.connection else {
            lobby.receive(move.handOff, at: now)
            sockets.performLobbyActions()
            lobby.disconnect(move.handOff.connection, because: move.cause, at: now)
            return sockets.performLobbyActions()
        }
        connection.transit.isMoving = false
        sockets.open.add(connection)
        guard connection.move(to: sockets.events.poller) else {
            lobby.receive(move.handOff, at: now)
            return sockets.drop(connection, because: .socketError(errno, whileWriting: false))
        }
        lobby.receive(move.handOff, at: now)
        sockets.performLobbyActions()
        takeHandOffs()
        while !connection.transit.isMoving, connection.isOpen, !connection.transit.unread.isEmpty {
            handle(unread: connection.transit.unread.removeFirst(), from: connection, at: now)
        }
    }

    /// One input of a line connection or a WebSocket, carried out with everything the lobby says to it.
    /// Input a connection sent while it was moving, handled as it would have been when it came.
    func handle(unread input: Connection.UnreadInput, from connection: Connection, at now: Moment) {
        switch input {
        case .message(let bytes): bytes.withUnsafeBytes { sockets.handle(.message($0), from: connection, at: now) }
        case .ping(let bytes): bytes.withUnsafeBytes { sockets.handle(.ping($0), from: connection, at: now) }
        case .tooLong: sockets.handle(.tooLong, from: connection, at: now)
        case .frame: sockets.handle(.frame, from: connection, at: now)
        case .close(let code): sockets.handle(.close(code), from: connection, at: now)
        case .failure(let error): sockets.handle(.failure(error), from: connection, at: now)
        }
    }
}
