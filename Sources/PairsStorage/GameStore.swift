import CSQLite
import Synchronization

/// What outlives the server, in one SQLite file: finished games (history and replays), claimed names,
/// and the ladders.
///
/// Three connections: the writer's, on a thread of its own, commits finished games in batches
/// (`record(_:)` returns at once); one answers queries, one at a time; one writes claims. Queries and
/// claims block their caller for as long as SQLite (and, for claims, the deliberately slow password hash)
/// takes: call them off any queue that must stay responsive, such as the one that runs the rooms.
///
/// The file is locked for the life of the store, under whatever name it is reached by (`StoreLock`), so a
/// second server on it fails at start. Letting go of
/// the store commits what is waiting and closes the file; a process that exits without doing so should
/// call `flush()` first.
public final class GameStore: Sendable {
    /// The database file.
    public let path: String
    /// How long a connection waits for a lock another one holds (the writer's batch, a claim, an `sqlite3`
    /// shell's write) before failing: far longer than any batch of ours takes.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    let writer: GameWriter
    /// The connection for queries.
    let requests: LockedConnection
    /// The connection for claims, apart from queries': a claim's write waiting on a slow disk (or on the
    /// writer's batch) holds no query up, as WAL readers never wait for a writer.
    let claims: LockedConnection
    let ladders = Ladders(tau: Glicko2Rating.productionTau)
    /// Every claimed name, in memory, so that name checks never wait for the disk.
    let claimedNames: ClaimedNames

    /// Where the store's events go: `onFailure`, and the watcher a server sets (`watch`).
    private let relay: EventRelay

    /// Opens the database at `path`, creating it and its directories when missing, and migrates it to the
    /// current schema. Games the `retention` policy no longer keeps are pruned from then on. `onFailure` hears about every failure while running (on the writer's thread), as a
    /// watcher does (`watch`); it should return quickly.
    ///
    /// Fails with a `StoreOpenError` whose description is the one line to print: another server has the
    /// file, it is not writable, damaged, not a Pairs database, or from a newer Pairs.
    public init(
        path: String, retention: Retention = .keepingEverything, onFailure: @escaping @Sendable (StorageFailure) -> Void = { _ in }
    ) throws(StoreOpenError) {
        self.path = path
        try StoreFiles.prepareDirectory(forDatabaseAt: path)
        try StoreFiles.prepareFile(at: path)
        // Held by the connections rather than by the store, so it is let go of after both have closed.
        let lock = try StoreLock(databasePath: path)
        let writing = try Self.connect(path, lock: lock)
        try Schema.migrate(writing, path: path, ladders: ladders)
        try Schema.useIncrementalVacuum(writing, path: path)
        let stored: Int
        do throws(SQLiteError) {
            try Self.checkIntact(writing)
            stored = try writing.integer("SELECT count(*) FROM games") ?? 0
            claimedNames = try ClaimedNames(loadingFrom: writing)
        } catch {
            throw StoreOpenError(error, path: path)
        }
        requests = LockedConnection(try Self.connect(path, lock: lock))
        claims = LockedConnection(try Self.connect(path, lock: lock))
        let relay = EventRelay(onFailure: onFailure)
        self.relay = relay
        let sink = SQLiteGameSink(connection: LockedConnection(writing), ladders: ladders, retention: retention)
        writer = GameWriter(sink: sink, stored: stored, report: { relay.deliver($0) })
    }

    deinit {
        writer.flush()
    }

    /// Fails with `.corrupt` when SQLite's `quick_check` finds damage anywhere in the file (a torn page,
    /// a broken tree), so that a damaged file stops the server at start rather than failing queries later.
    /// It reads the whole file: about a tenth of a second per 200 MB (200,000 games) from the page cache.
    private static func checkIntact(_ connection: SQLiteConnection) throws(SQLiteError) {
        let verdict = try connection.rows("PRAGMA quick_check(1)") { $0.text(at: 0) }.first
        guard verdict == "ok" else { throw SQLiteError(result: SQLITE_CORRUPT, message: verdict ?? "no verdict") }
    }

