/// The parts of the schema's migrations that move data rather than change tables, for both engines: each
/// engine's `Schema` (`Schema`, `PostgresSchema`) makes its tables in its own types and keeps its version its
/// own way, then fills them through these.
enum MigrationSteps {
    /// Version 2: the ladders, Glicko-2 ratings and solo records, rebuilt from the rated games already
    /// stored, in the order they were played. Only games whose every player holds a claimed name can have
    /// a rating row (a foreign key).
    static func rebuildLadders<Connection: SQLConnection>(on connection: Connection, ladders: Ladders) throws(Connection.Failure) {
        let rated = try connection.rows("""
            SELECT id, ladder, outcome, winner, flips, \(Connection.dialect.lastMoveMilliseconds)
            FROM games g
            WHERE rated AND NOT EXISTS (
                SELECT 1 FROM players p WHERE p.game_id = g.id AND p.name NOT IN (SELECT name FROM names))
            ORDER BY id
            """, binding: []) { row in
            (id: row.int64(at: 0), ladder: row.text(at: 1), outcome: GameOutcome(code: row.text(at: 2), winner: row.optionalInt(at: 3)),
             flips: row.int(at: 4), last: row.int64(at: 5))
        }
        for game in rated {
            // A row this code cannot read was not written by it; it stays in history, unrated.
            guard let outcome = game.outcome else { continue }
            let names = try connection.rows(
                "SELECT name FROM players WHERE game_id = ?1 ORDER BY seat", binding: [.integer(game.id)]
            ) { $0.text(at: 0) }
            let result = Ladders.Result(
                ladder: game.ladder, names: names, outcome: outcome, flips: game.flips, lastMoveMilliseconds: game.last)
            try ladders.apply(result, on: connection)
        }
    }

    /// Version 3: each claimed name's look-alike skeleton (`NameSkeleton`), once the column is there.
    static func fillSkeletons<Connection: SQLConnection>(on connection: Connection) throws(Connection.Failure) {
        let names = try connection.rows("SELECT name FROM names", binding: []) { $0.text(at: 0) }
        for name in names {
            try connection.run("UPDATE names SET skeleton = ?1 WHERE name = ?2", binding: [.text(NameSkeleton.of(name)), .text(name)])
        }
    }
}
