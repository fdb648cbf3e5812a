#if Cluster
import PairsRecords
import Dispatch
import Synchronization

/// What outlives the server, in a PostgreSQL database that several servers share: the same finished
/// games, claimed names and ladders as `GameStore`'s SQLite file, with the same schema versions.
///
/// Three connections, as `GameStore` has: the writer's (its batches on a thread of its own, through the
/// same `GameWriter`), one for queries, one for claims. A connection the database dropped is opened again
/// before its next statement, so the store recovers by itself when the database comes back; meanwhile
/// queries and claims fail with `StoreError.database` and batches with `StorageFailure.batchFailed`.
///
/// What differs from the SQLite store, and why:
/// - No file lock: several servers using one database is the point. Claims of look-alike names from two
///   servers take turns on an advisory lock keyed by the skeleton, so exactly one wins.
/// - Claimed names are in memory as in `GameStore`, and names claimed through other servers are read
///   every `nameRefreshMilliseconds`; a claim through this server that meets one not read yet learns it
///   from the database (the insert finds it) and answers as if it had known.
/// - The retention policy prunes anonymous games by age only: PostgreSQL does not give deleted rows'
///   space back to the file system (that is VACUUM FULL, which locks the tables), so a size limit would
///   prune everything and gain nothing. The database's size is its operator's to watch.
/// - `gamesStored` and `gamesPruned` count what this server saw at start and did since, not the other
///   servers' games.
public final class PostgresStore: PairsStore {
    /// The database's URL, without its password.
    public let path: String
    let writer: GameWriter
    let requests: LockedPostgres
    let claims: LockedPostgres
    let ladders = Ladders(tau: Glicko2Rating.productionTau)
    let claimedNames: ClaimedNames
    private let relay: EventRelay
    /// Where names claimed through other servers are read, every `nameRefreshMilliseconds` while the store lives.
    private let nameRefresh = DispatchQueue(label: "pairs.storage.names")
    /// The newest `claimed_ms` read so far, from which the next refresh reads (less its overlap).
    private let namesReadThrough: Mutex<Int64>

    /// How often names claimed through other servers are read: a name claimed elsewhere is known here,
    /// for `isClaimed` and `standing`, within about this long.
    static let nameRefreshMilliseconds = 1000
    /// How far back each refresh reads before the newest claim it has seen: the servers' clocks, which
    /// stamp `claimed_ms`, may disagree by this much, and a claim may commit a little after its stamp.
    static let nameRefreshOverlapMilliseconds: Int64 = 60_000

    /// Connects to the database at `url` (`postgresql://USER@HOST:PORT/DB`), creating the tables on first
    /// use and migrating them to the current schema, and loads the claimed names.
    ///
    /// Fails with a `StoreOpenError` whose description is the one line to print: the database cannot be
    /// reached, holds another program's tables, or is from a newer Pairs.
    public init(
        url: String, retention: Retention = .keepingEverything,
        onFailure: @escaping @Sendable (StorageFailure) -> Void = { _ in }
    ) throws(StoreOpenError) {
        let shown = PostgresURL.withoutPassword(url)
        path = shown
        let writing = try Self.connect(url, shown: shown)
        try PostgresSchema.migrate(writing, url: shown, ladders: ladders)
        let stored: Int
        let names: [(name: String, hash: String, skeleton: String, claimed: Int64)]
        do throws(PostgresError) {
            stored = try writing.integer("SELECT count(*) FROM games") ?? 0
            names = try Self.names(claimedSince: .min, on: writing)
        } catch {
            throw .postgres(url: shown, error)
        }
        claimedNames = ClaimedNames(names.map { ($0.name, $0.hash, $0.skeleton) })
        namesReadThrough = Mutex(names.map(\.claimed).max() ?? .min)
        requests = Locked(try Self.connect(url, shown: shown))
        claims = Locked(try Self.connect(url, shown: shown))
        let relay = EventRelay(onFailure: onFailure)
        self.relay = relay
        let sink = PostgresGameSink(connection: Locked(writing), ladders: ladders, retention: retention)
        writer = GameWriter(sink: sink, stored: stored, report: { relay.deliver($0) })
        scheduleNameRefresh()
    }

    deinit {
        writer.flush()
    }

