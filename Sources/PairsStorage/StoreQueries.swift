import PairsRecords

/// A store that answers queries on a connection of one engine, in one transaction that sees one moment of
/// the database: its history, replays, leaderboards and profiles are written once, here, for both engines
/// (`GameStore` on SQLite, `PostgresStore` on PostgreSQL), and read the same rows the same way.
protocol StoreReading {
    associatedtype Connection: SQLConnection
    /// Runs `body` on the query connection in one read-only transaction.
    func read<Result>(_ body: (Connection) throws(Connection.Failure) -> Result) throws(StoreError) -> Result
}

extension StoreReading {
    /// Finished games, newest first: all of them, or those `name` played, or those on `ladder`, or those of
    /// the tournament whose key is `tournament`, or any combination. `before` pages back: only games with a
    /// smaller id (the last id of the previous page).
    func findHistory(name: String?, ladder: String?, tournament: String?, limit: Int, before: GameID?) throws(StoreError) -> [HistoryEntry] {
        guard GameStore.limitRange.contains(limit) else { throw .limitOutOfRange(limit) }
        // One statement per combination of filters, so each can use its index (players by name, games by
        // ladder) instead of a scan that tests `?1 IS NULL` on every row; and only the filters given are
        // bound, as PostgreSQL cannot type a parameter the statement never uses.
        var values: [SQLValue] = [.integer(before?.rawValue ?? .max), .int(limit)]
        var conditions = ["g.id < ?1"]
        if let name {
            values.append(.text(name))
            conditions.append("g.id IN (SELECT game_id FROM players WHERE name = ?\(values.count))")
        }
        if let ladder {
            values.append(.text(ladder))
            conditions.append("g.ladder = ?\(values.count)")
        }
        if let tournament {
            values.append(.text(tournament))
            conditions.append("g.tournament = ?\(values.count)")
        }
        let sql = "SELECT \(GameRow.columns) FROM games g WHERE \(conditions.joined(separator: " AND ")) ORDER BY g.id DESC LIMIT ?2"
        let rows = try read { connection throws(Connection.Failure) in
            try connection.rows(sql, binding: values) { GameRow($0) }
                .map { row throws(Connection.Failure) in (row, try Self.players(of: row.id, on: connection)) }
        }
        var entries: [HistoryEntry] = []
        for (row, players) in rows {
            entries.append(HistoryEntry(id: GameID(row.id), summary: try row.summary(players: players), flips: row.flips))
        }
        return entries
    }

    /// The game with `id` in full (deal, moves, players, rules), or nil when there is none.
    func findReplay(_ id: GameID) throws(StoreError) -> StoredGame? {
        let found = try read { connection throws(Connection.Failure) in
            guard let row = try connection.rows(
                "SELECT \(GameRow.columns) FROM games g WHERE g.id = ?1", binding: [.integer(id.rawValue)], { GameRow($0) }
            ).first else { return nil as (GameRow, [FinishedPlayer], [String], [MoveRow])? }
            let deal = try connection.rows(Connection.dialect.dealQuery, binding: [.integer(id.rawValue)]) { $0.text(at: 0) }
            let moves = try connection.rows(Connection.dialect.movesQuery, binding: [.integer(id.rawValue)]) { MoveRow($0) }
            return (row, try Self.players(of: row.id, on: connection), deal, moves)
        }
        guard let (row, players, deal, moveRows) = found else { return nil }
        var moves: [GameMove] = []
        for move in moveRows {
            guard let action = MoveAction(code: move.code, seat: move.seat, argument: move.argument) else { throw .damagedGame(id) }
            moves.append(GameMove(milliseconds: move.milliseconds, action: action))
        }
        return StoredGame(id: id, record: GameRecord(summary: try row.summary(players: players), deal: deal, moves: moves))
    }

