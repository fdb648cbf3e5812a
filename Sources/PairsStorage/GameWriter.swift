import Dispatch
import Synchronization

/// Commits finished games on a thread of its own, in batches: `submit` only appends to a list, so the
/// queue that runs the rooms never waits for the disk.
///
/// The first game handed over starts a short batch window; when it closes, every game waiting is
/// committed in one transaction (at most `maxBatch` per transaction), and `StorageEvent.settled` says so.
/// The server holds a game's last state until then, so the window is kept short.
final class GameWriter: Sendable {
    /// How long the writer collects games before committing them: long enough that a busy server commits
    /// several games per transaction (and more while a commit runs), short enough that holding a game's
    /// last state until it is committed is not felt.
    static let batchWindowMilliseconds = 5

    /// The most games in one transaction, so one commit never holds the write lock (and the claims that
    /// wait for it) for long, even after a stall let games pile up.
    static let maxBatch = 500

    /// The most games waiting for the disk. A disk that stalls for minutes must not grow the server's memory
    /// without bound: beyond this, games are dropped and counted as errors. At a thousand games a second
    /// this is twenty seconds of games; a record weighs a few KiB, so the backlog stays under a hundred MiB.
    static let maxBacklog = 20_000

    private struct Backlog {
        var games: [StoreWrite] = []
        /// The ticket of the last game appended: tickets count every game accepted, from 1.
        var lastTicket: UInt64 = 0
        /// Whether a drain is due on the queue, which will pick up any game appended meanwhile.
        var drainScheduled = false
    }

    /// Where batches go (SQLite or PostgreSQL); used only on `queue`.
    private let sink: any GameSink
    /// Default quality of service, not `.utility`: on a busy machine the commit must still come within the
    /// 200 ms the server promises, so the writer must not be the first thread to wait for a core.
    private let queue = DispatchQueue(label: "pairs.storage.writer")
    /// Marks `queue`, so that a flush from the queue itself (a failure callback letting go of the store)
    /// drains in place instead of waiting for itself.
    private let onQueue = DispatchSpecificKey<Bool>()
    private let backlog = Mutex(Backlog())
    private let report: @Sendable (StorageEvent) -> Void
    /// The failures of the store as a whole (`StorageFailure.isStoreFailure`) since its last good commit,
    /// and the games they lost; nil while it is healthy.
    private let spell = Mutex<(failures: Int, gamesLost: Int)?>(nil)
    /// Whether `spell` is not nil, readable without its lock (by `stats`, on the server's queue), and
    /// changed only under it.
    private let failing = Atomic<Bool>(false)
    /// Failures so far, of every kind.
    let errors = Atomic<Int>(0)
    /// Games in the database.
    let stored: Atomic<Int>
    /// Transactions committed, for tests that check games are batched.
    let batches = Atomic<Int>(0)
    /// Games deleted by the retention policy since the store opened.
    let pruned = Atomic<Int>(0)

    /// How often the writer looks whether games are due to be pruned: often enough that the file never
    /// runs far past its limit (a busy server ends about a thousand games a second, 1.1 MB), seldom
    /// enough that looking costs nothing.
    static let pruneIntervalMilliseconds: UInt64 = 1000
    /// The pause between two steps of a long prune: new games' batches get the write lock between them.
    static let pruneGapMilliseconds = 10

    private struct Pruning {
        /// `DispatchTime` of the last step, in nanoseconds.
        var lastStep: UInt64 = 0
        /// Whether a step is already scheduled on the queue.
        var stepScheduled = false
    }

    /// Used only on `queue`.
    private let pruning: Mutex<Pruning>

    init(sink: any GameSink, stored: Int, report: @escaping @Sendable (StorageEvent) -> Void) {
        self.sink = sink
        self.stored = Atomic(stored)
        self.report = report
        pruning = Mutex(Pruning(stepScheduled: true))
        queue.setSpecific(key: onQueue, value: true)
        // What the policy no longer keeps goes first, off the thread that opened the store.
        queue.async { [weak self] in self?.pruneStep() }
    }

    /// Queues `game` for the next batch and returns at once, with its ticket: `StorageEvent.settled`
    /// says when it is committed (or lost). Nil when it was dropped for a full backlog.
    func submit(_ game: GameRecord) -> UInt64? {
        submit(.game(game))
    }

    /// Queues a finished tournament's record behind the games submitted before it (its own, among them),
    /// as `submit(_:)` queues a game.
    func submit(_ tournament: TournamentRecord) -> UInt64? {
        submit(.tournament(tournament))
    }

    private func submit(_ write: StoreWrite) -> UInt64? {
        let (ticket, startWindow) = backlog.withLock { backlog -> (UInt64?, Bool) in
            guard backlog.games.count < Self.maxBacklog else { return (nil, false) }
            backlog.games.append(write)
            backlog.lastTicket += 1
            guard !backlog.drainScheduled else { return (backlog.lastTicket, false) }
            backlog.drainScheduled = true
            return (backlog.lastTicket, true)
        }
        guard let ticket else {
            switch write {
            case .game(let game): fail(.backlogFull(room: game.summary.room))
            case .tournament(let tournament): fail(.tournamentDropped(name: tournament.name))
            }
            return nil
        }
        if startWindow {
            // Weak: a store let go of flushes itself, and then its connection closes at once.
            queue.asyncAfter(deadline: .now() + .milliseconds(Self.batchWindowMilliseconds)) { [weak self] in
                self?.drain()
            }
        }
        return ticket
    }

