import PairsLobby
import PairsWire

/// Carries out one action of the lobby's at a time (`LobbyAction`): a send or a broadcast goes to the
/// sockets, a goodbye to `Goodbyes`, storage work to the store's gateway, a question to the cluster. Each
/// action names its connection by id; one that is gone or closing by then is skipped.
///
/// Confined to its loop's queue, as its sockets are.
final class ActionCarrier {
    unowned(unsafe) let sockets: LoopSockets
    /// The frames of the broadcast being carried out, once a WebSocket recipient needed them: a room's
    /// state is framed once however many of its members use WebSockets (`LobbyAction.broadcast`).
    private var broadcastFrames: [UInt8]?

    init(sockets: LoopSockets) {
        self.sockets = sockets
    }

    private var loop: ConnectionLoop { sockets.loop }

    func carryOut(_ action: LobbyAction) {
        switch action {
        case .send(let bytes, let messages, let id):
            guard let connection = sockets.open[id], connection.isOpen else { return }
            sockets.deliver(bytes, messages: messages, to: connection)
        case .broadcast(let bytes, let messages, let id, let first):
            if first { broadcastFrames = nil }
            guard let connection = sockets.open[id], connection.isOpen else { return }
            guard connection.dialect == .webSocket else { return sockets.send(bytes, messages: messages, to: connection) }
            let frames = broadcastFrames ?? connection.dialect.outgoing(bytes)
            broadcastFrames = frames
            sockets.send(frames, messages: messages, to: connection)
        case .close(let id, let reason):
            guard let connection = sockets.open[id], connection.isOpen else { return }
            sockets.goodbyes.sayGoodbye(to: connection, reason, at: loop.clock.now())
        case .sendStatistics(let stats, let id):
            guard let connection = sockets.open[id], connection.isOpen else { return }
            sendStatistics(stats, to: connection)
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
            guard let gateway = loop.gateway else { return sockets.lobby.ratingFound(lookup, nil, at: loop.clock.now()) }
            gateway.lookUpRating(lookup)
        case .askCluster(let inquiry):
            guard let cluster = sockets.lobby.sharedDirectory.cluster else { return }
            let loop = self.loop
            cluster.ask(inquiry.question) { answer in loop.enqueue(.clusterAnswered(inquiry, answer)) }
        }
    }

    /// Answers `stats`: at once with one loop, or once every loop's counters are gathered off the loops,
    /// the answer keeping its place in the connection's output meanwhile.
    private func sendStatistics(_ stats: ServerStatistics, to connection: Connection) {
        let group = loop.group
        guard group.count > 1 else {
            let answer = ServerMessageEncoder.encode(.stats(loop.statistics(at: loop.clock.now(), lobbyStatistics: stats)))
            return sockets.deliver(answer, messages: 1, to: connection)
        }
        connection.outbox.held.awaitStatistics()
        let id = connection.id
        group.gatherStatistics { total in
            var total = total
            total.id = stats.id
            group.forward(.statisticsGathered(total, for: .message(id)), to: id, from: -1)
        }
    }
}
