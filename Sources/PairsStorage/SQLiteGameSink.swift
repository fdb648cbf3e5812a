import Synchronization

/// The SQLite file's side of the writer: each batch in one transaction, a savepoint per game, and the
/// retention policy's steps (`Pruner`), on the writer's connection.
final class SQLiteGameSink: GameSink {
    /// Used only on the writer's queue; the lock costs nothing uncontended.
    private let connection: LockedConnection
    private let ladders: Ladders
    /// Used only on the writer's queue.
    private let pruner: Mutex<Pruner>

    init(connection: LockedConnection, ladders: Ladders, retention: Retention) {
        self.connection = connection
        self.ladders = ladders
        pruner = Mutex(Pruner(retention: retention))
    }

    /// One transaction for the batch, one savepoint per game, so a game the database refuses costs only
    /// itself; any other failure costs the batch.
    func commit(_ batch: [GameRecord]) -> Result<(committed: Int, failures: [StorageFailure]), DatabaseError> {
        var failures: [StorageFailure] = []
        var committed = 0
        let outcome = connection.withConnection { connection -> SQLiteError? in
            do throws(SQLiteError) {
                try connection.transaction { () throws(SQLiteError) in
                    for game in batch {
                        do throws(SQLiteError) {
                            try connection.savepoint { () throws(SQLiteError) in
                                try insert(game, on: connection, failures: &failures)
                            }
                            committed += 1
                        } catch where error.code == .constraint {
                            failures.append(.gameRefused(.sqlite(error), room: game.summary.room))
                        }
                    }
                }
                return nil
            } catch {
                return error
            }
        }
        if let outcome { return .failure(.sqlite(outcome)) }
        return .success((committed, failures))
    }

    func prune(now: WallClockTime) -> Result<(pruned: Int, more: Bool), DatabaseError> {
        pruner.withLock { pruner in
            connection.withConnection { connection -> Result<(pruned: Int, more: Bool), DatabaseError> in
                do throws(SQLiteError) {
                    return .success(try pruner.step(on: connection, now: now))
                } catch {
                    return .failure(.sqlite(error))
                }
            }
        }
    }

    /// Inserts one game with its players, and moves its ladder when it is rated.
    private func insert(
        _ game: GameRecord, on connection: SQLiteConnection, failures: inout [StorageFailure]
    ) throws(SQLiteError) {
        let summary = game.summary
        let flips = game.flips
        // The deal goes in as one parameter per face, made into a JSON array by SQLite, which escapes
        // the faces itself. One statement per deal size, each prepared once.
        let faces = (0..<game.deal.count).map { "?\($0 + 12)" }.joined(separator: ", ")
        try connection.run("""
            INSERT INTO games (room, rules, ladder, outcome, winner, ending, rated, started_ms, ended_ms, flips,
                               moves, deal)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, json_array(\(faces)))
            """, binding: [
                .text(summary.room), .text(summary.rules.json), .text(summary.rules.ladder),
                .text(summary.outcome.code), .optionalInt(summary.outcome.winner), .text(summary.ending.code),
                .bool(summary.rated), .integer(summary.started.unixMilliseconds),
                .integer(summary.ended.unixMilliseconds), .int(flips), .text(Self.movesJSON(game.moves)),
            ] + game.deal.map { .text($0) })
        let id = connection.lastInsertedRowID
        for (seat, player) in summary.players.enumerated() {
            try connection.run(
                "INSERT INTO players (game_id, seat, name, claimed, score) VALUES (?1, ?2, ?3, ?4, ?5)",
                binding: [.integer(id), .int(seat), .text(player.name), .bool(player.claimed), .int(player.score)])
        }
        guard summary.rated else { return }
        let result = Ladders.Result(
            ladder: summary.rules.ladder, names: summary.players.map(\.name), outcome: summary.outcome,
            flips: flips, lastMoveMilliseconds: game.moves.last?.milliseconds ?? 0)
        do throws(SQLiteError) {
            try connection.savepoint { () throws(SQLiteError) in try ladders.apply(result, on: connection) }
        } catch where error.code == .constraint {
            failures.append(.ladderNotUpdated(.sqlite(error), game: GameID(id)))
        }
    }

    /// The moves as a JSON array of `[milliseconds, code, seat, argument]` arrays: integers only, so
    /// nothing needs escaping.
    static func movesJSON(_ moves: [GameMove]) -> String {
        var json = "["
        json.reserveCapacity(moves.count * 16 + 2)
        for (index, move) in moves.enumerated() {
            if index > 0 { json += "," }
            let argument = move.action.argument.map(String.init) ?? "null"
            json += "[\(move.milliseconds),\(move.action.code),\(move.action.seat),\(argument)]"
        }
        return json + "]"
    }
}
