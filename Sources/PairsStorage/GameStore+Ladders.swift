import PairsRecords

/// Leaderboards and profiles.
extension GameStore {
    /// The best ratings on `ladder`, highest first; among equal ratings the surer one (smaller deviation)
    /// first, then by name. Provisional ratings are included, marked as such.
    public func leaderboard(ladder: String, limit: Int = GameStore.defaultLimit) throws(StoreError) -> [Ranked<RatingRecord>] {
        guard Self.limitRange.contains(limit) else { throw .limitOutOfRange(limit) }
        let records = try read { connection throws(SQLiteError) in
            try connection.rows(
                "SELECT \(Self.ratingColumns) FROM ratings WHERE ladder = ?1 "
                    + "ORDER BY rating DESC, deviation ASC, name ASC LIMIT ?2",
                binding: [.text(ladder), .int(limit)], Self.ratingRecord)
        }
        return records.enumerated().map { Ranked(rank: $0.offset + 1, record: $0.element) }
    }

    /// The best solo records on `ladder`, by `ranking`; names without a clear yet come last.
    public func soloLeaderboard(
        ladder: String, ranking: SoloRanking = .bestTime, limit: Int = GameStore.defaultLimit
    ) throws(StoreError) -> [Ranked<SoloRecord>] {
        guard Self.limitRange.contains(limit) else { throw .limitOutOfRange(limit) }
        let order = switch ranking {
        case .bestTime: "best_ms ASC NULLS LAST, fewest_flips ASC"
        case .fewestFlips: "fewest_flips ASC NULLS LAST, best_ms ASC"
        }
        let records = try read { connection throws(SQLiteError) in
            try connection.rows(
                "SELECT \(Self.soloColumns) FROM solo_records WHERE ladder = ?1 ORDER BY \(order), name ASC LIMIT ?2",
                binding: [.text(ladder), .int(limit)], Self.soloRecord)
        }
        return records.enumerated().map { Ranked(rank: $0.offset + 1, record: $0.element) }
    }

    /// How many recent games a profile shows.
    public static let profileGames = 10

    /// Everything about `name`: claimed or not, its ratings and solo records, totals over every game it
    /// played, and its last games. Nil when the store has never heard of the name.
    public func profile(name: String) throws(StoreError) -> Profile? {
        let found = try read { connection throws(SQLiteError) in
            let claimed = try connection.integer("SELECT count(*) FROM names WHERE name = ?1", binding: [.text(name)]) ?? 0
            let ratings = try connection.rows(
                "SELECT \(Self.ratingColumns) FROM ratings WHERE name = ?1 ORDER BY ladder",
                binding: [.text(name)], Self.ratingRecord)
            let solo = try connection.rows(
                "SELECT \(Self.soloColumns) FROM solo_records WHERE name = ?1 ORDER BY ladder",
                binding: [.text(name)], Self.soloRecord)
            let totals = try connection.rows("""
                SELECT count(*) FILTER (WHERE g.outcome IN ('won', 'draw')),
                       count(*) FILTER (WHERE g.outcome = 'won' AND g.winner = p.seat),
                       count(*) FILTER (WHERE g.outcome = 'won' AND g.winner <> p.seat),
                       count(*) FILTER (WHERE g.outcome = 'draw'),
                       count(*) FILTER (WHERE g.outcome IN ('solo_cleared', 'solo_lost')),
                       count(*) FILTER (WHERE g.outcome = 'solo_cleared')
                FROM players p JOIN games g ON g.id = p.game_id WHERE p.name = ?1
                """, binding: [.text(name)]) { row in
                Profile.Totals(
                    games: row.int(at: 0), wins: row.int(at: 1), losses: row.int(at: 2), draws: row.int(at: 3),
                    soloPlayed: row.int(at: 4), soloCleared: row.int(at: 5))
            }[0]
            return (claimed > 0, ratings, solo, totals)
        }
        let (isClaimed, ratings, solo, totals) = found
        guard isClaimed || totals.games + totals.soloPlayed > 0 else { return nil }
        let lastGames = try history(name: name, limit: Self.profileGames)
        return Profile(
            name: name, isClaimed: isClaimed, ratings: ratings, solo: solo, totals: totals, lastGames: lastGames)
    }

    private static let ratingColumns = "ladder, name, rating, deviation, games, wins, losses, draws"

    private static func ratingRecord(_ row: SQLiteStatement) -> RatingRecord {
        let deviation = row.double(at: 3)
        return RatingRecord(
            ladder: row.text(at: 0), name: row.text(at: 1), rating: Int(row.double(at: 2).rounded()),
            deviation: Int(deviation.rounded()), isProvisional: deviation > Glicko2Rating.provisionalDeviation,
            games: row.int(at: 4), wins: row.int(at: 5), losses: row.int(at: 6), draws: row.int(at: 7))
    }

    private static let soloColumns = "ladder, name, played, cleared, best_ms, fewest_flips"

    private static func soloRecord(_ row: SQLiteStatement) -> SoloRecord {
        SoloRecord(
            ladder: row.text(at: 0), name: row.text(at: 1), played: row.int(at: 2), cleared: row.int(at: 3),
            bestMilliseconds: row.optionalInt(at: 4), fewestFlips: row.optionalInt(at: 5))
    }
}
