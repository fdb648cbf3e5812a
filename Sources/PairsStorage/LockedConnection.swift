import Synchronization

/// A connection (SQLite's or PostgreSQL's) that one thread at a time may use, for sharing it between threads.
///
/// `Mutex<SQLiteConnection>` cannot be used with closures from outside: the region checker cannot see
/// that the connection never escapes them. It does not: every use goes through `withConnection`, under
/// the lock, and the connection is never handed out. That is what the unchecked conformance rests on.
final class Locked<Connection>: @unchecked Sendable {
    private let lock = Mutex(())
    private let connection: Connection

    init(_ connection: Connection) {
        self.connection = connection
    }

    /// Runs `body` with the connection, while no other thread can use it.
    func withConnection<Result, Failure: Error>(
        _ body: (Connection) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try lock.withLock { _ throws(Failure) -> Result in try body(connection) }
    }
}

/// An SQLite connection shared between threads.
typealias LockedConnection = Locked<SQLiteConnection>
