import PairsLobby

/// What the transport itself tells the operator, beside the lobby's events (`LobbyEvent`): the server
/// starting and stopping, connections it could not take, HTTP requests, the log's own rotation, and the
/// summary that replaces per-game and per-connection lines under load and churn.
enum ServerEvent: Hashable {
    /// Listening: where, the process id (for `kill` and `pairs load --server-pid`), the connection limit,
    /// and the file games are kept in (nil when it keeps none).
    case listening(address: String, pid: Int32, maxConnections: Int, data: String?, loops: Int)
    /// A connection was turned away at the connection limit (at most one line a second says so).
    case serverFull(connections: Int)
    /// An accepted connection was closed at once: its socket could not join the epoll set.
    case unwatchable(ConnectionID, peer: String, error: String)
    /// An HTTP request was answered with `status` (101 when it became a WebSocket; 400, 408, 414, 431
    /// when no request could be read).
    case http(ConnectionID, peer: String, request: LoggedRequest, status: Int)
    /// A finished game could not be handed to the store.
    case gameNotKept(room: String, error: String)
    /// A finished tournament's standings could not be handed to the store (its games were, each on its own).
    case tournamentNotKept(name: String, error: String)
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
    /// The instance's standing in its cluster changed (`ClusterStatus`).
    case cluster(ClusterStatus)

    /// What the log says of an HTTP request: its method and path, or why there was none to read.
    enum LoggedRequest: Hashable {
        case read(method: String, path: String)
        /// The parser refused the bytes, or the head did not arrive in time.
        case unread(String)
    }

    /// Whether the event happens once per connection, so that a churn of connections makes as many: under
    /// churn these are held past a rate (`LogSummary`), as the lobby's per-connection lines are.
    var isPerConnection: Bool {
        if case .http = self { true } else { false }
    }

    var name: String {
        switch self {
        case .listening: "listening"
        case .serverFull: "server_full"
        case .unwatchable: "accept_failed"
        case .http: "http"
        case .gameNotKept: "game_not_kept"
        case .tournamentNotKept: "tournament_not_kept"
        case .storageFailed: "storage_failed"
        case .storageRecovered: "storage_recovered"
        case .summary: "summary"
        case .shuttingDown: "shutdown"
        case .stopped: "stopped"
        case .logReopened: "log_reopened"
        case .logNotReopened: "log_reopen_failed"
        case .cluster(let status): status.eventName
        }
    }

    var fields: [LogField] {
        switch self {
        case .listening(let address, let pid, let maxConnections, let data, let loops):
            [LogField("address", .text(address)), LogField("pid", .integer(Int(pid))),
             LogField("max_connections", .integer(maxConnections)), LogField("data", .text(data ?? "none")),
             LogField("loops", .integer(loops))]
        case .serverFull(let connections):
            [LogField("connections", .integer(connections))]
        case .unwatchable(let id, let peer, let error):
            [LogField("conn", .text(id.description)), LogField("error", .text(error)), LogField("peer", .text(peer))]
        case .http(let id, let peer, let request, let status):
            switch request {
            case .read(let method, let path):
                [LogField("conn", .text(id.description)), LogField("method", .text(method)), LogField("path", .text(path)),
                 LogField("status", .integer(status)), LogField("peer", .text(peer))]
            case .unread(let why):
                [LogField("conn", .text(id.description)), LogField("status", .integer(status)), LogField("error", .text(why)),
                 LogField("peer", .text(peer))]
            }
        case .gameNotKept(let room, let error):
            [LogField("room", .text(room)), LogField("error", .text(error))]
        case .tournamentNotKept(let name, let error):
            [LogField("tournament", .text(name)), LogField("error", .text(error))]
        case .storageFailed(let failures, let gamesLost, let error):
            [LogField("failures", .integer(failures)), LogField("games_lost", .integer(gamesLost)), LogField("error", .text(error))]
        case .storageRecovered(let failures, let gamesLost, let seconds):
            [LogField("failures", .integer(failures)), LogField("games_lost", .integer(gamesLost)),
             LogField("seconds", .decimal(seconds))]
        case .summary(let report):
            [LogField("connections", .integer(report.connections)), LogField("rooms", .integer(report.rooms)),
             LogField("games_active", .integer(report.gamesActive)), LogField("games_finished", .integer(report.gamesFinished)),
             LogField("flips_per_second", .decimal(report.flipsPerSecond)), LogField("game_lines_held", .integer(report.gameLinesHeld))]
                + report.connectionLinesHeld.sorted { $0.key < $1.key }.map { LogField("\($0.key)_lines_held", .integer($0.value)) }
                + [LogField("seconds", .decimal(report.seconds))]
        case .shuttingDown(let connections, let gamesInProgress):
            [LogField("connections", .integer(connections)), LogField("games_in_progress", .integer(gamesInProgress))]
        case .stopped:
            []
        case .logReopened(let path):
            [LogField("path", .text(path))]
        case .logNotReopened(let path, let error):
            [LogField("path", .text(path)), LogField("error", .text(error))]
        case .cluster(let status):
            status.fields
        }
    }
}
