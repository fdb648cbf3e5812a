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
public final class PostgresStore: PairsStore, StoreReading {
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

    @discardableResult
    public func record(_ tournament: TournamentRecord) throws(GameRecordError) -> UInt64? {
        try tournament.validate()
        return writer.submit(tournament)
    }

    public func flush() { writer.flush() }
    public var storageErrors: Int { writer.errors.load(ordering: .relaxed) }
    public var gamesStored: Int { writer.stored.load(ordering: .relaxed) }
    public var gamesPruned: Int { writer.pruned.load(ordering: .relaxed) }
    public var gamesWaiting: Int { writer.waiting }
    public var isHealthy: Bool { writer.isHealthy }

    public func watch(_ watcher: @escaping @Sendable (StorageEvent) -> Void) {
        relay.watch(watcher)
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

    public func history(name: String?, ladder: String?, tournament: String?, limit: Int, before: GameID?) throws(StoreError) -> [HistoryEntry] {
        try findHistory(name: name, ladder: ladder, tournament: tournament, limit: limit, before: before)
    }

    public func replay(_ id: GameID) throws(StoreError) -> StoredGame? {
        try findReplay(id)
    }

    public func leaderboard(ladder: String, limit: Int) throws(StoreError) -> [Ranked<RatingRecord>] {
        try findLeaderboard(ladder: ladder, limit: limit)
    }

    public func rating(of name: String, ladder: String) throws(StoreError) -> Int? {
        try findRating(of: name, ladder: ladder)
    }

    public func soloLeaderboard(ladder: String, ranking: SoloRanking, limit: Int) throws(StoreError) -> [Ranked<SoloRecord>] {
        try findSoloLeaderboard(ladder: ladder, ranking: ranking, limit: limit)
    }

    public func profile(name: String, tournament: String?) throws(StoreError) -> Profile? {
        try findProfile(name: name, tournament: tournament)
    }

    public func tournaments(limit: Int, before: Int64?) throws(StoreError) -> [StoredTournament] {
        try findTournaments(limit: limit, before: before)
    }

    public func tournament(key: String) throws(StoreError) -> StoredTournament? {
        try findTournament(key: key)
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

    func commit(_ batch: [StoreWrite]) -> Result<(committed: Int, failures: [StorageFailure]), DatabaseError> {
        var failures: [StorageFailure] = []
        let outcome = connection.withConnection { connection -> Result<Int, PostgresError> in
            do throws(PostgresError) {
                return .success(try connection.transaction { () throws(PostgresError) in
                    try GameInserts.insert(batch, on: connection, ladders: ladders, failures: &failures)
                })
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let committed): return .success((committed, failures))
        case .failure(let error): return .failure(.postgres(error))
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
