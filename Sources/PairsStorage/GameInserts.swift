/// Writing finished games, on either engine: the SQLite file's writer and PostgreSQL's run the same
/// statements, inside a transaction each opens its own way (`SQLiteGameSink`, `PostgresGameSink`).
enum GameInserts {
    /// Inserts `batch`, each record in a savepoint of its own, so that one the database refuses costs only
    /// itself; any other failure ends the batch (and its caller's transaction). Returns how many games were
    /// inserted; what was refused is added to `failures`.
    static func insert<Connection: SQLConnection>(
        _ batch: [StoreWrite], on connection: Connection, ladders: Ladders, failures: inout [StorageFailure]
    ) throws(Connection.Failure) -> Int {
        var inserted = 0
        for write in batch {
            do throws(Connection.Failure) {
                try connection.savepoint { () throws(Connection.Failure) in
                    switch write {
                    case .game(let game): try insert(game, on: connection, ladders: ladders, failures: &failures)
                    case .tournament(let tournament): try insert(tournament, on: connection)
                    }
                }
                if case .game = write { inserted += 1 }
            } catch where Connection.refusesRow(error) {
                switch write {
                case .game(let game): failures.append(.gameRefused(Connection.databaseError(error), room: game.summary.room))
                case .tournament(let tournament):
                    failures.append(.tournamentRefused(Connection.databaseError(error), name: tournament.name))
                }
            }
        }
        return inserted
    }

    /// Inserts a finished tournament's record and its standings, a row each.
    private static func insert<Connection: SQLConnection>(_ tournament: TournamentRecord, on connection: Connection) throws(Connection.Failure) {
        let id = try connection.insert("""
            INSERT INTO tournaments (key, name, format, creator, rules, ladder, started_ms, ended_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """, binding: [
                .text(tournament.key), .text(tournament.name), .text(tournament.format), .text(tournament.creator),
                .text(tournament.rules.json), .text(tournament.rules.ladder), .integer(tournament.started.unixMilliseconds),
                .integer(tournament.ended.unixMilliseconds),
            ])
        for row in tournament.standings {
            try connection.run("""
                INSERT INTO tournament_standings (tournament_id, rank, name, score_quarters, games, buchholz_quarters,
                                                  sonneborn_berger_quarters, streak, active)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                """, binding: [
                    .integer(id), .int(row.rank), .text(row.name), .int(row.score.quarters), .int(row.games),
                    .optionalInt(row.buchholz?.quarters), .optionalInt(row.sonnebornBerger?.quarters), .int(row.streak),
                    .bool(row.active),
                ])
        }
    }

    /// Inserts one game with its players, and moves its ladder when it is rated.
    private static func insert<Connection: SQLConnection>(
        _ game: GameRecord, on connection: Connection, ladders: Ladders, failures: inout [StorageFailure]
    ) throws(Connection.Failure) {
        let summary = game.summary
        // The deal goes in as one parameter per face, made into a JSON array by the database, which escapes
        // the faces itself. One statement per deal size, each prepared once.
        let faces = Connection.dialect.jsonTextArray(13..<(13 + game.deal.count))
        let id = try connection.insert("""
            INSERT INTO games (room, rules, ladder, outcome, winner, ending, rated, started_ms, ended_ms, flips,
                               moves, tournament, deal)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, \(faces))
            """, binding: [
                .text(summary.room), .text(summary.rules.json), .text(summary.rules.ladder),
                .text(summary.outcome.code), .optionalInt(summary.outcome.winner), .text(summary.ending.code),
                .bool(summary.rated), .integer(summary.started.unixMilliseconds),
                .integer(summary.ended.unixMilliseconds), .int(game.flips), .text(movesJSON(game.moves)),
                .optionalText(summary.tournament),
            ] + game.deal.map { .text($0) })
        for (seat, player) in summary.players.enumerated() {
            try connection.run(
                "INSERT INTO players (game_id, seat, name, claimed, score) VALUES (?1, ?2, ?3, ?4, ?5)",
                binding: [.integer(id), .int(seat), .text(player.name), .bool(player.claimed), .int(player.score)])
        }
        guard summary.rated else { return }
        let result = Ladders.Result(
            ladder: summary.rules.ladder, names: summary.players.map(\.name), outcome: summary.outcome,
            flips: game.flips, lastMoveMilliseconds: game.moves.last?.milliseconds ?? 0)
        do throws(Connection.Failure) {
            try connection.savepoint { () throws(Connection.Failure) in try ladders.apply(result, on: connection) }
        } catch where Connection.refusesRow(error) {
            failures.append(.ladderNotUpdated(Connection.databaseError(error), game: GameID(id)))
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
