import Synchronization

/// The SQLite file's side of the writer: each batch in one transaction, a savepoint per game, and the
/// retention policy's steps (`Pruner`), on the writer's connection.
final class SQLiteGameSink: GameSink {
    /// Used only on the writer's queue; the lock costs nothing uncontended.
    private let connection: LockedConnection
    private let ladders: Ladders
    /// Used only on the writer's queue.
    private let pruner: Mutex<Pruner>

    init(connection: LockedConnection, ladders: Ladders, retention: Retention) {
        self.connection = connection
        self.ladders = ladders
        pruner = Mutex(Pruner(retention: retention))
    }

    /// One transaction for the batch, one savepoint per game, so a game the database refuses costs only
    /// itself; any other failure costs the batch.
    func commit(_ batch: [StoreWrite]) -> Result<(committed: Int, failures: [StorageFailure]), DatabaseError> {
        var failures: [StorageFailure] = []
        let outcome = connection.withConnection { connection -> Result<Int, SQLiteError> in
            do throws(SQLiteError) {
                return .success(try connection.transaction { () throws(SQLiteError) in
                    try GameInserts.insert(batch, on: connection, ladders: ladders, failures: &failures)
                })
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let committed): return .success((committed, failures))
        case .failure(let error): return .failure(.sqlite(error))
        }
    }

    func prune(now: WallClockTime) -> Result<(pruned: Int, more: Bool), DatabaseError> {
        pruner.withLock { pruner in
            connection.withConnection { connection -> Result<(pruned: Int, more: Bool), DatabaseError> in
                do throws(SQLiteError) {
                    return .success(try pruner.step(on: connection, now: now))
                } catch {
                    return .failure(.sqlite(error))
                }
            }
        }
    }
}
