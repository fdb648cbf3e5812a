/// Keeps the ladders up to date as rated games are stored: Glicko-2 ratings for games of two seats, best
/// times and fewest flips for solo games. Runs inside the transaction that stores the game, so a game and
/// its rating change are committed together or not at all.
struct Ladders: Sendable {
    /// Glicko-2's τ (`Glicko2Rating.productionTau` outside tests).
    let tau: Double

    /// What a rated game changes on its ladder.
    struct Result {
        var ladder: String
        /// The seats' names, seat 0 first.
        var names: [String]
        var outcome: GameOutcome
        var flips: Int
        /// Milliseconds from the start to the last move: a solo clear's time.
        var lastMoveMilliseconds: Int64
    }

    /// Applies a rated game's result to its ladder, on either engine.
    func apply<Connection: SQLConnection>(_ result: Result, on connection: Connection) throws(Connection.Failure) {
        if result.names.count == 2 {
            try rate(result, on: connection)
        } else {
            try recordSolo(result, on: connection)
        }
    }

    /// Both players' ratings move, each against the other's rating from before the game: the game is a
    /// rating period of its own for both.
    private func rate<Connection: SQLConnection>(_ result: Result, on connection: Connection) throws(Connection.Failure) {
        var before: [Glicko2Rating] = []
        for name in result.names {
            before.append(try rating(of: name, on: result.ladder, connection: connection) ?? .initial)
        }
        for seat in 0..<2 {
            let score = Self.score(of: seat, in: result.outcome)
            let after = before[seat].updated(with: [(before[1 - seat], score)], tau: tau)
            try connection.run("""
                INSERT INTO ratings (name, ladder, rating, deviation, volatility, games, wins, losses, draws)
                VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7, ?8)
                ON CONFLICT (name, ladder) DO UPDATE SET
                    rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility,
                    games = ratings.games + 1, wins = ratings.wins + excluded.wins,
                    losses = ratings.losses + excluded.losses, draws = ratings.draws + excluded.draws
                """, binding: [
                    .text(result.names[seat]), .text(result.ladder),
                    .real(after.rating), .real(after.deviation), .real(after.volatility),
                    .int(score == 1 ? 1 : 0), .int(score == 0 ? 1 : 0), .int(score == 0.5 ? 1 : 0),
                ])
        }
    }

    /// What `seat` scored in a game of two seats: 1 for a win, 0 for a loss, 0.5 for a draw.
    static func score(of seat: Int, in outcome: GameOutcome) -> Double {
        switch outcome {
        case .won(let winner): winner == seat ? 1 : 0
        case .draw, .soloCleared, .soloLost: 0.5
        }
    }

    /// The name's rating on `ladder`, or nil before its first rated game there. Locked for the rest of the
    /// transaction where the engine locks rows, so two servers rating games of one name at once take turns,
    /// each from the other's result.
    func rating<Connection: SQLConnection>(
        of name: String, on ladder: String, connection: Connection
    ) throws(Connection.Failure) -> Glicko2Rating? {
        try connection.rows(
            "SELECT rating, deviation, volatility FROM ratings WHERE name = ?1 AND ladder = ?2\(Connection.dialect.forUpdate)",
            binding: [.text(name), .text(ladder)]
        ) { row in
            Glicko2Rating(rating: row.double(at: 0), deviation: row.double(at: 1), volatility: row.double(at: 2))
        }.first
    }

    /// A solo game counts as played; a cleared one may be the best time or the fewest flips. (A CASE rather
    /// than SQLite's `min` or PostgreSQL's `LEAST`, which treat NULL, no clear yet, each its own way.)
    private func recordSolo<Connection: SQLConnection>(_ result: Result, on connection: Connection) throws(Connection.Failure) {
        let cleared = result.outcome == .soloCleared
        try connection.run("""
            INSERT INTO solo_records (name, ladder, played, cleared, best_ms, fewest_flips)
            VALUES (?1, ?2, 1, ?3, ?4, ?5)
            ON CONFLICT (name, ladder) DO UPDATE SET
                played = solo_records.played + 1, cleared = solo_records.cleared + excluded.cleared,
                best_ms = CASE WHEN solo_records.best_ms IS NULL OR excluded.best_ms < solo_records.best_ms
                               THEN excluded.best_ms ELSE solo_records.best_ms END,
                fewest_flips = CASE WHEN solo_records.fewest_flips IS NULL OR excluded.fewest_flips < solo_records.fewest_flips
                                    THEN excluded.fewest_flips ELSE solo_records.fewest_flips END
            """, binding: [
                .text(result.names[0]), .text(result.ladder), .int(cleared ? 1 : 0),
                cleared ? .integer(result.lastMoveMilliseconds) : .null,
                cleared ? .int(result.flips) : .null,
            ])
    }
}
