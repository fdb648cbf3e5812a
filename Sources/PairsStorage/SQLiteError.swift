import CSQLite

/// A failed SQLite call: what kind of failure (to decide on), and SQLite's own words (to log).
///
/// Code decides on `code`, never on `message`: the message is for people and changes between SQLite
/// versions, the primary result codes do not.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// SQLite's primary result codes that the store tells apart; every other one is `other`.
    public enum Code: Sendable, Hashable {
        /// Another connection holds a lock this one waited for longer than its busy timeout.
        case busy
        /// The file, its directory or the file system is read-only to this process.
        case readOnly
        /// The file could not be opened (missing directory, permissions, too many open files).
        case cannotOpen
        /// The file is a database whose pages do not make sense: torn, truncated, overwritten.
        case corrupt
        /// The file is not an SQLite database at all.
        case notADatabase
        /// The disk (or the quota) is full.
        case full
        /// The operating system reported an I/O error.
        case ioError
        /// A row broke a constraint of the schema (NOT NULL, CHECK, UNIQUE, FOREIGN KEY).
        case constraint
        /// The library was used wrongly (a bug in this module).
        case misuse
        /// A bind or column index out of range (a bug in this module).
        case range
        /// Any other primary result code.
        case other(Int32)

        /// The code for an SQLite result, primary or extended.
        init(result: Int32) {
            switch result & 0xff {
            case SQLITE_BUSY, SQLITE_LOCKED: self = .busy
            case SQLITE_READONLY: self = .readOnly
            case SQLITE_CANTOPEN: self = .cannotOpen
            case SQLITE_CORRUPT: self = .corrupt
            case SQLITE_NOTADB: self = .notADatabase
            case SQLITE_FULL: self = .full
            case SQLITE_IOERR: self = .ioError
            case SQLITE_CONSTRAINT: self = .constraint
            case SQLITE_MISUSE: self = .misuse
            case SQLITE_RANGE: self = .range
            case let primary: self = .other(primary)
            }
        }
    }

    /// The kind of failure.
    public let code: Code
    /// SQLite's extended result code, which says more (`SQLITE_IOERR_WRITE`, `SQLITE_CONSTRAINT_CHECK`...).
    public let extendedCode: Int32
    /// SQLite's message for the failure, or for its code when the connection had none.
    public let message: String

    /// The error for `result` on `connection`, with the connection's message when it has one.
    init(result: Int32, connection: OpaquePointer?) {
        code = Code(result: result)
        if let connection, sqlite3_errcode(connection) != SQLITE_OK {
            extendedCode = sqlite3_extended_errcode(connection)
            message = String(cString: sqlite3_errmsg(connection))
        } else {
            extendedCode = result
            message = String(cString: sqlite3_errstr(result))
        }
    }

    /// An error this module raises itself, with SQLite's generic message for `result`.
    init(result: Int32, message: String) {
        code = Code(result: result)
        extendedCode = result
        self.message = message
    }

    public var description: String { "\(message) (SQLite code \(extendedCode))" }
}
