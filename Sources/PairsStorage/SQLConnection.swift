/// One row of a result, read by column index (from 0), whichever engine gave it.
protocol SQLRow {
    /// The column as text ("" for NULL).
    func text(at column: Int32) -> String
    func optionalText(at column: Int32) -> String?
    /// The column as an integer (0 for NULL).
    func int64(at column: Int32) -> Int64
    func int(at column: Int32) -> Int
    func optionalInt(at column: Int32) -> Int?
    /// The column as a real (0 for NULL).
    func double(at column: Int32) -> Double
    /// A flag as the engine stores it (SQLite's 0 and 1, PostgreSQL's `boolean`).
    func bool(at column: Int32) -> Bool
}

/// A connection of either engine, as the store's shared queries use it (`StoreQueries`, `Ladders`): one text
/// per statement for both engines, parameters numbered as SQLite numbers them (`?1`, `?2`...), and what the
/// engines spell differently in `dialect`.
protocol SQLConnection: AnyObject {
    associatedtype Row: SQLRow
    associatedtype Failure: Error

    /// What this engine spells its own way.
    static var dialect: SQLDialect { get }

    /// Runs `sql` with `values` and returns its rows as `row` reads them.
    func rows<Result>(_ sql: String, binding values: [SQLValue], _ row: (Row) throws(Failure) -> Result) throws(Failure) -> [Result]
    /// Runs one statement with `values`, ignoring any rows; returns the rows it changed.
    @discardableResult
    func run(_ sql: String, binding values: [SQLValue]) throws(Failure) -> Int
    /// Runs one INSERT with `values` and returns the id of the row it made.
    func insert(_ sql: String, binding values: [SQLValue]) throws(Failure) -> Int64
    /// Runs `body` inside the current transaction so that, when it throws, only its own changes are undone.
    func savepoint<Result>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result

    /// The failure as the store reports it.
    static func databaseError(_ failure: Failure) -> DatabaseError
}

extension SQLConnection {
    /// The integer in the first column of the first row of `sql`, or nil when it returns no row or NULL.
    func integer(_ sql: String, binding values: [SQLValue] = []) throws(Failure) -> Int? {
        try rows(sql, binding: values) { $0.optionalInt(at: 0) }.first ?? nil
    }

    /// Whether the database refused the row itself (a constraint, or data it cannot take), so that only
    /// that row is lost.
    static func refusesRow(_ failure: Failure) -> Bool {
        databaseError(failure).refusesRow
    }
}

/// What SQLite and PostgreSQL spell differently in the store's shared statements.
struct SQLDialect: Sendable {
    /// Appended to a name in ORDER BY so that names sort byte by byte on both engines, whatever the
    /// database's own collation (SQLite's default, BINARY, already does).
    let byteOrder: String
    /// Appended to a SELECT whose rows the transaction will update, so that two servers sharing the
    /// database take turns (PostgreSQL's row locks); SQLite's writer holds the whole file already.
    let forUpdate: String
    /// A game's deal, one face a row in order, for the game whose id is `?1`.
    let dealQuery: String
    /// A game's moves, `milliseconds, code, seat, argument` a row in order, for the game whose id is `?1`.
    let movesQuery: String
    /// The milliseconds of a game's last move, 0 for a game without one, as a column of `games`.
    let lastMoveMilliseconds: String
    /// A JSON array of the text parameters `?first`... in order, for a deal as the writer stores it.
    let jsonTextArray: @Sendable (_ parameters: Range<Int>) -> String
}
