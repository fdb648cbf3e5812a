import PairsRecords

/// History and replays: finished games read back.
extension GameStore {
    /// How many games, or leaderboard rows, one query returns at most: a screenful up to a page.
    public static let limitRange = 1...100
    /// How many when the caller does not say.
    public static let defaultLimit = 20

    /// Finished games, newest first: all of them, or those `name` played, or those on `ladder`, or both.
    /// `before` pages back: only games with a smaller id (the last id of the previous page).
    public func history(
        name: String? = nil, ladder: String? = nil, limit: Int = GameStore.defaultLimit, before: GameID? = nil
    ) throws(StoreError) -> [HistoryEntry] {
        guard Self.limitRange.contains(limit) else { throw .limitOutOfRange(limit) }
        // One statement per combination of filters, so each can use its index (players by name, games by
        // ladder) instead of a scan that tests `?1 IS NULL` on every row.
        var conditions = ["g.id < ?3"]
        if name != nil { conditions.append("g.id IN (SELECT game_id FROM players WHERE name = ?1)") }
        if ladder != nil { conditions.append("g.ladder = ?2") }
        let sql = "SELECT \(GameRow.columns) FROM games g WHERE \(conditions.joined(separator: " AND ")) "
            + "ORDER BY g.id DESC LIMIT ?4"
        let rows = try read { connection throws(SQLiteError) in
            try connection.rows(
                sql, binding: [.optionalText(name), .optionalText(ladder), .integer(before?.rawValue ?? .max), .int(limit)],
                GameRow.init
            ).map { row throws(SQLiteError) in (row, try Self.players(of: row.id, on: connection)) }
        }
        var entries: [HistoryEntry] = []
        for (row, players) in rows {
            entries.append(HistoryEntry(id: GameID(row.id), summary: try row.summary(players: players), flips: row.flips))
        }
        return entries
    }

    /// The game with `id` in full (deal, moves, players, rules), or nil when there is none.
    public func replay(_ id: GameID) throws(StoreError) -> StoredGame? {
        let found = try read { connection throws(SQLiteError) in
            guard let row = try connection.rows(
                "SELECT \(GameRow.columns) FROM games g WHERE g.id = ?1", binding: [.integer(id.rawValue)], GameRow.init
            ).first else { return nil as (GameRow, [FinishedPlayer], [String], [MoveRow])? }
            let deal = try connection.rows(
                "SELECT value FROM json_each((SELECT deal FROM games WHERE id = ?1)) ORDER BY key",
                binding: [.integer(id.rawValue)]
            ) { $0.text(at: 0) }
            let moves = try connection.rows("""
                SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
                       json_extract(value, '$[3]')
                FROM json_each((SELECT moves FROM games WHERE id = ?1)) ORDER BY key
                """, binding: [.integer(id.rawValue)], MoveRow.init)
            return (row, try Self.players(of: row.id, on: connection), deal, moves)
        }
        guard let (row, players, deal, moveRows) = found else { return nil }
        var moves: [GameMove] = []
        for move in moveRows {
            guard let action = MoveAction(code: move.code, seat: move.seat, argument: move.argument) else {
                throw .damagedGame(id)
            }
            moves.append(GameMove(milliseconds: move.milliseconds, action: action))
        }
        let record = GameRecord(summary: try row.summary(players: players), deal: deal, moves: moves)
        return StoredGame(id: id, record: record)
    }

    /// Runs `body` on the request connection in one transaction, so that a query sees one moment of the
    /// database even while the writer commits. Reads need no more than `.deferred`.
    func read<Result>(
        _ kind: SQLiteConnection.TransactionKind = .deferred, _ body: (SQLiteConnection) throws(SQLiteError) -> Result
    ) throws(StoreError) -> Result {
        do throws(SQLiteError) {
            return try requests.withConnection { connection throws(SQLiteError) -> Result in
                try connection.transaction(kind) { () throws(SQLiteError) in try body(connection) }
            }
        } catch {
            throw .database(.sqlite(error))
        }
    }

    /// The players of game `id`, seat 0 first.
    static func players(of id: Int64, on connection: SQLiteConnection) throws(SQLiteError) -> [FinishedPlayer] {
        try connection.rows(
            "SELECT name, claimed, score FROM players WHERE game_id = ?1 ORDER BY seat", binding: [.integer(id)]
        ) { row in FinishedPlayer(name: row.text(at: 0), claimed: row.int(at: 1) != 0, score: row.int(at: 2)) }
    }
}

/// A row of `games` as stored, before its codes are read.
struct GameRow: Sendable {
    /// The columns, in the order `init` reads them, of `games` named `g`.
    static let columns =
        "g.id, g.room, g.rules, g.ladder, g.outcome, g.winner, g.ending, g.rated, g.started_ms, g.ended_ms, g.flips"

    var id: Int64
    var room: String
    var rules: StoredRules
    var outcome: String
    var winner: Int?
    var ending: String
    var rated: Bool
    var started: Int64
    var ended: Int64
    var flips: Int

    init(_ row: SQLiteStatement) {
        id = row.int64(at: 0)
        room = row.text(at: 1)
        rules = StoredRules(json: row.text(at: 2), ladder: row.text(at: 3))
        outcome = row.text(at: 4)
        winner = row.optionalInt(at: 5)
        ending = row.text(at: 6)
        rated = row.int(at: 7) != 0
        started = row.int64(at: 8)
        ended = row.int64(at: 9)
        flips = row.int(at: 10)
    }

    /// The summary the row stores, or `damagedGame` when a code is one no version wrote.
    func summary(players: [FinishedPlayer]) throws(StoreError) -> GameSummary {
        guard let outcome = GameOutcome(code: outcome, winner: winner), let ending = GameEnding(code: ending) else {
            throw .damagedGame(GameID(id))
        }
        return GameSummary(
            room: room, rules: rules, players: players, outcome: outcome, ending: ending,
            started: WallClockTime(unixMilliseconds: started), ended: WallClockTime(unixMilliseconds: ended),
            rated: rated)
    }
}

/// One move as stored: `[milliseconds, code, seat, argument]`.
struct MoveRow: Sendable {
    var milliseconds: Int64
    var code: Int
    var seat: Int
    var argument: Int?

    init(_ row: SQLiteStatement) {
        milliseconds = row.int64(at: 0)
        code = row.int(at: 1)
        seat = row.int(at: 2)
        argument = row.optionalInt(at: 3)
    }
}
