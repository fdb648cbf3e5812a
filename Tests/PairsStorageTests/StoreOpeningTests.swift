import Foundation
@testable import PairsStorage
import PairsTestSupport
import Testing

/// The error opening `path` fails with, or nil when it opens.
private func openingError(_ path: String) -> StoreOpenError? {
    do {
        _ = try openStore(path)
        return nil
    } catch {
        return error
    }
}

@Test("a store is created with its directories, in WAL mode, at the current schema version")
func storeIsCreatedWithDirectories() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("a/b/c/pairs.db")
    let store = try openStore(path)
    #expect(store.gamesStored == 0)
    let outside = try outsideConnection(path)
    #expect(try outside.integer("PRAGMA user_version") == Schema.current)
    #expect(try outside.rows("PRAGMA journal_mode") { $0.text(at: 0) } == ["wal"])
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory.file("a/b/c"))
    #expect((directoryAttributes[.posixPermissions] as? Int) == 0o700)
}

@Test("a file of garbage is reported as damaged, and left as it was")
func garbageFileIsCorrupt() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("pairs.db")
    let garbage = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
    try garbage.write(to: URL(fileURLWithPath: path))
    let error = try #require(openingError(path))
    guard case .corrupt(let reported, let cause) = error else {
        Issue.record("expected corrupt, got \(error)")
        return
    }
    #expect(reported == path)
    #expect(cause.code == .notADatabase)
    #expect(error.description.contains("damaged or not a database"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
}

@Test("a database torn in the middle of its pages is reported as damaged")
func tornFileIsCorrupt() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("pairs.db")
    try StoreFixture.fill(path, games: 300)
    // Fold the write-ahead log into the file, then tear it in the middle, where no query at start would
    // look: four pages of noise, as a crash of the disk (not of SQLite) might leave them.
    let checkpoint = try outsideConnection(path, .readWrite)
    try checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
    let pageSize = try #require(try checkpoint.integer("PRAGMA page_size"))
    let pageCount = try #require(try checkpoint.integer("PRAGMA page_count"))
    try #require(pageCount > 20)
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    try handle.seek(toOffset: UInt64(pageSize * (pageCount / 2)))
    try handle.write(contentsOf: Data((0..<pageSize * 4).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
    try handle.close()

    let error = try #require(openingError(path))
    guard case .corrupt = error else {
        Issue.record("expected corrupt, got \(error)")
        return
    }
}

@Test("a second store on the same file fails at once while the first holds it, and opens once it is gone")
func secondStoreIsLockedOut() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("pairs.db")
    var first: GameStore? = try openStore(path)
    #expect(openingError(path) == .lockedByAnotherServer(path: path, pid: Int(getpid())))
    // The shell can still read it while the server runs.
    let reader = try outsideConnection(path)
    #expect(try reader.integer("SELECT count(*) FROM games") == 0)
    _ = first
    first = nil
    #expect(openingError(path) == nil)
}

@Test("a second store is locked out by any other name of the file: a hard link, a symbolic link, a path through ..",
      arguments: ["hard link", "symbolic link", "dot-dot path"])
func otherNamesOfTheFileAreLockedOut(kind: String) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("pairs.db")
    let first = try openStore(path)
    let other: String
    switch kind {
    case "hard link":
        other = directory.file("link.db")
        try #require(link(path, other) == 0)
    case "symbolic link":
        other = directory.file("symlink.db")
        try #require(symlink(path, other) == 0)
    default:
        try #require(mkdir(directory.file("sub"), 0o700) == 0)
        other = directory.file("sub/../pairs.db")
    }
    #expect(openingError(other) == .lockedByAnotherServer(path: other, pid: Int(getpid())))
    // Refused without touching the file: the first store still commits to it.
    try first.record(sampleTwoSeatGame())
    first.flush()
    #expect(first.gamesStored == 1)
    #expect(first.storageErrors == 0)
    #expect(try outsideConnection(path).integer("SELECT count(*) FROM games") == 1)
}

@Test("a database from a newer schema version is refused and left untouched")
func newerSchemaIsRefused() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("pairs.db")
    _ = try openStore(path)
    let outside = try outsideConnection(path, .readWrite)
    try outside.execute("PRAGMA user_version = \(Schema.current + 1)")
    #expect(openingError(path) == .newerSchema(path: path, found: Schema.current + 1, supported: Schema.current))
    #expect(try outside.integer("PRAGMA user_version") == Schema.current + 1)
}

@Test("an SQLite database of another program is refused")
func foreignDatabaseIsRefused() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("other.db")
    let other = try outsideConnection(path, .readWriteCreate)
    try other.execute("CREATE TABLE recipes (name TEXT)")
    #expect(openingError(path) == .notPairsDatabase(path: path))
}

