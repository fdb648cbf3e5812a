import PairsLobby
import PairsStorage
import PairsWire

/// One loop's counters, read on its queue: its lobby shard's, its transport's, its store gateway's. The
/// counters `stats`, `/stats`, `/metrics` and the log report are always `combined` from these, one per loop,
/// so one loop and many are counted the same way.
struct LoopSnapshot: Sendable {
    let lobby: ServerStatistics
    let loop: LoopCounters
    let traffic: Traffic
    /// How long this loop's finished games waited for the store.
    let commits: AnswerLatency

    /// The counters of `parts`, every loop's in order, as one: the lobby shards' summed, the transports'
    /// and the gateways' added, the shared store's as it says; `loops` from a server with more than one.
    static func combined(_ parts: [LoopSnapshot], store: (any PairsStore)?) -> ServerStatistics {
        var stats = ServerStatistics.summing(parts.map(\.lobby))
        // The lobby counts no traffic (it sees messages, not bytes): those counters are the transports'.
        var commits = AnswerLatency()
        for part in parts {
            commits.add(part.commits)
            stats.messagesOut += part.traffic.messagesOut
            stats.bytesIn += part.traffic.bytesIn
            stats.bytesOut += part.traffic.bytesOut
            stats.errors.merge(part.traffic.errors, uniquingKeysWith: +)
            stats.latency.add(part.traffic.latency)
        }
        stats.gamesStored = store?.gamesStored ?? 0
        stats.storageErrors = store?.storageErrors ?? 0
        stats.gamesPruned = store?.gamesPruned ?? 0
        stats.storage = store.map { $0.isHealthy ? .ok : .failing } ?? StorageHealth.none
        stats.storeLatency = commits
        stats.storeQueue = store?.gamesWaiting ?? 0
        stats.loops = parts.count > 1 ? parts.map(\.loop) : nil
        return stats
    }
}
