/// What a server asks of the store that outlives it, whichever engine holds it: `GameStore` on one SQLite
/// file, or `PostgresStore` (with the Cluster trait) on a PostgreSQL database that several servers share.
///
/// Both write finished games off the caller's thread (`record` returns at once; `StorageEvent.settled`
/// says when a game is committed) and block their caller for queries and claims: call those off any queue
/// that must stay responsive, such as the one that runs the rooms.
public protocol PairsStore: AnyObject, Sendable {
    /// Where the store lives, for the log: the file's path, or the database's URL without its password.
    var path: String { get }

    /// Hands a finished game to the writer and returns at once, with its ticket for `StorageEvent.settled`,
    /// or nil when the writer is too far behind to take it. Fails only when the record contradicts itself.
    @discardableResult
    func record(_ game: GameRecord) throws(GameRecordError) -> UInt64?
    /// Hands a finished tournament's record to the writer behind the games handed over before it; as
    /// `record(_:)` for a game.
    @discardableResult
    func record(_ tournament: TournamentRecord) throws(GameRecordError) -> UInt64?
    /// Waits until every game handed to `record(_:)` so far is committed (or has failed).
    func flush()
    /// Sends every event from now on to `watcher` as well; one watcher at a time.
    func watch(_ watcher: @escaping @Sendable (StorageEvent) -> Void)

    /// Failures while running.
    var storageErrors: Int { get }
    /// Games in the database.
    var gamesStored: Int { get }
    /// Games deleted by the retention policy since the store opened.
    var gamesPruned: Int { get }
    /// Games handed to `record(_:)` and not yet committed.
    var gamesWaiting: Int { get }
    /// Whether the store is keeping games: false from a failure of the store as a whole until a commit
    /// succeeds again.
    var isHealthy: Bool { get }

    /// Finished games, newest first, filtered by player, ladder and tournament key, paged back by id.
    func history(name: String?, ladder: String?, tournament: String?, limit: Int, before: GameID?) throws(StoreError) -> [HistoryEntry]
    /// The game with `id` in full, or nil when there is none.
    func replay(_ id: GameID) throws(StoreError) -> StoredGame?
    /// The best ratings on `ladder`, highest first.
    func leaderboard(ladder: String, limit: Int) throws(StoreError) -> [Ranked<RatingRecord>]
    /// `name`'s rating on `ladder`, rounded, or nil before its first rated game there.
    func rating(of name: String, ladder: String) throws(StoreError) -> Int?
    /// The best solo records on `ladder`, by `ranking`.
    func soloLeaderboard(ladder: String, ranking: SoloRanking, limit: Int) throws(StoreError) -> [Ranked<SoloRecord>]
    /// Everything about `name` (in the tournament whose key is `tournament`, when given), or nil when the
    /// store has never heard of it.
    func profile(name: String, tournament: String?) throws(StoreError) -> Profile?
    /// Finished tournaments, the last committed first, paged back by id.
    func tournaments(limit: Int, before: Int64?) throws(StoreError) -> [StoredTournament]
    /// The finished tournament whose key is `key`, or nil.
    func tournament(key: String) throws(StoreError) -> StoredTournament?

    /// Whether `name` is claimed, from memory.
    func isClaimed(_ name: String) -> Bool
    /// Whether `name` is free, claimed, or looks like a claimed name, from memory.
    func standing(of name: String) -> NameStanding
    /// Claims `name` with `password` if neither it nor a look-alike is claimed; otherwise checks `password`.
    func claimOrVerify(name: String, password: String) throws(StoreError) -> NameCheck
}

/// The defaults `GameStore`'s own methods have, for callers that hold any store.
extension PairsStore {
    public func history(
        name: String? = nil, ladder: String? = nil, limit: Int = GameStore.defaultLimit
    ) throws(StoreError) -> [HistoryEntry] {
        try history(name: name, ladder: ladder, tournament: nil, limit: limit, before: nil)
    }

    public func history(name: String?, ladder: String?, limit: Int, before: GameID?) throws(StoreError) -> [HistoryEntry] {
        try history(name: name, ladder: ladder, tournament: nil, limit: limit, before: before)
    }

    public func profile(name: String) throws(StoreError) -> Profile? {
        try profile(name: name, tournament: nil)
    }

    public func leaderboard(ladder: String) throws(StoreError) -> [Ranked<RatingRecord>] {
        try leaderboard(ladder: ladder, limit: GameStore.defaultLimit)
    }

    public func soloLeaderboard(ladder: String, ranking: SoloRanking = .bestTime) throws(StoreError) -> [Ranked<SoloRecord>] {
        try soloLeaderboard(ladder: ladder, ranking: ranking, limit: GameStore.defaultLimit)
    }
}

extension GameStore: PairsStore {}
