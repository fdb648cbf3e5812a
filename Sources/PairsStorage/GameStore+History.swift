import PairsRecords

/// History, replays, leaderboards and profiles: the queries themselves are `StoreReading`'s, shared with
/// the PostgreSQL store.
extension GameStore: StoreReading {
    /// How many games, or leaderboard rows, one query returns at most: a screenful up to a page.
    public static let limitRange = 1...100
    /// How many when the caller does not say.
    public static let defaultLimit = 20
    /// How many finished tournaments one page lists at most: each comes with its standings (up to a
    /// thousand rows), so a page is kept smaller than a page of games.
    public static let tournamentLimitRange = 1...20
    /// How many recent games a profile shows.
    public static let profileGames = 10

    /// Finished games, newest first: all of them, or those `name` played, or those on `ladder`, or those of
    /// a tournament, or any combination. `before` pages back: only games with a smaller id (the last id of the
    /// previous page).
    public func history(
        name: String? = nil, ladder: String? = nil, tournament: String? = nil, limit: Int = GameStore.defaultLimit,
        before: GameID? = nil
    ) throws(StoreError) -> [HistoryEntry] {
        try findHistory(name: name, ladder: ladder, tournament: tournament, limit: limit, before: before)
    }

    /// The game with `id` in full (deal, moves, players, rules), or nil when there is none.
    public func replay(_ id: GameID) throws(StoreError) -> StoredGame? {
        try findReplay(id)
    }

    /// The best ratings on `ladder`, highest first.
    public func leaderboard(ladder: String, limit: Int = GameStore.defaultLimit) throws(StoreError) -> [Ranked<RatingRecord>] {
        try findLeaderboard(ladder: ladder, limit: limit)
    }

    /// `name`'s rating on `ladder`, rounded, or nil before its first rated game there.
    public func rating(of name: String, ladder: String) throws(StoreError) -> Int? {
        try findRating(of: name, ladder: ladder)
    }

    /// The best solo records on `ladder`, by `ranking`.
    public func soloLeaderboard(
        ladder: String, ranking: SoloRanking = .bestTime, limit: Int = GameStore.defaultLimit
    ) throws(StoreError) -> [Ranked<SoloRecord>] {
        try findSoloLeaderboard(ladder: ladder, ranking: ranking, limit: limit)
    }

    /// Everything about `name` (in `tournament` only, when given), or nil when the store has never heard of it.
    public func profile(name: String, tournament: String? = nil) throws(StoreError) -> Profile? {
        try findProfile(name: name, tournament: tournament)
    }

    /// Finished tournaments, the last committed first; `before` pages back by id.
    public func tournaments(limit: Int = 10, before: Int64? = nil) throws(StoreError) -> [StoredTournament] {
        try findTournaments(limit: limit, before: before)
    }

    /// The finished tournament whose key is `key`, or nil.
    public func tournament(key: String) throws(StoreError) -> StoredTournament? {
        try findTournament(key: key)
    }

    /// Runs `body` on the request connection in one transaction, so that a query sees one moment of the
    /// database even while the writer commits. Reads need no more than a deferred transaction.
    func read<Result>(_ body: (SQLiteConnection) throws(SQLiteError) -> Result) throws(StoreError) -> Result {
        do throws(SQLiteError) {
            return try requests.withConnection { connection throws(SQLiteError) -> Result in
                try connection.transaction(.deferred) { () throws(SQLiteError) in try body(connection) }
            }
        } catch {
            throw .database(.sqlite(error))
        }
    }
}
