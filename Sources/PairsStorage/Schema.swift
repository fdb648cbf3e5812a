import CSQLite

/// The database's tables, and the migrations that build them version by version.
///
/// The version lives in `PRAGMA user_version`. Version n is reached from n-1 by `migrate(to: n)`, in one
/// transaction that also sets the new version, so a migration that fails leaves the previous version
/// whole. A new version is one more case in `migrate(to:)` and one more function; `current` follows.
enum Schema {
    /// The newest version this code knows.
    static let current = 4

    /// `PRAGMA application_id` of a Pairs database ("Pair" in ASCII): tells our files from other programs'
    /// SQLite databases, which would otherwise look like a Pairs database of an unknown version.
    static let applicationID = 0x5061_6972

    /// Brings the database to `target` (the newest version unless a test wants an older one), or fails
    /// without touching it when it is newer than this code or not a Pairs database.
    static func migrate(
        _ connection: SQLiteConnection, path: String, ladders: Ladders, upTo target: Int = current
    ) throws(StoreOpenError) {
        let header: (version: Int, application: Int, objects: Int)
        do {
            header = (
                try connection.integer("PRAGMA user_version") ?? 0,
                try connection.integer("PRAGMA application_id") ?? 0,
                try connection.integer("SELECT count(*) FROM sqlite_schema") ?? 0
            )
        } catch {
            throw StoreOpenError(error, path: path)
        }
        // A fresh file has neither our id nor any table yet.
        guard header.application == applicationID || (header.application == 0 && header.objects == 0) else {
            throw .notPairsDatabase(path: path)
        }
        guard header.version <= current else {
            throw .newerSchema(path: path, found: header.version, supported: current)
        }
        var version = header.version
        while version < target {
            version += 1
            do {
                try connection.transaction { [version] () throws(SQLiteError) in
                    try migrate(to: version, connection: connection, ladders: ladders)
                    // Pragmas take no parameters; `version` is an integer of ours.
                    try connection.execute("PRAGMA user_version = \(version)")
                }
            } catch {
                throw StoreOpenError(error, path: path)
            }
        }
    }

    /// The one step from `version - 1` to `version`.
    private static func migrate(to version: Int, connection: SQLiteConnection, ladders: Ladders) throws(SQLiteError) {
        switch version {
        case 1: try createHistoryAndNames(connection)
        case 2: try addLadders(connection, ladders: ladders)
        case 3: try addNameSkeletons(connection)
        case 4: try addTournaments(connection)
        default: throw SQLiteError(result: SQLITE_ERROR, message: "no migration to schema version \(version)")
        }
    }

    /// Version 1: finished games with their players, and claimed names.
    ///
    /// A game's deal and moves are JSON arrays in its own row rather than a row each: a busy server ends
    /// hundreds of games a second, and one row per game (plus one per player) is what keeps the writer's
    /// cost per game small. SQLite's JSON functions read them back, and `json_valid` keeps them readable.
    private static func createHistoryAndNames(_ connection: SQLiteConnection) throws(SQLiteError) {
        try connection.execute("""
            PRAGMA application_id = \(applicationID);
            CREATE TABLE names (
                name TEXT PRIMARY KEY NOT NULL,
                password_hash TEXT NOT NULL,
                claimed_ms INTEGER NOT NULL
            ) STRICT;
            CREATE TABLE games (
                id INTEGER PRIMARY KEY,
                room TEXT NOT NULL,
                rules TEXT NOT NULL CHECK (json_valid(rules)),
                ladder TEXT NOT NULL,
                outcome TEXT NOT NULL,
                winner INTEGER CHECK (winner IN (0, 1)),
                ending TEXT NOT NULL,
                rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
                started_ms INTEGER NOT NULL,
                ended_ms INTEGER NOT NULL,
                flips INTEGER NOT NULL,
                deal TEXT NOT NULL CHECK (json_valid(deal)),
                moves TEXT NOT NULL CHECK (json_valid(moves))
            ) STRICT;
            CREATE INDEX games_by_ladder ON games (ladder, id);
            CREATE TABLE players (
                game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                seat INTEGER NOT NULL CHECK (seat IN (0, 1)),
                name TEXT NOT NULL,
                claimed INTEGER NOT NULL CHECK (claimed IN (0, 1)),
                score INTEGER NOT NULL,
                PRIMARY KEY (game_id, seat)
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX players_by_name ON players (name, game_id);
            """)
    }

