import PairsLobby

/// What the loops share about connections: one issuer of ids, so a connection keeps its id and its slot
/// (its epoll token) when it moves to another loop, and which loop holds each connection, for an answer
/// addressed to one that moved (a history answer, `stats`). Touched on accept, on a move and on close,
/// never per message, under one lock.
final class SharedConnections: Sendable {
    private struct Table {
        var ids = ConnectionIDIssuer()
        /// Sockets open on every loop, saying goodbye or not: what `--max-connections` bounds.
        var count = 0
        /// By slot: the number of the connection holding it, and its loop.
        var holders: [(number: Int, loop: Int)] = []
    }

    private let table = PthreadLocked(Table())

    /// An id for a newcomer that `loop` takes in.
    func issue(on loop: Int) -> ConnectionID {
        table.withLock { table in
            let id = table.ids.issue()
            table.count += 1
            if id.slot == table.holders.count { table.holders.append((id.value, loop)) } else { table.holders[id.slot] = (id.value, loop) }
            return id
        }
    }

    /// The connection's socket is closed for good: its slot may go to a newcomer on any loop.
    func retire(_ id: ConnectionID) {
        table.withLock { table in
            table.ids.retire(id)
            table.count -= 1
            table.holders[id.slot] = (0, -1)
        }
    }

    /// The connection is on its way to `loop`: answers for it go there from now on (in order behind it).
    func moved(_ id: ConnectionID, to loop: Int) {
        table.withLock { table in
            guard table.holders[id.slot].number == id.value else { return }
            table.holders[id.slot].loop = loop
        }
    }

    /// The loop holding connection `id`; nil once it is closed.
    func loop(holding id: ConnectionID) -> Int? {
        table.withLock { table in
            guard id.slot < table.holders.count, table.holders[id.slot].number == id.value else { return nil }
            return table.holders[id.slot].loop
        }
    }

    /// Sockets open on every loop.
    var count: Int { table.withLock { $0.count } }
}