    /// The players of game `id`, seat 0 first.
    static func players(of id: Int64, on connection: Connection) throws(Connection.Failure) -> [FinishedPlayer] {
        try connection.rows("SELECT name, claimed, score FROM players WHERE game_id = ?1 ORDER BY seat", binding: [.integer(id)]) { row in
            FinishedPlayer(name: row.text(at: 0), claimed: row.bool(at: 1), score: row.int(at: 2))
        }
    }

    /// The best ratings on `ladder`, highest first; among equal ratings the surer one (smaller deviation)
    /// first, then by name. Provisional ratings are included, marked as such.
    func findLeaderboard(ladder: String, limit: Int) throws(StoreError) -> [Ranked<RatingRecord>] {
        guard GameStore.limitRange.contains(limit) else { throw .limitOutOfRange(limit) }
        let records = try read { connection throws(Connection.Failure) in
            try connection.rows(
                "SELECT \(ratingColumns) FROM ratings WHERE ladder = ?1 "
                    + "ORDER BY rating DESC, deviation ASC, name\(Connection.dialect.byteOrder) ASC LIMIT ?2",
                binding: [.text(ladder), .int(limit)], ratingRecord)
        }
        return records.enumerated().map { Ranked(rank: $0.offset + 1, record: $0.element) }
    }

    /// `name`'s rating on `ladder`, rounded, or nil before its first rated game there (an unclaimed name
    /// never has one): what a tournament ranks an entrant by.
    func findRating(of name: String, ladder: String) throws(StoreError) -> Int? {
        try read { connection throws(Connection.Failure) in
            try connection.rows("SELECT rating FROM ratings WHERE name = ?1 AND ladder = ?2",
                                binding: [.text(name), .text(ladder)]) { Int($0.double(at: 0).rounded()) }.first
        }
    }

    /// The best solo records on `ladder`, by `ranking`; names without a clear yet come last.
    func findSoloLeaderboard(ladder: String, ranking: SoloRanking, limit: Int) throws(StoreError) -> [Ranked<SoloRecord>] {
        guard GameStore.limitRange.contains(limit) else { throw .limitOutOfRange(limit) }
        let order = switch ranking {
        case .bestTime: "best_ms ASC NULLS LAST, fewest_flips ASC"
        case .fewestFlips: "fewest_flips ASC NULLS LAST, best_ms ASC"
        }
        let records = try read { connection throws(Connection.Failure) in
            try connection.rows(
                "SELECT \(soloColumns) FROM solo_records WHERE ladder = ?1 "
                    + "ORDER BY \(order), name\(Connection.dialect.byteOrder) ASC LIMIT ?2",
                binding: [.text(ladder), .int(limit)], soloRecord)
        }
        return records.enumerated().map { Ranked(rank: $0.offset + 1, record: $0.element) }
    }

