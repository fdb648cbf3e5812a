#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// An exclusive lock on the database file itself, held for as long as the store is open, so that a second
/// server on the same file fails at once instead of the two writing over each other.
///
/// The lock belongs to the file, not to a name of it: a hard link, a symbolic link, a bind mount or a path
/// through `..` all reach the same inode and find it locked. (SQLite names its `-wal` and `-shm` files
/// after the path it was given, so two servers on two names of one file would each keep a write-ahead log
/// of their own, and tear the file between them.)
///
/// `flock`, not `fcntl`: SQLite's own locks are POSIX record locks, which `flock` leaves alone on Linux,
/// and tools that do not know about ours (the `sqlite3` shell) can still read the database. One hazard
/// remains: closing *any* descriptor of the file drops every POSIX lock this process holds on it, SQLite's
/// included. So the descriptor is closed only after the store's SQLite connections are (they hold the lock,
/// `SQLiteConnection.keptOpenWith`), and a second store of this process on a file it already holds is
/// refused before anything is opened (`held`).
final class StoreLock: Sendable {
    /// The inode that `stat` and `fstat` identify a file by.
    struct FileIdentity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// The files this process holds, with descriptors of them that had to stay open until their lock is
    /// let go of (a path that came to name a held file between `stat` and `open`).
    private static let held = Mutex<[FileIdentity: [Int32]]>([:])

    private let descriptor: Int32
    private let identity: FileIdentity

    /// Takes the lock of the (existing) database file at `databasePath`; fails at once if another store,
    /// in this process or another, holds it under any name.
    init(databasePath path: String) throws(StoreOpenError) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw StoreFiles.failure(path: path, call: "stat", errno: errno) }
        guard !Self.isHeld(FileIdentity(status)) else { throw .lockedByAnotherServer(path: path, pid: Int(getpid())) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreFiles.failure(path: path, call: "open", errno: errno) }
        guard fstat(fd, &status) == 0 else {
            let failure = errno
            close(fd)
            throw .system(path: path, call: "fstat", errno: failure)
        }
        let identity = FileIdentity(status)
        let claimed = Self.held.withLock { held -> Bool in
            // The path was swapped for a name of a file this process holds: closing the descriptor now would
            // drop SQLite's locks on it, so it waits for that store to let go.
            guard held[identity] == nil else { held[identity]?.append(fd); return false }
            held[identity] = []
            return true
        }
        guard claimed else { throw .lockedByAnotherServer(path: path, pid: Int(getpid())) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            // Another process holds the file, so this one has no SQLite lock on it to lose by the close.
            close(fd)
            let parked = Self.held.withLock { $0.removeValue(forKey: identity) } ?? []
            for fd in parked { close(fd) }
            if failure == EWOULDBLOCK { throw .lockedByAnotherServer(path: path, pid: Self.holder(of: identity)) }
            throw .system(path: path, call: "flock", errno: failure)
        }
        descriptor = fd
        self.identity = identity
    }

    deinit {
        // Forgotten before the descriptor closes: once it has, a file deleted meanwhile frees its inode, whose
        // number a new file may get at once, and must not find it held. (SQLite's connections are closed by
        // now, so a store of this process that finds the file still locked may close its own descriptor.)
        let parked = Self.held.withLock { $0.removeValue(forKey: identity) } ?? []
        // Unlocked before it is closed: closing releases the lock only once every copy of the descriptor is
        // gone, and a child being spawned on another thread holds copies for a moment, in which a store
        // opened again at once (a restart within the process, a test) found the file locked by this process.
        flock(descriptor, LOCK_UN)
        close(descriptor)
        for fd in parked { close(fd) }
    }

    private static func isHeld(_ identity: FileIdentity) -> Bool {
        held.withLock { $0[identity] != nil }
    }

    /// The process that holds a `flock` on the file, as `/proc/locks` says (`FLOCK ADVISORY WRITE <pid>
    /// <major>:<minor>:<inode> 0 EOF`); nil when it cannot tell.
    static func holder(of identity: FileIdentity) -> Int? {
        guard let file = fopen("/proc/locks", "r") else { return nil }
        defer { fclose(file) }
        let device = deviceText(identity.device) + ":\(identity.inode)"
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let fields = String(cString: line).split(separator: " ")
            // A waiting lock's line has "->" after the number; a holder's has none.
            guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE", fields[5] == device else { continue }
            return Int(fields[4])
        }
        return nil
    }

    /// `st_dev` as `/proc/locks` prints it: major and minor number in hexadecimal, at least two digits each
    /// (glibc's `major` and `minor` split it so).
    private static func deviceText(_ device: UInt64) -> String {
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return digits.count < 2 ? "0" + digits : digits
        }
        return hex(major) + ":" + hex(minor)
    }
}