    /// Games submitted and not yet taken into a transaction. Takes the backlog's lock: for `stats`, not per game.
    var waiting: Int {
        backlog.withLock { $0.games.count }
    }

    /// Commits every game handed over so far, and returns when they are on disk (or have failed). Blocks:
    /// for shutting down and for tests.
    func flush() {
        if DispatchQueue.getSpecific(key: onQueue) == true {
            drain()
        } else {
            queue.sync { drain() }
        }
    }

    /// Commits batches until no game is waiting. Runs on `queue`.
    private func drain() {
        while true {
            let (batch, lastTicket) = backlog.withLock { backlog -> ([StoreWrite], UInt64) in
                let count = min(backlog.games.count, Self.maxBatch)
                let batch = Array(backlog.games.prefix(count))
                backlog.games.removeFirst(count)
                if backlog.games.isEmpty { backlog.drainScheduled = false }
                // The games still waiting are the newest tickets; this batch ends just before them.
                return (batch, backlog.lastTicket - UInt64(backlog.games.count))
            }
            guard !batch.isEmpty else { return pruneIfDue() }
            commit(batch)
            report(.settled(through: lastTicket))
        }
    }

    // MARK: Pruning

    /// Takes a step of pruning when the last was `pruneIntervalMilliseconds` ago. Runs on `queue`, after
    /// a drain: a server that ends no games has nothing new to prune.
    private func pruneIfDue() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = pruning.withLock { pruning in
            !pruning.stepScheduled && now - pruning.lastStep >= Self.pruneIntervalMilliseconds * 1_000_000
        }
        if due { pruneStep() }
    }

    /// One step of the pruner; schedules the next at once when more is due. Runs on `queue`.
    private func pruneStep(now: WallClockTime = .now()) {
        pruning.withLock { pruning in
            pruning.stepScheduled = false
            pruning.lastStep = DispatchTime.now().uptimeNanoseconds
        }
        switch sink.prune(now: now) {
        case .success(let step):
            pruned.add(step.pruned, ordering: .relaxed)
            stored.subtract(step.pruned, ordering: .relaxed)
            guard step.more else { return }
            pruning.withLock { $0.stepScheduled = true }
            queue.asyncAfter(deadline: .now() + .milliseconds(Self.pruneGapMilliseconds)) { [weak self] in self?.pruneStep() }
        case .failure(let error):
            fail(.pruneFailed(error))
        }
    }

    /// Prunes everything the policy no longer keeps at `now`, step by step, and returns when done. For tests.
    func pruneAll(now: WallClockTime) {
        queue.sync {
            var more = true
            while more {
                let before = pruned.load(ordering: .relaxed)
                pruneStep(now: now)
                more = pruning.withLock { $0.stepScheduled } && pruned.load(ordering: .relaxed) > before
            }
        }
    }

    /// Commits the batch through the sink; a failure of the whole batch costs every game in it.
    private func commit(_ batch: [StoreWrite]) {
        switch sink.commit(batch) {
        case .failure(let error):
            fail(.batchFailed(error, games: batch.count { if case .game = $0 { true } else { false } }))
        case .success(let (committed, failures)):
            stored.add(committed, ordering: .relaxed)
            batches.add(1, ordering: .relaxed)
            // Read first without the lock: a healthy store's commits touch nothing another thread reads.
            if failing.load(ordering: .relaxed), let ended = spell.withLock({ spell -> (failures: Int, gamesLost: Int)? in
                defer { spell = nil; failing.store(false, ordering: .relaxed) }
                return spell
            }) {
                report(.recovered(failures: ended.failures, gamesLost: ended.gamesLost))
            }
            failures.forEach(fail)
        }
    }

    /// Whether the last batch was committed, and no game has been dropped for a full backlog since.
    var isHealthy: Bool {
        !failing.load(ordering: .relaxed)
    }

    private func fail(_ failure: StorageFailure) {
        errors.add(1, ordering: .relaxed)
        if failure.isStoreFailure {
            spell.withLock { spell in
                spell = (failures: (spell?.failures ?? 0) + 1, gamesLost: (spell?.gamesLost ?? 0) + failure.gamesLost)
                failing.store(true, ordering: .relaxed)
            }
        }
        report(.failed(failure))
    }
}

/// Where a `GameWriter` commits, on its queue only: one engine's connection and statements.
protocol GameSink: Sendable {
    /// Commits `batch` in one transaction, a record the database refuses costing only itself (its failure
    /// returned with the count of games committed); fails as a whole when the transaction does.
    func commit(_ batch: [StoreWrite]) -> Result<(committed: Int, failures: [StorageFailure]), DatabaseError>
    /// One step of the retention policy at `now`: how many games it deleted, and whether another is due.
    func prune(now: WallClockTime) -> Result<(pruned: Int, more: Bool), DatabaseError>
}

/// What the writer commits, in the order it was handed over: a finished game, or a finished tournament's
/// record, which follows its games.
enum StoreWrite: Sendable {
    case game(GameRecord)
    case tournament(TournamentRecord)
}