    /// Everything about `name`: claimed or not, its ratings and solo records, totals over every game it
    /// played, and its last games; with `tournament`, the totals and last games of that tournament only. Nil
    /// when the store has never heard of the name.
    func findProfile(name: String, tournament: String?) throws(StoreError) -> Profile? {
        let byteOrder = Connection.dialect.byteOrder
        let found = try read { connection throws(Connection.Failure) in
            let claimed = try connection.integer("SELECT count(*) FROM names WHERE name = ?1", binding: [.text(name)]) ?? 0
            let ratings = try connection.rows(
                "SELECT \(ratingColumns) FROM ratings WHERE name = ?1 ORDER BY ladder\(byteOrder)",
                binding: [.text(name)], ratingRecord)
            let solo = try connection.rows(
                "SELECT \(soloColumns) FROM solo_records WHERE name = ?1 ORDER BY ladder\(byteOrder)",
                binding: [.text(name)], soloRecord)
            let totals = try connection.rows("""
                SELECT count(*) FILTER (WHERE g.outcome IN ('won', 'draw')),
                       count(*) FILTER (WHERE g.outcome = 'won' AND g.winner = p.seat),
                       count(*) FILTER (WHERE g.outcome = 'won' AND g.winner <> p.seat),
                       count(*) FILTER (WHERE g.outcome = 'draw'),
                       count(*) FILTER (WHERE g.outcome IN ('solo_cleared', 'solo_lost')),
                       count(*) FILTER (WHERE g.outcome = 'solo_cleared')
                FROM players p JOIN games g ON g.id = p.game_id
                WHERE p.name = ?1\(tournament == nil ? "" : " AND g.tournament = ?2")
                """, binding: [.text(name)] + (tournament.map { [.text($0)] } ?? [])) { row in
                Profile.Totals(
                    games: row.int(at: 0), wins: row.int(at: 1), losses: row.int(at: 2), draws: row.int(at: 3),
                    soloPlayed: row.int(at: 4), soloCleared: row.int(at: 5))
            }[0]
            return (claimed > 0, ratings, solo, totals)
        }
        let (isClaimed, ratings, solo, totals) = found
        guard isClaimed || totals.games + totals.soloPlayed > 0 else { return nil }
        let lastGames = try findHistory(name: name, ladder: nil, tournament: tournament, limit: GameStore.profileGames, before: nil)
        return Profile(name: name, isClaimed: isClaimed, ratings: ratings, solo: solo, totals: totals, lastGames: lastGames)
    }
}

extension StoreReading {
    /// Finished tournaments, the last committed first, each with its standings; `before` pages back by
    /// `StoredTournament.id`.
    func findTournaments(limit: Int, before: Int64?) throws(StoreError) -> [StoredTournament] {
        guard GameStore.tournamentLimitRange.contains(limit) else { throw .limitOutOfRange(limit) }
        return try read { connection throws(Connection.Failure) in
            var tournaments = try connection.rows(
                "SELECT \(tournamentColumns) FROM tournaments WHERE id < ?1 ORDER BY id DESC LIMIT ?2",
                binding: [.integer(before ?? .max), .int(limit)], { storedTournament($0) })
            guard let newest = tournaments.first?.id, let oldest = tournaments.last?.id else { return [] }
            // The page is every tournament between its oldest and newest ids, so one query reads all their
            // standings, rather than one query per tournament.
            let standings = try standingRows(on: connection, "tournament_id BETWEEN ?1 AND ?2", binding: [.integer(oldest), .integer(newest)])
            let byTournament = Dictionary(grouping: standings, by: \.tournament)
            for index in tournaments.indices {
                tournaments[index].record.standings = byTournament[tournaments[index].id]?.map(\.standing) ?? []
            }
            return tournaments
        }
    }

    /// The finished tournament whose key is `key`, with its standings, or nil.
    func findTournament(key: String) throws(StoreError) -> StoredTournament? {
        try read { connection throws(Connection.Failure) in
            guard var tournament = try connection.rows("SELECT \(tournamentColumns) FROM tournaments WHERE key = ?1",
                                                       binding: [.text(key)], { storedTournament($0) }).first else { return nil }
            tournament.record.standings = try standingRows(on: connection, "tournament_id = ?1", binding: [.integer(tournament.id)]).map(\.standing)
            return tournament
        }
    }
}

private let tournamentColumns = "id, key, name, format, creator, rules, ladder, started_ms, ended_ms"

private func storedTournament(_ row: some SQLRow) -> StoredTournament {
    StoredTournament(id: row.int64(at: 0), record: TournamentRecord(
        key: row.text(at: 1), name: row.text(at: 2), format: row.text(at: 3), creator: row.text(at: 4),
        rules: StoredRules(json: row.text(at: 5), ladder: row.text(at: 6)),
        started: WallClockTime(unixMilliseconds: row.int64(at: 7)), ended: WallClockTime(unixMilliseconds: row.int64(at: 8)),
        standings: []))
}