    /// Reads the names claimed elsewhere in a while, and again after that, for as long as the store lives.
    private func scheduleNameRefresh() {
        nameRefresh.asyncAfter(deadline: .now() + .milliseconds(Self.nameRefreshMilliseconds)) { [weak self] in
            guard let self else { return }
            refreshNames()
            scheduleNameRefresh()
        }
    }

    private static func connect(_ url: String, shown: String) throws(StoreOpenError) -> PostgresConnection {
        do throws(PostgresError) {
            return try PostgresConnection(url: url)
        } catch {
            throw .unreachable(url: shown, error)
        }
    }

    private static func names(
        claimedSince since: Int64, on connection: PostgresConnection
    ) throws(PostgresError) -> [(name: String, hash: String, skeleton: String, claimed: Int64)] {
        try connection.rows("SELECT name, password_hash, skeleton, claimed_ms FROM names WHERE claimed_ms >= $1",
                            binding: [.integer(since)]) {
            (name: $0.text(at: 0), hash: $0.text(at: 1), skeleton: $0.text(at: 2), claimed: $0.int64(at: 3))
        }
    }

    /// Reads the names claimed since the last refresh (less the overlap). A failure waits for the next.
    private func refreshNames() {
        let since = namesReadThrough.withLock { $0 == .min ? .min : $0 - Self.nameRefreshOverlapMilliseconds }
        guard let names = try? claims.withConnection({ connection throws(PostgresError) in
            try Self.names(claimedSince: since, on: connection)
        }) else { return }
        for name in names { claimedNames.add(name.name, hash: name.hash, skeleton: name.skeleton) }
        if let newest = names.map(\.claimed).max() { namesReadThrough.withLock { $0 = max($0, newest) } }
    }

    // MARK: Writing

    @discardableResult
    public func record(_ game: GameRecord) throws(GameRecordError) -> UInt64? {
        try game.validate()
        return writer.submit(game)
    }

    public func flush() { writer.flush() }
    public var storageErrors: Int { writer.errors.load(ordering: .relaxed) }
    public var gamesStored: Int { writer.stored.load(ordering: .relaxed) }
    public var gamesPruned: Int { writer.pruned.load(ordering: .relaxed) }
    public var gamesWaiting: Int { writer.waiting }
    public var isHealthy: Bool { writer.isHealthy }

    public func watch(_ watcher: @escaping @Sendable (StorageEvent) -> Void) {
        relay.watcher.withLock { $0 = watcher }
    }

    /// Prunes what the retention policy no longer keeps at `now`, and returns when done. For tests.
    func prune(now: WallClockTime = .now()) {
        writer.pruneAll(now: now)
    }

    // MARK: Reading

    /// Runs `body` on the query connection in one read-only transaction that sees one moment of the
    /// database (REPEATABLE READ), even while the writers of every server commit.
    func read<Result>(_ body: (PostgresConnection) throws(PostgresError) -> Result) throws(StoreError) -> Result {
        do throws(PostgresError) {
            return try requests.withConnection { connection throws(PostgresError) -> Result in
                try connection.transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { () throws(PostgresError) in
                    try body(connection)
                }
            }
        } catch {
            throw .database(.postgres(error))
        }
    }

    public func history(name: String?, ladder: String?, limit: Int, before: GameID?) throws(StoreError) -> [HistoryEntry] {
        guard GameStore.limitRange.contains(limit) else { throw .limitOutOfRange(limit) }
        // Only the filters given are bound: PostgreSQL cannot type a parameter the statement never uses.
        var values: [PostgresValue] = [.integer(before?.rawValue ?? .max), .int(limit)]
        var conditions = ["g.id < $1"]
        if let name {
            values.append(.text(name))
            conditions.append("g.id IN (SELECT game_id FROM players WHERE name = $\(values.count))")
        }
        if let ladder {
            values.append(.text(ladder))
            conditions.append("g.ladder = $\(values.count)")
        }
        let sql = "SELECT \(GameRow.columns) FROM games g WHERE \(conditions.joined(separator: " AND ")) ORDER BY g.id DESC LIMIT $2"
        let rows = try read { connection throws(PostgresError) in
            try connection.rows(sql, binding: values, GameRow.init)
                .map { row throws(PostgresError) in (row, try Self.players(of: row.id, on: connection)) }
        }
        var entries: [HistoryEntry] = []
        for (row, players) in rows {
            entries.append(HistoryEntry(id: GameID(row.id), summary: try row.summary(players: players), flips: row.flips))
        }
        return entries
    }

