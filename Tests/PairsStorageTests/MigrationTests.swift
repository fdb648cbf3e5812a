@testable import PairsStorage
import PairsTestSupport
import Testing

/// Schema version 1 as the first release wrote it, frozen here: a migration test must start from what old
/// files really hold, not from whatever the migration code says today.
private let versionOneSchema = """
    CREATE TABLE names (name TEXT PRIMARY KEY NOT NULL, password_hash TEXT NOT NULL, claimed_ms INTEGER NOT NULL) STRICT;
    CREATE TABLE games (id INTEGER PRIMARY KEY, room TEXT NOT NULL, rules TEXT NOT NULL CHECK (json_valid(rules)), \
    ladder TEXT NOT NULL, outcome TEXT NOT NULL, winner INTEGER CHECK (winner IN (0, 1)), ending TEXT NOT NULL, \
    rated INTEGER NOT NULL CHECK (rated IN (0, 1)), started_ms INTEGER NOT NULL, ended_ms INTEGER NOT NULL, \
    flips INTEGER NOT NULL, deal TEXT NOT NULL CHECK (json_valid(deal)), moves TEXT NOT NULL CHECK (json_valid(moves))) STRICT;
    CREATE INDEX games_by_ladder ON games (ladder, id);
    CREATE TABLE players (game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE, \
    seat INTEGER NOT NULL CHECK (seat IN (0, 1)), name TEXT NOT NULL, claimed INTEGER NOT NULL CHECK (claimed IN (0, 1)), \
    score INTEGER NOT NULL, PRIMARY KEY (game_id, seat)) STRICT, WITHOUT ROWID;
    CREATE INDEX players_by_name ON players (name, game_id);
    PRAGMA application_id = 1348561266;
    PRAGMA user_version = 1;
    """

/// The schema objects of the database at `path` as text without whitespace, to compare two schemas.
private func schemaText(_ path: String) throws -> [String] {
    let connection = try outsideConnection(path)
    return try connection.rows("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY name") { row in
        String(row.text(at: 0).filter { !$0.isWhitespace })
    }
}

@Test("the frozen version 1 is what the migration to version 1 builds")
func frozenVersionOneMatchesMigration() throws {
    let directory = try TemporaryDirectory()
    let byHand = try outsideConnection(directory.file("hand.db"), .readWriteCreate)
    try byHand.execute(versionOneSchema)
    let migrated = try outsideConnection(directory.file("migrated.db"), .readWriteCreate)
    try Schema.migrate(migrated, path: directory.file("migrated.db"), ladders: Ladders(tau: 0.75), upTo: 1)
    for pragma in ["user_version", "application_id"] {
        #expect(try migrated.integer("PRAGMA \(pragma)") == byHand.integer("PRAGMA \(pragma)"))
    }
    #expect(try schemaText(directory.file("hand.db")) == schemaText(directory.file("migrated.db")))
}