/// The standings rows `condition` picks, each with its tournament's id: by tournament, then best first.
private func standingRows<Connection: SQLConnection>(
    on connection: Connection, _ condition: String, binding: [SQLValue]
) throws(Connection.Failure) -> [(tournament: Int64, standing: TournamentStanding)] {
    try connection.rows("""
        SELECT tournament_id, rank, name, score_quarters, games, buchholz_quarters, sonneborn_berger_quarters, streak, active
        FROM tournament_standings WHERE \(condition) ORDER BY tournament_id, rank, name\(Connection.dialect.byteOrder)
        """, binding: binding) { row in
        (row.int64(at: 0), TournamentStanding(
            rank: row.int(at: 1), name: row.text(at: 2), score: QuarterPoints(quarters: row.int(at: 3)), games: row.int(at: 4),
            buchholz: row.optionalInt(at: 5).map { QuarterPoints(quarters: $0) },
            sonnebornBerger: row.optionalInt(at: 6).map { QuarterPoints(quarters: $0) },
            streak: row.int(at: 7), active: row.bool(at: 8)))
    }
}

private let ratingColumns = "ladder, name, rating, deviation, games, wins, losses, draws"

private func ratingRecord(_ row: some SQLRow) -> RatingRecord {
    let deviation = row.double(at: 3)
    return RatingRecord(
        ladder: row.text(at: 0), name: row.text(at: 1), rating: Int(row.double(at: 2).rounded()),
        deviation: Int(deviation.rounded()), isProvisional: deviation > Glicko2Rating.provisionalDeviation,
        games: row.int(at: 4), wins: row.int(at: 5), losses: row.int(at: 6), draws: row.int(at: 7))
}

private let soloColumns = "ladder, name, played, cleared, best_ms, fewest_flips"

private func soloRecord(_ row: some SQLRow) -> SoloRecord {
    SoloRecord(
        ladder: row.text(at: 0), name: row.text(at: 1), played: row.int(at: 2), cleared: row.int(at: 3),
        bestMilliseconds: row.optionalInt(at: 4), fewestFlips: row.optionalInt(at: 5))
}

/// A row of `games` as stored, before its codes are read.
struct GameRow: Sendable {
    /// The columns, in the order `init` reads them, of `games` named `g`.
    static let columns =
        "g.id, g.room, g.rules, g.ladder, g.outcome, g.winner, g.ending, g.rated, g.started_ms, g.ended_ms, g.flips, g.tournament"

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
    var tournament: String?

    init(_ row: some SQLRow) {
        id = row.int64(at: 0)
        room = row.text(at: 1)
        rules = StoredRules(json: row.text(at: 2), ladder: row.text(at: 3))
        outcome = row.text(at: 4)
        winner = row.optionalInt(at: 5)
        ending = row.text(at: 6)
        rated = row.bool(at: 7)
        started = row.int64(at: 8)
        ended = row.int64(at: 9)
        flips = row.int(at: 10)
        tournament = row.optionalText(at: 11)
    }

    /// The summary the row stores, or `damagedGame` when a code is one no version wrote.
    func summary(players: [FinishedPlayer]) throws(StoreError) -> GameSummary {
        guard let outcome = GameOutcome(code: outcome, winner: winner), let ending = GameEnding(code: ending) else {
            throw .damagedGame(GameID(id))
        }
        return GameSummary(
            room: room, rules: rules, players: players, outcome: outcome, ending: ending,
            started: WallClockTime(unixMilliseconds: started), ended: WallClockTime(unixMilliseconds: ended),
            rated: rated, tournament: tournament)
    }
}

/// One move as stored: `[milliseconds, code, seat, argument]`.
struct MoveRow: Sendable {
    var milliseconds: Int64
    var code: Int
    var seat: Int
    var argument: Int?

    init(_ row: some SQLRow) {
        milliseconds = row.int64(at: 0)
        code = row.int(at: 1)
        seat = row.int(at: 2)
        argument = row.optionalInt(at: 3)
    }
}
