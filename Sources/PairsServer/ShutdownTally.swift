import PairsLobby

/// What a shutdown counts on every loop, for its one log line: the last loop to count writes it.
final class ShutdownTally: Sendable {
    private let state: PthreadLocked<(loops: Int, connections: Int, games: Int)>

    init(loops: Int) { state = PthreadLocked((loops, 0, 0)) }

    func count(connections: Int, games: Int, log: ServerLog) {
        let total = state.withLock { state -> (connections: Int, games: Int)? in
            state.loops -= 1
            state.connections += connections
            state.games += games
            return state.loops == 0 ? (state.connections, state.games) : nil
        }
        if let total { log.write(.info, .shuttingDown(connections: total.connections, gamesInProgress: total.games)) }
    }
}