@Test("a version 1 database built by hand opens with today's code: games intact, ladders rebuilt from rated games")
func versionOneMigrates() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("pairs.db")
    do {
        let old = try outsideConnection(path, .readWriteCreate)
        try old.execute(versionOneSchema)
        let hash = try PasswordHash.make("secret")
        for name in ["alice", "bob", "ann"] {
            try old.run("INSERT INTO names VALUES (?1, ?2, 0)", binding: [.text(name), .text(hash)])
        }
        let rules = [SQLValue.text(classicRules.json), .text(classicRules.ladder)]
        let solo = [SQLValue.text(soloRules.json), .text(soloRules.ladder)]
        let twoFlips = SQLValue.text("[[0,1,0,0],[500,1,0,2]]")
        let insertGame = "INSERT INTO games VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 1000, 2000, ?9, '[\"x\",\"y\",\"x\",\"y\"]', ?10)"
        // 1: alice beats bob, rated. 2: bob and alice draw, rated. 3: unclaimed names, unrated.
        // 4: ann clears a solo board in 2.7 s with 4 flips, rated. 5: alice against an unclaimed name, which
        // version 1 did not prevent: stays unrated.
        try old.run(insertGame, binding: [.integer(1), .text("g1")] + rules + [.text("won"), .integer(0), .text("cleared"), .integer(1), .integer(2), twoFlips])
        try old.run(insertGame, binding: [.integer(2), .text("g2")] + rules + [.text("draw"), .null, .text("cleared"), .integer(1), .integer(2), twoFlips])
        try old.run(insertGame, binding: [.integer(3), .text("g3")] + rules + [.text("won"), .integer(1), .text("time_up"), .integer(0), .integer(2), twoFlips])
        try old.run(insertGame, binding: [.integer(4), .text("g4")] + solo + [.text("solo_cleared"), .null, .text("cleared"), .integer(1), .integer(4),
                                                                         .text("[[0,1,0,0],[900,1,0,1],[1800,1,0,2],[2700,1,0,3]]")])
        try old.run(insertGame, binding: [.integer(5), .text("g5")] + rules + [.text("won"), .integer(0), .text("forfeit_away"), .integer(1), .integer(2), twoFlips])
        let insertPlayer = "INSERT INTO players VALUES (?1, ?2, ?3, ?4, ?5)"
        for (game, seat, name, claimed, score) in [
            (1, 0, "alice", 1, 2), (1, 1, "bob", 1, 0), (2, 0, "bob", 1, 1), (2, 1, "alice", 1, 1),
            (3, 0, "carol", 0, 0), (3, 1, "dave", 0, 1), (4, 0, "ann", 1, 2), (5, 0, "alice", 1, 1), (5, 1, "ghost", 1, 0),
        ] {
            try old.run(insertPlayer, binding: [.integer(Int64(game)), .int(seat), .text(name), .int(claimed), .int(score)])
        }
    }

    let store = try openStore(path)
    let outside = try outsideConnection(path)
    #expect(try outside.integer("PRAGMA user_version") == Schema.current)
    #expect(store.gamesStored == 5)
    #expect(try store.history(limit: 100).map(\.summary.room) == ["g5", "g4", "g3", "g2", "g1"])
    let first = try #require(try store.replay(GameID(1)))
    #expect(first.record.deal == ["x", "y", "x", "y"])
    #expect(first.record.moves == [GameMove(milliseconds: 0, action: .flip(seat: 0, card: 0)), GameMove(milliseconds: 500, action: .flip(seat: 0, card: 2))])
    #expect(first.record.summary.outcome == .won(seat: 0))

    // The two rated games, replayed in order through Glicko-2.
    let tau = Glicko2Rating.productionTau
    let alice1 = Glicko2Rating.initial.updated(with: [(.initial, 1)], tau: tau)
    let bob1 = Glicko2Rating.initial.updated(with: [(.initial, 0)], tau: tau)
    let alice2 = alice1.updated(with: [(bob1, 0.5)], tau: tau)
    let bob2 = bob1.updated(with: [(alice1, 0.5)], tau: tau)
    let board = try store.leaderboard(ladder: classicRules.ladder).map(\.record)
    #expect(board.map(\.name) == ["alice", "bob"])
    #expect(board.map(\.rating) == [Int(alice2.rating.rounded()), Int(bob2.rating.rounded())])
    #expect(board.map(\.deviation) == [Int(alice2.deviation.rounded()), Int(bob2.deviation.rounded())])
    #expect(board.map { [$0.games, $0.wins, $0.losses, $0.draws] } == [[2, 1, 0, 1], [2, 0, 1, 1]])
    let soloBoard = try store.soloLeaderboard(ladder: soloRules.ladder).map(\.record)
    #expect(soloBoard == [SoloRecord(ladder: soloRules.ladder, name: "ann", played: 1, cleared: 1, bestMilliseconds: 2_700, fewestFlips: 4)])

    // And the migrated file goes on like a new one.
    try store.record(ratedGame("alice", "bob", winner: 1))
    store.flush()
    #expect(try store.leaderboard(ladder: classicRules.ladder).first?.record.games == 3)
}
