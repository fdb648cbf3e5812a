#if canImport(Glibc)
import Glibc
#endif

/// An exclusive advisory lock on `<database>.lock`, held for as long as the store is open, so that a second
/// server on the same file fails at once instead of the two writing over each other.
///
/// A sidecar file, not the database: SQLite's own locks are POSIX record locks, which the kernel drops
/// when *any* descriptor of the file in the process is closed, so opening and closing the database file
/// for a lock of ours would silently drop SQLite's. `flock` on another file leaves SQLite alone, and tools
/// that do not know about it (the `sqlite3` shell) can still read the database.
final class StoreLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock of the database at `databasePath`, creating the lock file; fails at once if another
    /// process holds it.
    init(databasePath: String) throws(StoreOpenError) {
        let path = databasePath + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, StoreFiles.fileMode)
        guard fd >= 0 else { throw StoreFiles.failure(path: path, call: "open", errno: errno) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            let holder = Self.readPID(fd)
            close(fd)
            if failure == EWOULDBLOCK { throw .lockedByAnotherServer(path: databasePath, pid: holder) }
            throw .system(path: path, call: "flock", errno: failure)
        }
        descriptor = fd
        Self.writePID(fd)
    }

    deinit {
        // Closing the only descriptor releases the lock.
        close(descriptor)
    }

    /// Leaves our process id in the file, so a second server can say who holds the lock.
    private static func writePID(_ fd: Int32) {
        let text = "\(getpid())\n"
        guard ftruncate(fd, 0) == 0 else { return }
        _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    /// The process id the holder wrote, if the file holds one.
    private static func readPID(_ fd: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        return Int(text.split(separator: "\n").first ?? "")
    }
}