    /// A connection to `path` set up as every connection of the store is.
    private static func connect(_ path: String, lock: StoreLock) throws(StoreOpenError) -> SQLiteConnection {
        do throws(SQLiteError) {
            let connection = try SQLiteConnection(
                path: path, mode: .readWrite, busyTimeoutMilliseconds: busyTimeoutMilliseconds, keptOpenWith: lock)
            // SQLite opens a write-protected file read-only rather than failing.
            guard !connection.isReadOnly else {
                throw SQLiteError(result: SQLITE_READONLY, message: "the file is write-protected")
            }
            // WAL: readers (queries, an `sqlite3` shell) never wait for the writer, nor it for them.
            let mode = try connection.rows("PRAGMA journal_mode = WAL") { $0.text(at: 0) }.first
            guard mode == "wal" else {
                throw SQLiteError(result: SQLITE_ERROR, message: "cannot use WAL mode (journal mode \(mode ?? "none"))")
            }
            // NORMAL in WAL mode syncs at checkpoints, not at every commit: a commit survives the process
            // being killed (it is in the operating system's cache), though not a power cut. That is what
            // the server promises, and it keeps commits cheap.
            try connection.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")
            return connection
        } catch {
            throw StoreOpenError(error, path: path)
        }
    }

    /// Hands a finished game to the writer and returns at once; it is committed within a few milliseconds.
    /// Returns its ticket, which `StorageEvent.settled` names once the game is committed (or lost), or nil
    /// when the writer is too far behind to take it. Fails only when the record contradicts itself;
    /// failures of the disk go to `onFailure` and the watcher.
    @discardableResult
    public func record(_ game: GameRecord) throws(GameRecordError) -> UInt64? {
        try game.validate()
        return writer.submit(game)
    }

    /// Hands a finished tournament's record to the writer, behind every game handed over before it (its own
    /// among them), and returns at once with its ticket, as `record(_:)` does for a game.
    @discardableResult
    public func record(_ tournament: TournamentRecord) throws(GameRecordError) -> UInt64? {
        try tournament.validate()
        return writer.submit(tournament)
    }

    /// Waits until every game handed to `record(_:)` so far is committed (or has failed). For shutting down.
    public func flush() {
        writer.flush()
    }

    /// Failures while running: batches lost, games refused, games dropped for a full backlog.
    public var storageErrors: Int {
        writer.errors.load(ordering: .relaxed)
    }

    /// Games in the database.
    public var gamesStored: Int {
        writer.stored.load(ordering: .relaxed)
    }

    /// Games handed to `record(_:)` and not yet committed: the writer's backlog, a few while it works, up to
    /// `GameWriter.maxBacklog` while the disk stalls.
    public var gamesWaiting: Int {
        writer.waiting
    }

    /// Games deleted by the retention policy since the store opened.
    public var gamesPruned: Int {
        writer.pruned.load(ordering: .relaxed)
    }

    /// Prunes what the retention policy no longer keeps at `now`, and returns when done: the store does so
    /// by itself, a step every second; this is for tests.
    func prune(now: WallClockTime = .now()) {
        writer.pruneAll(now: now)
    }

    /// Whether the store is keeping games: false from a failure of the store as a whole (a batch lost, a
    /// game dropped for a backlog) until a batch is committed again.
    public var isHealthy: Bool {
        writer.isHealthy
    }

    /// Sends every event from now on (failures, and recoveries from them) to `watcher` as well, on the
    /// writer's thread or the one that recorded the game; it should return quickly. One watcher at a time:
    /// the server that runs on the store.
    public func watch(_ watcher: @escaping @Sendable (StorageEvent) -> Void) {
        relay.watch(watcher)
    }
}

/// Hands the store's events to the failure callback it was opened with and to its watcher, which is set
/// after the store is open (by the server it is given to).
final class EventRelay: Sendable {
    /// The watcher inside a struct, never as the lock's value itself: a function stored as a generic value
    /// and reached through `withLock`'s inout is wrapped in a reabstraction thunk on the way out and another
    /// on the way back, so each delivery would add two thunks to the stored closure, and every later
    /// delivery would run them all, one stack frame each, until the thread's stack ran out.
    private struct Watcher: Sendable {
        let receive: @Sendable (StorageEvent) -> Void
    }

    let onFailure: @Sendable (StorageFailure) -> Void
    private let watcher = Mutex<Watcher?>(nil)

    init(onFailure: @escaping @Sendable (StorageFailure) -> Void) {
        self.onFailure = onFailure
    }

    func watch(_ receive: @escaping @Sendable (StorageEvent) -> Void) {
        watcher.withLock { $0 = Watcher(receive: receive) }
    }

    func deliver(_ event: StorageEvent) {
        if case .failed(let failure) = event { onFailure(failure) }
        watcher.withLock { $0 }?.receive(event)
    }
}
