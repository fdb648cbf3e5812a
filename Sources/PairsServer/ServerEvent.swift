import PairsLobby

/// What the transport itself tells the operator, beside the lobby's events (`LobbyEvent`): the server
/// starting and stopping, connections it could not take, the log's own rotation, and the summary that
/// replaces per-game lines under load.
enum ServerEvent: Hashable {
    /// Listening: where, the process id (for `kill` and `pairs load --server-pid`), the connection limit,
    /// and the file games are kept in (nil when it keeps none).
    case listening(address: String, pid: Int32, maxConnections: Int, data: String?)
    /// A connection was turned away at the connection limit (at most one line a second says so).
    case serverFull(connections: Int)
    /// An accepted connection was closed at once: its socket could not join the epoll set.
    case unwatchable(ConnectionID, peer: String, error: String)
    /// An HTTP request was answered with `status` (101 when it became a WebSocket): `request` is its method
    /// and target, or why the parser refused it.
    case http(ConnectionID, peer: String, request: String, status: Int)
    /// A finished game could not be handed to the store.
    case gameNotKept(room: String, error: String)
    /// The store lost games: `failures` failures since the last such line (at most one per
    /// `StorageAlarm.intervalMilliseconds`), the games they lost, and the last one's error.
    case storageFailed(failures: Int, gamesLost: Int, error: String)
    /// The store wrote games again after a spell of failures, which lasted `seconds` and lost `gamesLost`.
    case storageRecovered(failures: Int, gamesLost: Int, seconds: Double)
    /// The last summary interval under load (`LogSummary`).
    case summary(LogSummary.Report)
    /// A shutdown began: what it cuts.
    case shuttingDown(connections: Int, gamesInProgress: Int)
    /// Every connection is closed and the store flushed.
    case stopped
    /// The log file was opened again (after rotation); this is the new file's first line.
    case logReopened(path: String)
    /// The log file could not be opened again; the old one is still written.
    case logNotReopened(path: String, error: String)

    var name: String {
        switch self {
        case .listening: "listening"
        case .serverFull: "server_full"
        case .unwatchable: "accept_failed"
        case .http: "http"
        case .gameNotKept: "game_not_kept"
        case .storageFailed: "storage_failed"
        case .storageRecovered: "storage_recovered"
        case .summary: "summary"
        case .shuttingDown: "shutdown"
        case .stopped: "stopped"
        case .logReopened: "log_reopened"
        case .logNotReopened: "log_reopen_failed"
        }
    }

    var fields: [LogField] {
        switch self {
        case .listening(let address, let pid, let maxConnections, let data):
            [LogField("address", .text(address)), LogField("pid", .integer(Int(pid))),
             LogField("max_connections", .integer(maxConnections)), LogField("data", .text(data ?? "none"))]
        case .serverFull(let connections):
            [LogField("connections", .integer(connections))]
        case .unwatchable(let id, let peer, let error):
            [LogField("conn", .text(id.description)), LogField("error", .text(error)), LogField("peer", .text(peer))]
        case .http(let id, let peer, let request, let status):
            [LogField("conn", .text(id.description)), LogField("peer", .text(peer)), LogField("request", .text(request)),
             LogField("status", .integer(status))]
        case .gameNotKept(let room, let error):
            [LogField("room", .text(room)), LogField("error", .text(error))]
        case .storageFailed(let failures, let gamesLost, let error):
            [LogField("failures", .integer(failures)), LogField("games_lost", .integer(gamesLost)), LogField("error", .text(error))]
        case .storageRecovered(let failures, let gamesLost, let seconds):
            [LogField("failures", .integer(failures)), LogField("games_lost", .integer(gamesLost)),
             LogField("seconds", .decimal(seconds))]
        case .summary(let report):
            [LogField("connections", .integer(report.connections)), LogField("rooms", .integer(report.rooms)),
             LogField("games_active", .integer(report.gamesActive)), LogField("games_finished", .integer(report.gamesFinished)),
             LogField("flips_per_second", .decimal(report.flipsPerSecond)), LogField("game_lines_held", .integer(report.gameLinesHeld)),
             LogField("seconds", .decimal(report.seconds))]
        case .shuttingDown(let connections, let gamesInProgress):
            [LogField("connections", .integer(connections)), LogField("games_in_progress", .integer(gamesInProgress))]
        case .stopped:
            []
        case .logReopened(let path):
            [LogField("path", .text(path))]
        case .logNotReopened(let path, let error):
            [LogField("path", .text(path)), LogField("error", .text(error))]
        }
    }
}
