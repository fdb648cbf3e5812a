import CSQLite

/// One connection to an SQLite database file: statements, transactions and savepoints, with typed errors.
///
/// Not thread-safe by itself (it is opened without SQLite's own mutexes): its owner uses it from one thread
/// at a time, behind a lock or on one serial queue.
final class SQLiteConnection: SQLConnection {
    /// How the file is opened.
    enum Mode: Sendable {
        /// Read and write, creating the file when it does not exist.
        case readWriteCreate
        /// Read and write an existing file.
        case readWrite
        /// Read only.
        case readOnly

        var flags: Int32 {
            switch self {
            case .readWriteCreate: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            case .readWrite: SQLITE_OPEN_READWRITE
            case .readOnly: SQLITE_OPEN_READONLY
            }
        }
    }

    /// How a transaction takes its locks.
    enum TransactionKind: Sendable {
        /// Takes the write lock at once, so the transaction never fails half-way for want of it.
        case immediate
        /// Takes locks as statements need them: for transactions that only read.
        case deferred
    }

    private let handle: OpaquePointer
    /// Statements prepared once and run many times, by their SQL text.
    private var cache: [String: SQLiteStatement] = [:]
    /// Something that must outlive the connection's file, let go of only after `deinit` has closed it: the
    /// store's lock, whose descriptor's closing would drop SQLite's own locks on the file (`StoreLock`).
    private let keptOpenWith: AnyObject?

    /// Opens `path` in `mode`. Waits up to `busyTimeoutMilliseconds` whenever another connection holds a
    /// lock it needs, before failing with `.busy`.
    ///
    /// SQLite opens lazily: a file that is not a database, or is damaged, fails at the first statement.
    init(path: String, mode: Mode, busyTimeoutMilliseconds: Int32, keptOpenWith: AnyObject? = nil) throws(SQLiteError) {
        var opened: OpaquePointer?
        // No mutexes (each connection is used by one thread at a time), extended result codes in errors.
        let flags = mode.flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let result = sqlite3_open_v2(path, &opened, flags, nil)
        guard result == SQLITE_OK, let opened else {
            let error = SQLiteError(result: result, connection: opened)
            // Even a failed open may allocate a handle, which must be closed.
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        self.keptOpenWith = keptOpenWith
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit {
        cache.removeAll()
        // `_v2` closes once the last statement is finalized, whatever the order of deinitialization.
        // (`keptOpenWith` is let go of after this body, so after the file is closed.)
        sqlite3_close_v2(handle)
    }

    /// Whether the database can only be read: SQLite opens a write-protected file read-only without failing.
    var isReadOnly: Bool {
        sqlite3_db_readonly(handle, "main") == 1
    }

    /// The rowid of the last row inserted on this connection.
    var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    var changes: Int {
        Int(sqlite3_changes(handle))
    }

    /// Runs one or more statements that take no parameters (schema, pragmas, transaction control).
    func execute(_ sql: String) throws(SQLiteError) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw SQLiteError(result: result, connection: handle) }
    }

    /// A new prepared statement for one SQL statement.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(sql: sql, database: handle)
    }

    /// The prepared statement for `sql`, prepared on first use and kept: for statements run over and over.
    func cached(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = cache[sql] { return statement }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// Runs `sql` with `values` and returns its rows as `row` reads them.
    func rows<Row>(
        _ sql: String,
        binding values: [SQLValue] = [],
        _ row: (SQLiteStatement) throws(SQLiteError) -> Row
    ) throws(SQLiteError) -> [Row] {
        try cached(sql).rows(binding: values, row)
    }

    /// Runs `sql` with `values`, ignoring any rows; returns the rows it changed.
    @discardableResult
    func run(_ sql: String, binding values: [SQLValue] = []) throws(SQLiteError) -> Int {
        try cached(sql).run(binding: values)
        return changes
    }

    /// Runs one INSERT with `values` and returns the rowid of the row it made.
    func insert(_ sql: String, binding values: [SQLValue]) throws(SQLiteError) -> Int64 {
        try cached(sql).run(binding: values)
        return lastInsertedRowID
    }

    static let dialect = SQLDialect(
        byteOrder: "",
        forUpdate: "",
        dealQuery: "SELECT value FROM json_each((SELECT deal FROM games WHERE id = ?1)) ORDER BY key",
        movesQuery: """
            SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
                   json_extract(value, '$[3]')
            FROM json_each((SELECT moves FROM games WHERE id = ?1)) ORDER BY key
            """,
        lastMoveMilliseconds: "coalesce(json_extract(moves, '$[#-1][0]'), 0)",
        jsonTextArray: { parameters in "json_array(\(parameters.map { "?\($0)" }.joined(separator: ", ")))" })

    static func databaseError(_ failure: SQLiteError) -> DatabaseError { .sqlite(failure) }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it (or the commit) throws.
    func transaction<Result>(
        _ kind: TransactionKind = .immediate,
        _ body: () throws(SQLiteError) -> Result
    ) throws(SQLiteError) -> Result {
        try execute(kind == .immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            rollBack()
            throw error
        }
    }

    /// Runs `body` inside the current transaction so that, when it throws, only its own changes are undone.
    func savepoint<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        try execute("SAVEPOINT one")
        do {
            let result = try body()
            try execute("RELEASE one")
            return result
        } catch {
            // Back to where the savepoint began, then out of it; the enclosing transaction goes on.
            try? execute("ROLLBACK TO one")
            try? execute("RELEASE one")
            throw error
        }
    }

    /// Ends the open transaction, if any, undoing it. SQLite may already have rolled it back itself after
    /// some errors (a full disk, for one), so there may be nothing left to undo.
    private func rollBack() {
        guard sqlite3_get_autocommit(handle) == 0 else { return }
        try? execute("ROLLBACK")
    }
}
