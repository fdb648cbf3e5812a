#if Cluster
import CPostgres
#if canImport(Glibc)
import Glibc
#endif

/// A value is sent to PostgreSQL as text, which it parses as the type the statement gives the parameter
/// (`$1::bigint`) or the column it meets.
extension SQLValue {
    /// The text PostgreSQL parses, or nil for NULL. Swift prints a Double as the shortest text that reads
    /// back as the same Double, so a rating survives the trip exactly.
    var text: String? {
        switch self {
        case .integer(let value): String(value)
        case .real(let value): value.description
        case .text(let value): value
        case .bool(let value): value ? "true" : "false"
        case .null: nil
        }
    }
}

/// One row of a result, read by column index. Values come as text (libpq's text format).
struct PostgresRow: SQLRow {
    fileprivate let result: OpaquePointer
    fileprivate let row: Int32

    /// The columns of each row.
    var columnCount: Int32 { PQnfields(result) }

    func optionalText(at column: Int32) -> String? {
        guard PQgetisnull(result, row, column) == 0 else { return nil }
        return String(cString: PQgetvalue(result, row, column))
    }

    func text(at column: Int32) -> String { optionalText(at: column) ?? "" }
    func int64(at column: Int32) -> Int64 { optionalText(at: column).flatMap { Int64($0) } ?? 0 }
    func int(at column: Int32) -> Int { Int(int64(at: column)) }
    func optionalInt(at column: Int32) -> Int? { optionalText(at: column).flatMap { Int($0) } }
    func double(at column: Int32) -> Double { optionalText(at: column).flatMap { Double($0) } ?? 0 }
    /// A boolean column: PostgreSQL writes `t` or `f`.
    func bool(at column: Int32) -> Bool { optionalText(at: column) == "t" }
}

/// One connection to a PostgreSQL database through libpq: parameterized statements only (values never
/// go into SQL text), transactions and savepoints, typed errors.
///
/// Not thread-safe: its owner uses it from one thread at a time. A connection the server dropped (a
/// restart, a network cut) is opened again before the next statement, so the store recovers by itself
/// once the database is back.
final class PostgresConnection: SQLConnection {
    /// How long one attempt to connect may take: a database that answers at all answers in well under a
    /// second, and a server that cannot reach it must say so at start, or fail a batch, soon.
    static let connectTimeoutSeconds = 5

    private let handle: OpaquePointer

    /// Connects to `url` (`postgresql://USER@HOST:PORT/DB`, or any libpq connection string).
    init(url: String) throws(PostgresError) {
        // A bound on each connection attempt, which libpq otherwise leaves to TCP (minutes, for a host that
        // drops packets): the writer and the queries wait that long at most before failing. Before the URL, so
        // that a connect_timeout the URL gives wins.
        let keywords: [UnsafeMutablePointer<CChar>?] = [strdup("connect_timeout"), strdup("dbname"), nil]
        let values: [UnsafeMutablePointer<CChar>?] = [strdup(String(Self.connectTimeoutSeconds)), strdup(url), nil]
        defer { (keywords + values).forEach { free($0) } }
        let names: [UnsafePointer<CChar>?] = keywords.map { $0.map { UnsafePointer($0) } }
        let settings: [UnsafePointer<CChar>?] = values.map { $0.map { UnsafePointer($0) } }
        let connected = PQconnectdbParams(names, settings, 1)
        guard let handle = connected else {
            throw PostgresError(sqlState: nil, message: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let error = PostgresError(sqlState: nil, message: String(cString: PQerrorMessage(handle)))
            PQfinish(handle)
            throw error
        }
        self.handle = handle
        // Notices ("relation already exists, skipping") would go to stderr, past the server's log.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit {
        PQfinish(handle)
    }

    /// Opens the connection again when the server dropped it.
    private func ensureConnected() throws(PostgresError) {
        guard PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(sqlState: nil, message: String(cString: PQerrorMessage(handle)))
        }
    }

    /// Runs `sql`, which takes no values (schema changes, BEGIN, COMMIT); it may hold several statements.
    func execute(_ sql: String) throws(PostgresError) {
        try ensureConnected()
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
    }

