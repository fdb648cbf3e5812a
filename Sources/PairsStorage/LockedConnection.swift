import Synchronization

/// A connection that one thread at a time may use, for sharing it between threads.
///
/// `Mutex<SQLiteConnection>` cannot be used with closures from outside: the region checker cannot see
/// that the connection never escapes them. It does not: every use goes through `withConnection`, under
/// the lock, and the connection is never handed out. That is what the unchecked conformance rests on.
final class LockedConnection: @unchecked Sendable {
    private let lock = Mutex(())
    private let connection: SQLiteConnection

    init(_ connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Runs `body` with the connection, while no other thread can use it.
    func withConnection<Result, Failure: Error>(
        _ body: (SQLiteConnection) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try lock.withLock { _ throws(Failure) -> Result in try body(connection) }
    }
}
