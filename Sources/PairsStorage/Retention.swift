/// How long the store keeps finished games, and how much of the disk they may take: without a limit, every
/// game stays forever (about 1.1 KB each), and a day of load, or bots playing tiny games on purpose, fills
/// the disk, after which every game is lost.
///
/// Games are kept in three ranks, pruned in this order, oldest first within each:
/// - anonymous: some player's name is not claimed. Kept `anonymousDays`, and pruned first for size.
/// - claimed: every player's name is claimed, but the game is not rated. Kept until the size limit needs room.
/// - rated: pruned only when the file holds nothing else to prune, so that the size limit always holds.
///   A rated game's rating stays in the ladder after it is pruned; only its replay goes.
public struct Retention: Sendable, Hashable {
    /// Days a game with an unclaimed player is kept after it ended; nil keeps them as long as the size
    /// limit allows.
    public var anonymousDays: Int?
    /// The most the games (and everything else in the database) may take, in megabytes of 1,048,576 bytes;
    /// nil for no limit.
    public var maxMegabytes: Int?

    /// The default: 30 days of anonymous games, and a gigabyte for the whole file, which holds about
    /// 900,000 games: years of play on a LAN, a day of a load test.
    public static let standard = Retention(anonymousDays: 30, maxMegabytes: 1024)

    /// No limit: every game stays. For stores that are not a server's (tests, tools); `pairs serve` uses
    /// `standard` unless told otherwise.
    public static let keepingEverything = Retention(anonymousDays: nil, maxMegabytes: nil)

    public init(anonymousDays: Int?, maxMegabytes: Int?) {
        self.anonymousDays = anonymousDays
        self.maxMegabytes = maxMegabytes
    }

    /// The size limit in bytes.
    var maxBytes: Int64? { maxMegabytes.map { Int64($0) * 1_048_576 } }
}

/// Deletes the games `Retention` no longer keeps, a small batch at a time, on the writer's connection and
/// thread, between its batches of new games: never on the queue that runs the rooms.
///
/// Each rank has a cursor, the highest game id it has looked at and kept, so that a step reads the games
/// just after it instead of every game the policy keeps (a year of claimed games, before the first
/// anonymous one due). Ids only grow, so nothing is missed; after a restart each starts again at 0.
struct Pruner {
    /// Games deleted in one step: about 200 KB of rows, a few milliseconds of the write lock.
    static let gamesPerStep = 200
    /// Games looked at in one step, at most: bounds a step's reading however few of them it may delete.
    static let scanPerStep = 2000
    /// Once over the size limit, games are pruned down to this share of it, so that pruning runs now and
    /// then in runs rather than for every new game.
    static let lowWaterPercent: Int64 = 90

    /// The ranks of `Retention`, in the order the size limit prunes them.
    enum Rank: Int, CaseIterable {
        case anonymous, claimed, rated
    }

    let retention: Retention
    private var cursors: [Rank: Int64] = [:]
    /// Whether the file went over the size limit and has not yet been pruned down to the low-water mark.
    private var trimming = false

    init(retention: Retention) {
        self.retention = retention
    }

    /// One step at `now`: deletes at most `gamesPerStep` games in one transaction and gives their pages back
    /// to the file system. Returns how many it deleted, and whether another step is due at once.
    mutating func step(on connection: SQLiteConnection, now: WallClockTime) throws(SQLiteError) -> (pruned: Int, more: Bool) {
        // Keeping everything: not even the write lock is taken.
        guard retention != .keepingEverything else { return (0, false) }
        return try connection.transaction { () throws(SQLiteError) -> (pruned: Int, more: Bool) in
            var pruned = 0
            var more = false
            if let days = retention.anonymousDays {
                let cutoff = now.unixMilliseconds - Int64(days) * 86_400_000
                pruned += try delete(.anonymous, endedBefore: cutoff, atMost: Self.gamesPerStep, on: connection)
                more = pruned == Self.gamesPerStep
            }
            if let limit = retention.maxBytes, pruned < Self.gamesPerStep {
                let used = try Self.usedBytes(connection)
                if used > limit { trimming = true }
                if used <= limit * Self.lowWaterPercent / 100 { trimming = false }
                if trimming {
                    var deleted = 0
                    for rank in Rank.allCases where deleted == 0 {
                        deleted = try delete(rank, endedBefore: nil, atMost: Self.gamesPerStep - pruned, on: connection)
                    }
                    pruned += deleted
                    // Nothing left to delete: the rest of the file is claimed names and ladders.
                    if deleted == 0 { trimming = false }
                    more = more || trimming
                }
            }
            // The freed pages go back to the file system (auto_vacuum is incremental, `Schema`).
            if pruned > 0 { try connection.execute("PRAGMA incremental_vacuum") }
            return (pruned, more)
        }
    }

    /// The bytes the database's pages in use take: the file's size, less its free pages.
    static func usedBytes(_ connection: SQLiteConnection) throws(SQLiteError) -> Int64 {
        let pages = try connection.integer("PRAGMA page_count") ?? 0
        let free = try connection.integer("PRAGMA freelist_count") ?? 0
        let size = try connection.integer("PRAGMA page_size") ?? 0
        return Int64(pages - free) * Int64(size)
    }

    /// Deletes up to `limit` of the oldest games of `rank` (only those that ended before `cutoff`, if given),
    /// reading from the rank's cursor on; returns how many.
    private mutating func delete(
        _ rank: Rank, endedBefore cutoff: Int64?, atMost limit: Int, on connection: SQLiteConnection
    ) throws(SQLiteError) -> Int {
        let start = cursors[rank] ?? 0
        let games = try connection.rows("""
            SELECT g.id, g.ended_ms, g.rated, (SELECT min(p.claimed) FROM players p WHERE p.game_id = g.id)
            FROM games g WHERE g.id > ?1 ORDER BY g.id LIMIT ?2
            """, binding: [.integer(start), .int(Self.scanPerStep)]) { row in
            (id: row.int64(at: 0), ended: row.int64(at: 1), rank: Self.rank(rated: row.int(at: 2) == 1, allClaimed: row.optionalInt(at: 3) == 1))
        }
        var cursor = start
        var doomed: [Int64] = []
        for game in games where doomed.count < limit {
            if game.rank == rank {
                // Games end in the order of their ids: the first one young enough ends the search.
                if let cutoff, game.ended >= cutoff { break }
                doomed.append(game.id)
            }
            cursor = game.id
        }
        // Past the newest game: look from the start again next time (ids can be reused once the newest
        // games are all gone).
        cursors[rank] = games.isEmpty ? 0 : cursor
        for id in doomed {
            // The players' rows go with the game (ON DELETE CASCADE).
            try connection.run("DELETE FROM games WHERE id = ?1", binding: [.integer(id)])
        }
        return doomed.count
    }

    private static func rank(rated: Bool, allClaimed: Bool) -> Rank {
        rated ? .rated : allClaimed ? .claimed : .anonymous
    }
}
