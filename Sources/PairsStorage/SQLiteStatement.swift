import CSQLite

/// One prepared SQL statement: bind its parameters, step through its rows, read their columns by type.
///
/// Belongs to its connection and, like it, is used from one thread at a time. Parameters and columns are
/// numbered as SQLite numbers them: parameters from 1, columns from 0.
final class SQLiteStatement: SQLRow {
    private let handle: OpaquePointer
    /// The connection's SQLite handle, for its error messages. Not the `SQLiteConnection`, which caches its
    /// statements: the two would keep each other alive. SQLite keeps the handle valid until the last
    /// statement is finalized, since the connection closes with `sqlite3_close_v2`.
    private let database: OpaquePointer

    init(sql: String, database: OpaquePointer) throws(SQLiteError) {
        var prepared: OpaquePointer?
        let result = sqlite3_prepare_v2(database, sql, -1, &prepared, nil)
        guard result == SQLITE_OK, let prepared else {
            throw SQLiteError(result: result == SQLITE_OK ? SQLITE_MISUSE : result, connection: database)
        }
        handle = prepared
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: - Parameters

    /// Binds `value` to parameter `index` (from 1).
    func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
        let result: Int32
        switch value {
        case .integer(let integer): result = sqlite3_bind_int64(handle, index, integer)
        case .real(let real): result = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            // The length in bytes, not -1: a text with a NUL inside is bound whole, not cut at the NUL.
            guard let length = Int32(exactly: text.utf8.count) else {
                throw SQLiteError(result: SQLITE_TOOBIG, message: "a text of \(text.utf8.count) bytes")
            }
            result = sqlite3_bind_text(handle, index, text, length, Self.transient)
        case .bool(let flag): result = sqlite3_bind_int64(handle, index, flag ? 1 : 0)
        case .null: result = sqlite3_bind_null(handle, index)
        }
        try check(result)
    }

    /// Binds `values` to parameters 1, 2, 3... in order.
    func bind(_ values: [SQLValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// `SQLITE_TRANSIENT`, which the C macro spells as a cast of -1: SQLite copies the bound text at once,
    /// so the Swift string's temporary C buffer may go away after the call.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    // MARK: - Running

    /// Runs the statement to its next row: true when a row is ready to read, false when it is done.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let failure: throw SQLiteError(result: failure, connection: database)
        }
    }

    /// Makes the statement ready to run again, with its parameters cleared to NULL.
    func reset() {
        // The result repeats the last step's error, which that step already reported.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values`, runs the statement and calls `row` for each row it produces, then resets it.
    func rows<Row>(
        binding values: [SQLValue] = [],
        _ row: (SQLiteStatement) throws(SQLiteError) -> Row
    ) throws(SQLiteError) -> [Row] {
        defer { reset() }
        try bind(values)
        var rows: [Row] = []
        while try step() {
            rows.append(try row(self))
        }
        return rows
    }

    /// Binds `values` and runs a statement that returns no rows (or whose rows do not matter), then resets it.
    func run(binding values: [SQLValue] = []) throws(SQLiteError) {
        defer { reset() }
        try bind(values)
        while try step() {}
    }

    // MARK: - Columns of the current row

    /// The columns of each row.
    var columnCount: Int32 {
        sqlite3_column_count(handle)
    }

    /// Whether column `index` (from 0) is NULL.
    func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` as an integer (0 for NULL).
    func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` as an `Int` (0 for NULL).
    func int(at index: Int32) -> Int {
        Int(sqlite3_column_int64(handle, index))
    }

    /// Column `index` as a real (0 for NULL).
    func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// Column `index` as text ("" for NULL).
    func text(at index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` as a flag: SQLite stores them as 0 and 1.
    func bool(at index: Int32) -> Bool {
        int64(at: index) != 0
    }

    /// Column `index` as an integer, or nil for NULL.
    func optionalInt(at index: Int32) -> Int? {
        isNull(at: index) ? nil : int(at: index)
    }

    /// Column `index` as text, or nil for NULL.
    func optionalText(at index: Int32) -> String? {
        isNull(at: index) ? nil : text(at: index)
    }

    private func check(_ result: Int32) throws(SQLiteError) {
        guard result == SQLITE_OK else { throw SQLiteError(result: result, connection: database) }
    }
}