/// Runs `body` as if this thread were the unprivileged user `nobody`, for the file system only.
///
/// The tests may run as root, whom permission bits do not stop. `setfsuid` changes the user the kernel
/// checks file access against, for the calling thread only, and drops root's file capabilities while it
/// is not 0; nothing else in the process is affected. Glibc's module does not declare it, hence `dlsym`.
private func asUnprivilegedUser<Result>(_ body: () throws -> Result) throws -> Result {
    guard geteuid() == 0 else { return try body() }
    typealias SetFileSystemUser = @convention(c) (UInt32) -> Int32
    let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setfsuid"))
    let setfsuid = unsafeBitCast(symbol, to: SetFileSystemUser.self)
    let nobody: UInt32 = 65_534
    _ = setfsuid(nobody)
    defer { _ = setfsuid(0) }
    return try body()
}

@Test("a directory the server cannot write is reported as not writable")
func readOnlyDirectoryIsNotWritable() throws {
    let directory = try TemporaryDirectory()
    chmod(directory.path, 0o755)
    let locked = directory.file("locked")
    try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
    chmod(locked, 0o555)
    let error = try asUnprivilegedUser { openingError(locked + "/pairs.db") }
    #expect(error == .notWritable(path: locked, errno: EACCES))
    // Nor below it: the missing directory cannot be made.
    let deeper = try asUnprivilegedUser { openingError(locked + "/more/pairs.db") }
    #expect(deeper == .notWritable(path: locked + "/more", errno: EACCES))
}

@Test("a database file the server cannot write is reported as not writable")
func readOnlyFileIsNotWritable() throws {
    let directory = try TemporaryDirectory()
    chmod(directory.path, 0o777)
    let path = directory.file("pairs.db")
    _ = try openStore(path)
    chmod(path, 0o444)
    chmod(path + ".lock", 0o666)
    let error = try asUnprivilegedUser { openingError(path) }
    #expect(error == .notWritable(path: path, errno: EACCES))
}

@Test("--data takes a path or none, and the default follows XDG_DATA_HOME, then HOME")
func locationsFollowTheArgumentAndEnvironment() {
    #expect(StoreLocation(argument: "none") == .disabled)
    #expect(StoreLocation(argument: "/var/lib/pairs.db") == .file(path: "/var/lib/pairs.db"))
    #expect(StoreLocation(argument: "games.db") == .file(path: "games.db"))
    #expect(StoreLocation(argument: "") == nil)
    #expect(StoreLocation(argument: "postgresql://pairs@db.lan:5432/pairs") == .postgres(url: "postgresql://pairs@db.lan:5432/pairs"))
    #expect(StoreLocation(argument: "postgres://pairs@db.lan/pairs") == .postgres(url: "postgres://pairs@db.lan/pairs"))

    let both = ["XDG_DATA_HOME": "/data", "HOME": "/home/ann"]
    #expect(StoreLocation.defaultFile { both[$0] } == .file(path: "/data/pairs/pairs.db"))
    let homeOnly = ["HOME": "/home/ann/"]
    #expect(StoreLocation.defaultFile { homeOnly[$0] } == .file(path: "/home/ann/.local/share/pairs/pairs.db"))
    let relativeData = ["XDG_DATA_HOME": "data", "HOME": "/home/ann"]
    #expect(StoreLocation.defaultFile { relativeData[$0] } == .file(path: "/home/ann/.local/share/pairs/pairs.db"))
    #expect(StoreLocation.defaultFile { _ in nil } == nil)
}

@Test("every start-up error reads as one line naming the file")
func openErrorsAreOneLine() {
    let sqlite = SQLiteError(result: 11, message: "database disk image is malformed")
    let errors: [StoreOpenError] = [
        .lockedByAnotherServer(path: "/d/pairs.db", pid: 42), .lockedByAnotherServer(path: "/d/pairs.db", pid: nil),
        .notWritable(path: "/d", errno: EACCES), .notWritable(path: "/d/pairs.db", errno: nil),
        .corrupt(path: "/d/pairs.db", sqlite), .notPairsDatabase(path: "/d/pairs.db"),
        .newerSchema(path: "/d/pairs.db", found: 9, supported: 2), .database(path: "/d/pairs.db", sqlite),
        .system(path: "/d", call: "mkdir", errno: ENOTDIR),
    ]
    for error in errors {
        #expect(!error.description.contains("\n"))
        #expect(error.description.hasPrefix("/d"))
    }
    #expect(errors[0].description == "/d/pairs.db is in use by another server (pid 42)")
    #expect(errors[2].description == "/d is not writable: Permission denied")
}

@Test("a store let go of can be opened again at once, even while a copy of its lock's descriptor lives on (a child being spawned holds copies for a moment)")
func lockIsReleasedDespiteCopies() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("pairs.db")
    var copies: [Int32] = []
    do {
        let store = try openStore(path)
        // Every descriptor of the file this process has, the lock's among them, copied as a spawn copies them.
        var file = stat()
        #expect(stat(path, &file) == 0)
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            var status = stat()
            guard let fd = Int32(entry), fstat(fd, &status) == 0, status.st_dev == file.st_dev, status.st_ino == file.st_ino else { continue }
            copies.append(dup(fd))
        }
        #expect(!copies.isEmpty)
        withExtendedLifetime(store) {}
    }
    defer { for fd in copies { close(fd) } }
    #expect(openingError(path) == nil)
}
