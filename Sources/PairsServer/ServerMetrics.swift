import PairsWire

/// The server's counters as `GET /metrics` serves them, in Prometheus's text format (`PrometheusText`).
///
/// Made from the very `ServerStatistics` that `stats` and `/stats` send, so the two never disagree. Every
/// label takes values from a fixed set (error codes, `VariantLabel`'s 16 names), never a room's or a
/// player's, so the number of series stays bounded however the server is used.
enum ServerMetrics {
    /// The exposition of `stats`.
    static func exposition(of stats: ServerStatistics) -> String {
        var out = PrometheusText()
        out.family("pairs_connections", .gauge, help: "Connections open now (players, spectators and people in the lobby).")
        out.sample("pairs_connections", [:], stats.connections)
        out.family("pairs_rooms", .gauge, help: "Rooms that exist now.")
        out.sample("pairs_rooms", [:], stats.rooms)
        out.family("pairs_games_in_progress", .gauge, help: "Rooms whose game is playing or in reveal.")
        out.sample("pairs_games_in_progress", [:], stats.gamesActive)
        out.family("pairs_games_finished_total", .counter, help: "Games ended since the server started, by variant.")
        for (variant, count) in stats.gamesFinishedByVariant.sorted(by: { $0.key < $1.key }) {
            out.sample("pairs_games_finished_total", ["variant": variant], count)
        }
        out.family("pairs_flips_total", .counter, help: "Flips accepted since the server started.")
        out.sample("pairs_flips_total", [:], stats.flips)
        out.family("pairs_messages_received_total", .counter, help: "Messages (lines or WebSocket text frames) received.")
        out.sample("pairs_messages_received_total", [:], stats.messagesIn)
        out.family("pairs_messages_sent_total", .counter, help: "Messages (lines or WebSocket text frames) sent.")
        out.sample("pairs_messages_sent_total", [:], stats.messagesOut)
        out.family("pairs_bytes_received_total", .counter, help: "Bytes read from client sockets.")
        out.sample("pairs_bytes_received_total", [:], stats.bytesIn)
        out.family("pairs_bytes_sent_total", .counter, help: "Bytes queued to client sockets.")
        out.sample("pairs_bytes_sent_total", [:], stats.bytesOut)
        out.family("pairs_errors_total", .counter, help: "Error messages sent to clients, by protocol.md's error code.")
        for code in ErrorCode.allCases {
            out.sample("pairs_errors_total", ["code": code.rawValue], stats.errors[code] ?? 0)
        }
        out.family("pairs_uptime_seconds", .gauge, help: "Seconds since the server started.")
        out.sample("pairs_uptime_seconds", [:], stats.uptimeSeconds)
        out.family("pairs_storage_enabled", .gauge, help: "1 when the server keeps a history of games (--data), else 0.")
        out.sample("pairs_storage_enabled", [:], stats.storage == .ok || stats.storage == .failing ? 1 : 0)
        out.family("pairs_storage_failing", .gauge, help: "1 while batches of finished games cannot be written (a full or broken disk), else 0.")
        out.sample("pairs_storage_failing", [:], stats.storage == .failing ? 1 : 0)
        out.family("pairs_games_stored", .gauge, help: "Finished games in the server's history.")
        out.sample("pairs_games_stored", [:], stats.gamesStored)
        out.family("pairs_storage_errors_total", .counter, help: "Failures of the history's storage (games lost) since the server started.")
        out.sample("pairs_storage_errors_total", [:], stats.storageErrors)
        out.family("pairs_store_queue_games", .gauge, help: "Finished games waiting to be committed by the store.")
        out.sample("pairs_store_queue_games", [:], stats.storeQueue)
        out.histogram("pairs_store_write_duration_seconds",
                      help: "Time from a game's end to its commit by the store, per game (to the millisecond).",
                      bounds: AnswerLatency.boundsMicroseconds.map { Double($0) / 1_000_000 },
                      cumulativeCounts: stats.storeLatency.cumulativeCounts,
                      sum: Double(stats.storeLatency.sumMicroseconds) / 1_000_000)
        if let loops = stats.loops {
            // One series per event loop: the loop's number, a label from a fixed set (0 to `--loops` - 1).
            out.family("pairs_loop_connections", .gauge, help: "Connections on each event loop.")
            for (index, loop) in loops.enumerated() { out.sample("pairs_loop_connections", ["loop": String(index)], loop.connections) }
            out.family("pairs_loop_rooms", .gauge, help: "Rooms on each event loop.")
            for (index, loop) in loops.enumerated() { out.sample("pairs_loop_rooms", ["loop": String(index)], loop.rooms) }
            out.family("pairs_loop_flips_total", .counter, help: "Flips accepted on each event loop since the server started.")
            for (index, loop) in loops.enumerated() { out.sample("pairs_loop_flips_total", ["loop": String(index)], loop.flips) }
            out.family("pairs_loop_hand_offs_total", .counter, help: "Connections each event loop moved to another since the server started (0 in steady play).")
            for (index, loop) in loops.enumerated() { out.sample("pairs_loop_hand_offs_total", ["loop": String(index)], loop.handOffs) }
        }
        out.histogram("pairs_answer_duration_seconds",
                      help: "Time from the arrival of a request's batch of sockets to its answer's write, per request.",
                      bounds: AnswerLatency.boundsMicroseconds.map { Double($0) / 1_000_000 },
                      cumulativeCounts: stats.latency.cumulativeCounts,
                      sum: Double(stats.latency.sumMicroseconds) / 1_000_000)
        return out.text
    }
}
