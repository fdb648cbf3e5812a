#if canImport(Glibc)
import Glibc
#endif

/// What the store does to the file system before SQLite opens the database: make the directories, check
/// that they can be written, create the file private to its owner.
enum StoreFiles {
    /// New directories: private, since the database holds password hashes.
    static let directoryMode: mode_t = 0o700
    /// A new database file: private for the same reason. SQLite gives its `-wal` and `-shm` files the
    /// database's own mode.
    static let fileMode: mode_t = 0o600

    /// Makes the directory of the database at `path`, with its parents, and checks that it is writable:
    /// SQLite creates `-wal` and `-shm` files beside the database.
    static func prepareDirectory(forDatabaseAt path: String) throws(StoreOpenError) {
        let directory = parent(of: path)
        try makeDirectories(directory)
        try checkWritable(directory)
    }

    /// Checks that the database file at `path` is writable, creating it empty if it did not exist (SQLite
    /// writes the header on its first transaction).
    static func prepareFile(at path: String) throws(StoreOpenError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        if fd >= 0 {
            // Closed before SQLite opens the file, so no lock of SQLite's can be dropped by it.
            close(fd)
        } else if errno == EEXIST {
            try checkWritable(path)
        } else {
            throw failure(path: path, call: "open", errno: errno)
        }
    }

    /// The directory part of `path` ("." for a bare file name).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `mkdir -p`: creates `directory` and any missing parents.
    private static func makeDirectories(_ directory: String) throws(StoreOpenError) {
        var made = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            made += (made.isEmpty || made.hasSuffix("/") ? "" : "/") + component
            guard mkdir(made, directoryMode) != 0 else { continue }
            let failure = errno
            // An existing directory is fine; anything else in the way (a file) fails below, in `access`.
            guard failure == EEXIST else { throw Self.failure(path: made, call: "mkdir", errno: failure) }
        }
    }

    /// Fails with `notWritable` unless this process may write `path`, checked with the effective (file
    /// system) user rather than the real one.
    private static func checkWritable(_ path: String) throws(StoreOpenError) {
        guard faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0 else {
            throw failure(path: path, call: "access", errno: errno)
        }
    }

    /// The error for a failed system call on `path`: `notWritable` when it was refused permission or the
    /// file system is read-only, since that is what the operator must fix.
    static func failure(path: String, call: String, errno: Int32) -> StoreOpenError {
        switch errno {
        case EACCES, EPERM, EROFS: .notWritable(path: path, errno: errno)
        default: .system(path: path, call: call, errno: errno)
        }
    }
}
