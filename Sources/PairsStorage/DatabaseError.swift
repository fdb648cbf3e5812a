/// A failed call to PostgreSQL (libpq): its SQLSTATE, to decide on, and its message, to log. Defined in
/// every build, so that errors read the same with or without the Cluster trait.
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The five-character SQLSTATE (`23505` a unique violation...), or nil when the failure is the
    /// connection's (refused, lost, authentication) rather than a statement's.
    public let sqlState: String?
    /// PostgreSQL's (or libpq's) message, on one line.
    public let message: String

    public init(sqlState: String?, message: String) {
        self.sqlState = sqlState
        // libpq's messages end in a newline and may span lines; a log line holds one.
        self.message = message.split(whereSeparator: \.isNewline)
            .map { $0.drop(while: \.isWhitespace) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Whether a row broke a constraint of the schema (class 23: NOT NULL, CHECK, UNIQUE, FOREIGN KEY):
    /// what SQLite calls `.constraint`.
    public var isConstraint: Bool { sqlState?.hasPrefix("23") == true }

    /// Whether the database refused the row itself (a constraint, or data it cannot take: JSON that is not,
    /// a NUL in a text), so that only that row is lost; any other failure is the connection's or the server's.
    public var refusesRow: Bool { isConstraint || sqlState?.hasPrefix("22") == true }

    public var description: String {
        "\(message)\(sqlState.map { " (SQLSTATE \($0))" } ?? "")"
    }
}

/// A failure of whichever engine holds the store.
public enum DatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    case sqlite(SQLiteError)
    case postgres(PostgresError)

    /// Whether the database refused the row itself, so that only that row is lost.
    public var refusesRow: Bool {
        switch self {
        case .sqlite(let error): error.code == .constraint
        case .postgres(let error): error.refusesRow
        }
    }

    public var description: String {
        switch self {
        case .sqlite(let error): error.description
        case .postgres(let error): error.description
        }
    }
}
