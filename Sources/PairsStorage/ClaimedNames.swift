import Synchronization

/// Every claimed name with its password hash and skeleton, in memory: loaded when the store opens and
/// added to on each claim, so that whether a name is claimed (or looks like one that is) and whether a
/// password is right are answered without waiting for the disk. A stalled disk then delays only claims.
///
/// A claimed name costs about 200 bytes here (name, hash, skeleton): a million of them fit in 200 MB,
/// far more than a LAN server ever sees.
final class ClaimedNames: Sendable {
    private struct State {
        /// Name to password hash.
        var hashes: [String: String] = [:]
        /// Skeleton to the names claimed under it: usually one; more only in a file from before skeletons
        /// were kept (see `Schema.addNameSkeletons`).
        var bySkeleton: [String: [String]] = [:]
    }

    private let state = Mutex(State())

    /// Loads every claimed name from `connection`.
    convenience init(loadingFrom connection: SQLiteConnection) throws(SQLiteError) {
        self.init(try connection.rows("SELECT name, password_hash, skeleton FROM names") {
            (name: $0.text(at: 0), hash: $0.text(at: 1), skeleton: $0.text(at: 2))
        })
    }

    /// Starts with `rows`, every claimed name read from the database.
    init(_ rows: [(name: String, hash: String, skeleton: String)]) {
        for row in rows { add(row.name, hash: row.hash, skeleton: row.skeleton) }
    }

    /// Records a claim the database has committed.
    func add(_ name: String, hash: String, skeleton: String) {
        state.withLock { state in
            guard state.hashes.updateValue(hash, forKey: name) == nil else { return }
            state.bySkeleton[skeleton, default: []].append(name)
        }
    }

    /// The password hash of `name`, when it is claimed.
    func hash(of name: String) -> String? {
        state.withLock { $0.hashes[name] }
    }

    /// A claimed name other than `name` with `skeleton`, if any.
    func other(than name: String, withSkeleton skeleton: String) -> String? {
        state.withLock { $0.bySkeleton[skeleton]?.first { $0 != name } }
    }

    var count: Int {
        state.withLock { $0.hashes.count }
    }
}