    public func replay(_ id: GameID) throws(StoreError) -> StoredGame? {
        let found = try read { connection throws(PostgresError) in
            guard let row = try connection.rows(
                "SELECT \(GameRow.columns) FROM games g WHERE g.id = $1", binding: [.integer(id.rawValue)], GameRow.init
            ).first else { return nil as (GameRow, [FinishedPlayer], [String], [MoveRow])? }
            let deal = try connection.rows("""
                SELECT face FROM json_array_elements_text((SELECT deal FROM games WHERE id = $1)) WITH ORDINALITY AS t(face, n)
                ORDER BY n
                """, binding: [.integer(id.rawValue)]) { $0.text(at: 0) }
            let moves = try connection.rows("""
                SELECT (m ->> 0)::bigint, (m ->> 1)::integer, (m ->> 2)::integer, (m ->> 3)::integer
                FROM json_array_elements((SELECT moves FROM games WHERE id = $1)) WITH ORDINALITY AS t(m, n) ORDER BY n
                """, binding: [.integer(id.rawValue)], MoveRow.init)
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

    static func players(of id: Int64, on connection: PostgresConnection) throws(PostgresError) -> [FinishedPlayer] {
        try connection.rows("SELECT name, claimed, score FROM players WHERE game_id = $1 ORDER BY seat", binding: [.integer(id)]) { row in
            FinishedPlayer(name: row.text(at: 0), claimed: row.bool(at: 1), score: row.int(at: 2))
        }
    }

    // Names sort byte by byte (COLLATE "C"), as SQLite sorts them, whatever the database's own collation.
    private static let ratingColumns = "ladder, name, rating, deviation, games, wins, losses, draws"
    private static let soloColumns = "ladder, name, played, cleared, best_ms, fewest_flips"

    public func leaderboard(ladder: String, limit: Int) throws(StoreError) -> [Ranked<RatingRecord>] {
        guard GameStore.limitRange.contains(limit) else { throw .limitOutOfRange(limit) }
        let records = try read { connection throws(PostgresError) in
            try connection.rows(
                "SELECT \(Self.ratingColumns) FROM ratings WHERE ladder = $1 "
                    + "ORDER BY rating DESC, deviation ASC, name COLLATE \"C\" ASC LIMIT $2",
                binding: [.text(ladder), .int(limit)], Self.ratingRecord)
        }
        return records.enumerated().map { Ranked(rank: $0.offset + 1, record: $0.element) }
    }

    public func soloLeaderboard(ladder: String, ranking: SoloRanking, limit: Int) throws(StoreError) -> [Ranked<SoloRecord>] {
        guard GameStore.limitRange.contains(limit) else { throw .limitOutOfRange(limit) }
        let order = switch ranking {
        case .bestTime: "best_ms ASC NULLS LAST, fewest_flips ASC"
        case .fewestFlips: "fewest_flips ASC NULLS LAST, best_ms ASC"
        }
        let records = try read { connection throws(PostgresError) in
            try connection.rows(
                "SELECT \(Self.soloColumns) FROM solo_records WHERE ladder = $1 ORDER BY \(order), name COLLATE \"C\" ASC LIMIT $2",
                binding: [.text(ladder), .int(limit)], Self.soloRecord)
        }
        return records.enumerated().map { Ranked(rank: $0.offset + 1, record: $0.element) }
    }

    public func profile(name: String) throws(StoreError) -> Profile? {
        let found = try read { connection throws(PostgresError) in
            let claimed = try connection.integer("SELECT count(*) FROM names WHERE name = $1", binding: [.text(name)]) ?? 0
            let ratings = try connection.rows(
                "SELECT \(Self.ratingColumns) FROM ratings WHERE name = $1 ORDER BY ladder COLLATE \"C\"",
                binding: [.text(name)], Self.ratingRecord)
            let solo = try connection.rows(
                "SELECT \(Self.soloColumns) FROM solo_records WHERE name = $1 ORDER BY ladder COLLATE \"C\"",
                binding: [.text(name)], Self.soloRecord)
            let totals = try connection.rows("""
                SELECT count(*) FILTER (WHERE g.outcome IN ('won', 'draw')),
                       count(*) FILTER (WHERE g.outcome = 'won' AND g.winner = p.seat),
                       count(*) FILTER (WHERE g.outcome = 'won' AND g.winner <> p.seat),
                       count(*) FILTER (WHERE g.outcome = 'draw'),
                       count(*) FILTER (WHERE g.outcome IN ('solo_cleared', 'solo_lost')),
                       count(*) FILTER (WHERE g.outcome = 'solo_cleared')
                FROM players p JOIN games g ON g.id = p.game_id WHERE p.name = $1
                """, binding: [.text(name)]) { row in
                Profile.Totals(
                    games: row.int(at: 0), wins: row.int(at: 1), losses: row.int(at: 2), draws: row.int(at: 3),
                    soloPlayed: row.int(at: 4), soloCleared: row.int(at: 5))
            }[0]
            return (claimed > 0, ratings, solo, totals)
        }
        let (isClaimed, ratings, solo, totals) = found
        guard isClaimed || totals.games + totals.soloPlayed > 0 else { return nil }
        let lastGames = try history(name: name, ladder: nil, limit: GameStore.profileGames, before: nil)
        return Profile(name: name, isClaimed: isClaimed, ratings: ratings, solo: solo, totals: totals, lastGames: lastGames)
    }

    private static func ratingRecord(_ row: PostgresRow) -> RatingRecord {
        let deviation = row.double(at: 3)
        return RatingRecord(
            ladder: row.text(at: 0), name: row.text(at: 1), rating: Int(row.double(at: 2).rounded()),
            deviation: Int(deviation.rounded()), isProvisional: deviation > Glicko2Rating.provisionalDeviation,
            games: row.int(at: 4), wins: row.int(at: 5), losses: row.int(at: 6), draws: row.int(at: 7))
    }

    private static func soloRecord(_ row: PostgresRow) -> SoloRecord {
        SoloRecord(
            ladder: row.text(at: 0), name: row.text(at: 1), played: row.int(at: 2), cleared: row.int(at: 3),
            bestMilliseconds: row.optionalInt(at: 4), fewestFlips: row.optionalInt(at: 5))
    }

    // MARK: Names

    public func isClaimed(_ name: String) -> Bool {
        claimedNames.hash(of: name) != nil
    }

    public func standing(of name: String) -> NameStanding {
        claimedNames.standing(of: name)
    }

    public func claimOrVerify(name: String, password: String) throws(StoreError) -> NameCheck {
        try claimedNames.claimOrVerify(name: name, password: password) { claim throws(StoreError) in
            do throws(PostgresError) {
                return try claims.withConnection { connection throws(PostgresError) in
                    try connection.transaction { () throws(PostgresError) -> [(name: String, hash: String)] in
                        // Claims of look-alikes, from any server, take turns here; the insert's NOT EXISTS then
                        // sees the one committed before.
                        _ = try connection.rows("SELECT pg_advisory_xact_lock($1, hashtext($2))",
                                                binding: [.int(Schema.applicationID), .text(claim.skeleton)]) { _ in () }
                        let inserted = try connection.run("""
                            INSERT INTO names (name, password_hash, claimed_ms, skeleton) SELECT $1, $2, $3, $4
                            WHERE NOT EXISTS (SELECT 1 FROM names WHERE skeleton = $4 OR name = $1)
                            """, binding: [.text(claim.name), .text(claim.hash), .integer(WallClockTime.now().unixMilliseconds),
                                           .text(claim.skeleton)])
                        if inserted == 1 { return [] }
                        return try connection.rows(
                            "SELECT name, password_hash FROM names WHERE skeleton = $1 OR name = $2 ORDER BY name = $2 DESC, name COLLATE \"C\"",
                            binding: [.text(claim.skeleton), .text(claim.name)]) { (name: $0.text(at: 0), hash: $0.text(at: 1)) }
                    }
                }
            } catch {
                throw .database(.postgres(error))
            }
        }
    }
}

extension GameRow {
    init(_ row: PostgresRow) {
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
    }
}

extension MoveRow {
    init(_ row: PostgresRow) {
        milliseconds = row.int64(at: 0)
        code = row.int(at: 1)
        seat = row.int(at: 2)
        argument = row.optionalInt(at: 3)
    }
}

/// The PostgreSQL database's side of the writer: each batch in one transaction, a savepoint per game,
/// the ladder's update inside the game's transaction.
final class PostgresGameSink: GameSink {
    private let connection: LockedPostgres
    private let ladders: Ladders
    private let retention: Retention

    init(connection: LockedPostgres, ladders: Ladders, retention: Retention) {
        self.connection = connection
        self.ladders = ladders
        self.retention = retention
    }

    func commit(_ batch: [GameRecord]) -> Result<(committed: Int, failures: [StorageFailure]), DatabaseError> {
        var failures: [StorageFailure] = []
        var committed = 0
        let outcome = connection.withConnection { connection -> PostgresError? in
            do throws(PostgresError) {
                try connection.transaction { () throws(PostgresError) in
                    for game in batch {
                        do throws(PostgresError) {
                            try connection.savepoint { () throws(PostgresError) in
                                try insert(game, on: connection, failures: &failures)
                            }
                            committed += 1
                        } catch where error.refusesRow {
                            failures.append(.gameRefused(.postgres(error), room: game.summary.room))
                        }
                    }
                }
                return nil
            } catch {
                return error
            }
        }
        if let outcome { return .failure(.postgres(outcome)) }
        return .success((committed, failures))
    }

    private func insert(_ game: GameRecord, on connection: PostgresConnection, failures: inout [StorageFailure]) throws(PostgresError) {
        let summary = game.summary
        // The deal as one parameter per face, made into a JSON array by PostgreSQL, which escapes the faces.
        let faces = (0..<game.deal.count).map { "$\($0 + 12)::text" }.joined(separator: ", ")
        let ids = try connection.rows("""
            INSERT INTO games (room, rules, ladder, outcome, winner, ending, rated, started_ms, ended_ms, flips, moves, deal)
            VALUES ($1, $2::json, $3, $4, $5::integer, $6, $7::boolean, $8::bigint, $9::bigint, $10::integer, $11::json,
                    array_to_json(ARRAY[\(faces)]))
            RETURNING id
            """, binding: [
                .text(summary.room), .text(summary.rules.json), .text(summary.rules.ladder), .text(summary.outcome.code),
                .optionalInt(summary.outcome.winner), .text(summary.ending.code), .bool(summary.rated),
                .integer(summary.started.unixMilliseconds), .integer(summary.ended.unixMilliseconds), .int(game.flips),
                .text(SQLiteGameSink.movesJSON(game.moves)),
            ] + game.deal.map { .text($0) }) { $0.int64(at: 0) }
        let id = ids.first ?? 0
        for (seat, player) in summary.players.enumerated() {
            try connection.run(
                "INSERT INTO players (game_id, seat, name, claimed, score) VALUES ($1, $2, $3, $4, $5)",
                binding: [.integer(id), .int(seat), .text(player.name), .bool(player.claimed), .int(player.score)])
        }
        guard summary.rated else { return }
        let result = Ladders.Result(
            ladder: summary.rules.ladder, names: summary.players.map(\.name), outcome: summary.outcome,
            flips: game.flips, lastMoveMilliseconds: game.moves.last?.milliseconds ?? 0)
        do throws(PostgresError) {
            try connection.savepoint { () throws(PostgresError) in try ladders.apply(result, on: connection) }
        } catch where error.refusesRow {
            failures.append(.ladderNotUpdated(.postgres(error), game: GameID(id)))
        }
    }

    /// Anonymous games past their days, `Pruner.gamesPerStep` at a time; the size limit is not kept here
    /// (see `PostgresStore`).
    func prune(now: WallClockTime) -> Result<(pruned: Int, more: Bool), DatabaseError> {
        guard let days = retention.anonymousDays else { return .success((0, false)) }
        let cutoff = now.unixMilliseconds - Int64(days) * 86_400_000
        do throws(PostgresError) {
            let pruned = try connection.withConnection { connection throws(PostgresError) in
                // The players' rows go with the game (ON DELETE CASCADE).
                try connection.run("""
                    DELETE FROM games WHERE id IN (
                        SELECT g.id FROM games g
                        WHERE g.ended_ms < $1 AND NOT g.rated
                          AND EXISTS (SELECT 1 FROM players p WHERE p.game_id = g.id AND NOT p.claimed)
                        ORDER BY g.id LIMIT $2)
                    """, binding: [.integer(cutoff), .int(Pruner.gamesPerStep)])
            }
            return .success((pruned, pruned == Pruner.gamesPerStep))
        } catch {
            return .failure(.postgres(error))
        }
    }
}
#endif