    /// Version 2: the ladders, Glicko-2 ratings and solo records, rebuilt from the rated games already
    /// stored, in the order they were played.
    private static func addLadders(_ connection: SQLiteConnection, ladders: Ladders) throws(SQLiteError) {
        try connection.execute("""
            CREATE TABLE ratings (
                name TEXT NOT NULL REFERENCES names (name),
                ladder TEXT NOT NULL,
                rating REAL NOT NULL,
                deviation REAL NOT NULL,
                volatility REAL NOT NULL,
                games INTEGER NOT NULL,
                wins INTEGER NOT NULL,
                losses INTEGER NOT NULL,
                draws INTEGER NOT NULL,
                PRIMARY KEY (name, ladder)
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX ratings_by_rank ON ratings (ladder, rating DESC);
            CREATE TABLE solo_records (
                name TEXT NOT NULL REFERENCES names (name),
                ladder TEXT NOT NULL,
                played INTEGER NOT NULL,
                cleared INTEGER NOT NULL,
                best_ms INTEGER,
                fewest_flips INTEGER,
                PRIMARY KEY (name, ladder)
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX solo_by_time ON solo_records (ladder, best_ms);
            """)
        try MigrationSteps.rebuildLadders(on: connection, ladders: ladders)
    }
}

extension Schema {
    /// Version 3: each claimed name's look-alike skeleton (`NameSkeleton`), so that claims are unique under
    /// it. The index is not unique: a file from before may hold two claimed names with one skeleton (`ann`
    /// and `Ann`), and both stay claimed and usable by whoever holds their passwords; the store refuses any
    /// new claim that looks like either (`GameStore.claimOrVerify`).
    fileprivate static func addNameSkeletons(_ connection: SQLiteConnection) throws(SQLiteError) {
        try connection.execute("ALTER TABLE names ADD COLUMN skeleton TEXT NOT NULL DEFAULT ''")
        try MigrationSteps.fillSkeletons(on: connection)
        try connection.execute("CREATE INDEX names_by_skeleton ON names (skeleton)")
    }

    /// Version 4: finished tournaments with their standings (scores in quarter points, exact), and the
    /// tournament each game was played in (NULL for the rest, so the index holds tournament games only).
    fileprivate static func addTournaments(_ connection: SQLiteConnection) throws(SQLiteError) {
        try connection.execute("""
            CREATE TABLE tournaments (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                format TEXT NOT NULL,
                creator TEXT NOT NULL,
                rules TEXT NOT NULL CHECK (json_valid(rules)),
                ladder TEXT NOT NULL,
                started_ms INTEGER NOT NULL,
                ended_ms INTEGER NOT NULL
            ) STRICT;
            CREATE TABLE tournament_standings (
                tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
                rank INTEGER NOT NULL,
                name TEXT NOT NULL,
                score_quarters INTEGER NOT NULL,
                games INTEGER NOT NULL,
                buchholz_quarters INTEGER,
                sonneborn_berger_quarters INTEGER,
                streak INTEGER NOT NULL,
                active INTEGER NOT NULL CHECK (active IN (0, 1)),
                PRIMARY KEY (tournament_id, name)
            ) STRICT, WITHOUT ROWID;
            ALTER TABLE games ADD COLUMN tournament TEXT;
            CREATE INDEX games_by_tournament ON games (tournament, id) WHERE tournament IS NOT NULL;
            """)
    }

    /// Makes the file give the pages of pruned games back to the file system (`Retention`): SQLite's
    /// incremental auto-vacuum, which lets `PRAGMA incremental_vacuum` shrink the file a little at a time.
    ///
    /// Not a numbered version: it changes no table, and an older Pairs reads the file as before. A file
    /// made without it is rebuilt once with `VACUUM` (outside any transaction, as SQLite requires), about a
    /// second per 100 MB; a new file is rebuilt while it is still empty.
    static func useIncrementalVacuum(_ connection: SQLiteConnection, path: String) throws(StoreOpenError) {
        do throws(SQLiteError) {
            // 2: INCREMENTAL.
            guard try connection.integer("PRAGMA auto_vacuum") != 2 else { return }
            try connection.execute("PRAGMA auto_vacuum = INCREMENTAL; VACUUM")
        } catch {
            throw StoreOpenError(error, path: path)
        }
    }
}

extension StoreOpenError {
    /// The start-up error for an SQLite failure on the database at `path`.
    init(_ error: SQLiteError, path: String) {
        switch error.code {
        case .corrupt, .notADatabase: self = .corrupt(path: path, error)
        case .readOnly: self = .notWritable(path: path, errno: nil)
        default: self = .database(path: path, error)
        }
    }
}
