#if canImport(Glibc)
import Glibc
#endif

/// Why the store could not start. Each says in one line what is wrong with which file, for the server to
/// print before it exits with status 1.
public enum StoreOpenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another server has the database, under this name or another (`StoreLock`); `pid` is its process, when
    /// the system says.
    case lockedByAnotherServer(path: String, pid: Int?)
    /// The file or its directory cannot be written by this process.
    case notWritable(path: String, errno: Int32?)
    /// The file is damaged, or is not an SQLite database at all.
    case corrupt(path: String, SQLiteError)
    /// The file is an SQLite database, but not one that Pairs made.
    case notPairsDatabase(path: String)
    /// The file was written by a newer version of Pairs, with a schema this one does not know.
    case newerSchema(path: String, found: Int, supported: Int)
    /// Any other failure of SQLite.
    case database(path: String, SQLiteError)
    /// Any other failure of a system call.
    case system(path: String, call: String, errno: Int32)
    /// The PostgreSQL server at `url` (its password left out) refused or did not answer the connection.
    case unreachable(url: String, PostgresError)
    /// Any other failure of PostgreSQL at `url`.
    case postgres(url: String, PostgresError)
    /// `--data` names a PostgreSQL database, but this build lacks the Cluster trait that brings libpq.
    case clusterNotBuilt(url: String)

    public var description: String {
        switch self {
        case .lockedByAnotherServer(let path, let pid):
            "\(path) is in use by another server\(pid.map { " (pid \($0))" } ?? "")"
        case .notWritable(let path, let errno):
            "\(path) is not writable\(errno.map { ": " + Self.explain($0) } ?? "")"
        case .corrupt(let path, let error):
            "\(path) is damaged or not a database (\(error.message))"
        case .notPairsDatabase(let path):
            "\(path) is a database of some other program, not of Pairs"
        case .newerSchema(let path, let found, let supported):
            "\(path) has schema version \(found), from a newer Pairs; this one knows up to \(supported)"
        case .database(let path, let error):
            "\(path): \(error)"
        case .system(let path, let call, let errno):
            "\(path): \(call): \(Self.explain(errno))"
        case .unreachable(let url, let error):
            "\(url) cannot be reached: \(error)"
        case .postgres(let url, let error):
            "\(url): \(error)"
        case .clusterNotBuilt(let url):
            "\(url) is a PostgreSQL database, and this pairs was built without the Cluster trait "
                + "(swift build --traits Cluster) that keeps games there"
        }
    }

    private static func explain(_ errno: Int32) -> String {
        String(cString: strerror(errno))
    }
}