    static let dialect = SQLDialect(
        byteOrder: #" COLLATE "C""#,
        forUpdate: " FOR UPDATE",
        dealQuery: """
            SELECT face FROM json_array_elements_text((SELECT deal FROM games WHERE id = ?1)) WITH ORDINALITY AS t(face, n)
            ORDER BY n
            """,
        movesQuery: """
            SELECT (m ->> 0)::bigint, (m ->> 1)::integer, (m ->> 2)::integer, (m ->> 3)::integer
            FROM json_array_elements((SELECT moves FROM games WHERE id = ?1)) WITH ORDINALITY AS t(m, n) ORDER BY n
            """,
        lastMoveMilliseconds: "coalesce((moves -> -1 ->> 0)::bigint, 0)",
        jsonTextArray: { parameters in "array_to_json(ARRAY[\(parameters.map { "?\($0)::text" }.joined(separator: ", "))])" })

    static func databaseError(_ failure: PostgresError) -> DatabaseError { .postgres(failure) }

    /// Runs one statement with `values` bound to `$1`, `$2`... (or `?1`, `?2`...); returns the rows it changed.
    @discardableResult
    func run(_ sql: String, binding values: [SQLValue] = []) throws(PostgresError) -> Int {
        try withResult(sql, binding: values) { result in Int(String(cString: PQcmdTuples(result))) ?? 0 }
    }

    /// Runs one INSERT into a table whose key is `id` with `values`, and returns the id of the row it made.
    func insert(_ sql: String, binding values: [SQLValue]) throws(PostgresError) -> Int64 {
        try rows(sql + " RETURNING id", binding: values) { $0.int64(at: 0) }.first ?? 0
    }

    /// Runs one query with `values` bound, mapping each row.
    func rows<Row>(
        _ sql: String, binding values: [SQLValue] = [], _ map: (PostgresRow) throws(PostgresError) -> Row
    ) throws(PostgresError) -> [Row] {
        try withResult(sql, binding: values) { result throws(PostgresError) -> [Row] in
            var rows: [Row] = []
            let count = PQntuples(result)
            rows.reserveCapacity(Int(count))
            for index in 0..<count { rows.append(try map(PostgresRow(result: result, row: index))) }
            return rows
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<Result>(
        begin: String = "BEGIN", _ body: () throws(PostgresError) -> Result
    ) throws(PostgresError) -> Result {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // A lost connection has nothing to roll back; the error that counts is the first.
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` in a savepoint inside a transaction: a failure undoes only what `body` did, and the
    /// transaction goes on (PostgreSQL otherwise refuses every later statement of a failed transaction).
    func savepoint<Result>(_ body: () throws(PostgresError) -> Result) throws(PostgresError) -> Result {
        try execute("SAVEPOINT pairs")
        do {
            let result = try body()
            try execute("RELEASE SAVEPOINT pairs")
            return result
        } catch {
            try execute("ROLLBACK TO SAVEPOINT pairs")
            try execute("RELEASE SAVEPOINT pairs")
            throw error
        }
    }

    /// Runs one statement with its values as text parameters (PQexecParams) and hands its result to `body`.
    private func withResult<Result>(
        _ sql: String, binding values: [SQLValue], _ body: (OpaquePointer) throws(PostgresError) -> Result
    ) throws(PostgresError) -> Result {
        let texts = values.map(\.text)
        // PostgreSQL's text holds no NUL: one is refused as bad data (SQLSTATE 22021), not cut short.
        if texts.contains(where: { $0?.utf8.contains(0) == true }) {
            throw PostgresError(sqlState: "22021", message: "a text value holds a NUL, which PostgreSQL cannot store")
        }
        try ensureConnected()
        let copies = texts.map { text in text.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) }
        let result = PQexecParams(handle, Self.dollarParameters(sql), Int32(values.count), nil, pointers, nil, nil, 0)
        defer { PQclear(result) }
        try check(result)
        return try body(result!)
    }

    /// `sql` with SQLite's numbered parameters (`?1`) spelled as PostgreSQL's (`$1`), so that the store's shared
    /// statements are one text for both engines. None of the store's statements has a `?` of its own (a
    /// string, or PostgreSQL's jsonb operators).
    static func dollarParameters(_ sql: String) -> String {
        guard sql.utf8.contains(UInt8(ascii: "?")) else { return sql }
        var bytes = Array(sql.utf8)
        for index in bytes.indices.dropLast() where bytes[index] == UInt8(ascii: "?") {
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1]) { bytes[index] = UInt8(ascii: "$") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Throws the failure `result` reports, if any.
    private func check(_ result: OpaquePointer?) throws(PostgresError) {
        guard let result else {
            throw PostgresError(sqlState: nil, message: String(cString: PQerrorMessage(handle)))
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? String(cString: PQresultErrorMessage(result))
            throw PostgresError(sqlState: state, message: message)
        }
    }
}

/// A PostgreSQL connection shared between threads.
typealias LockedPostgres = Locked<PostgresConnection>
#endif
