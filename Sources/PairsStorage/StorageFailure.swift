/// Something that went wrong while the store was running, reported for the log. The games go on; what
/// was committed before stays committed.
public enum StorageFailure: Sendable, Hashable, CustomStringConvertible {
    /// A batch could not be committed (a full disk, an I/O error): its `games` are lost.
    case batchFailed(DatabaseError, games: Int)
    /// The database refused one game of a batch (the others were stored).
    case gameRefused(DatabaseError, room: String)
    /// The game was stored, but its ladder could not be updated (a rated game whose name is not claimed).
    case ladderNotUpdated(DatabaseError, game: GameID)
    /// `GameWriter.maxBacklog` games were already waiting for the disk: this one was dropped.
    case backlogFull(room: String)
    /// The database refused a finished tournament's record (its games are stored, each on its own).
    case tournamentRefused(DatabaseError, name: String)
    /// `GameWriter.maxBacklog` records were already waiting for the disk: this tournament's was dropped.
    case tournamentDropped(name: String)
    /// Old games could not be pruned (`Retention`); the next step tries again.
    case pruneFailed(DatabaseError)

    /// The games this failure lost: none when only a ladder was left alone, since the game itself is stored.
    public var gamesLost: Int {
        switch self {
        case .batchFailed(_, let games): games
        case .gameRefused, .backlogFull: 1
        case .ladderNotUpdated, .pruneFailed, .tournamentRefused, .tournamentDropped: 0
        }
    }

    /// Whether the store as a whole is failing (its disk full, broken or stalled), so that later games will
    /// likely be lost too, rather than one game being refused.
    public var isStoreFailure: Bool {
        switch self {
        case .batchFailed, .backlogFull, .tournamentDropped: true
        case .gameRefused, .ladderNotUpdated, .pruneFailed, .tournamentRefused: false
        }
    }

    /// The failure in a few words, for the log's `error` field.
    public var reason: String {
        switch self {
        case .batchFailed(let error, _): "the batch failed: \(error)"
        case .gameRefused(let error, let room): "a game of room \(room) was refused: \(error)"
        case .ladderNotUpdated(let error, let game): "game \(game.rawValue) left its ladder alone: \(error)"
        case .backlogFull: "the writer is \(GameWriter.maxBacklog) games behind the disk"
        case .pruneFailed(let error): "old games could not be pruned: \(error)"
        case .tournamentRefused(let error, let name): "tournament \(name)'s standings were refused: \(error)"
        case .tournamentDropped: "the writer is \(GameWriter.maxBacklog) records behind the disk"
        }
    }

    public var description: String {
        switch self {
        case .batchFailed(let error, let games): "storage: \(games) games lost, the batch failed: \(error)"
        case .gameRefused(let error, let room): "storage: a game of room \(room) was refused: \(error)"
        case .ladderNotUpdated(let error, let game): "storage: game \(game.rawValue) left its ladder alone: \(error)"
        case .backlogFull(let room): "storage: the writer is \(GameWriter.maxBacklog) games behind; a game of room \(room) was dropped"
        case .pruneFailed(let error): "storage: old games could not be pruned: \(error)"
        case .tournamentRefused(let error, let name): "storage: tournament \(name)'s standings were refused: \(error)"
        case .tournamentDropped(let name): "storage: the writer is \(GameWriter.maxBacklog) records behind; tournament \(name)'s standings were dropped"
        }
    }
}

/// What the store tells its watcher while running: each batch settled, each failure, and the end of a spell
/// of failures of the store as a whole.
public enum StorageEvent: Sendable, Hashable {
    /// Something failed (`StorageFailure`).
    case failed(StorageFailure)
    /// Every game up to the ticket `GameStore.record(_:)` returned is committed, or lost (a failure says
    /// so): what waited for them may go on.
    case settled(through: UInt64)
    /// A batch was committed again after the store had failed (`StorageFailure.isStoreFailure`): the
    /// failures of that spell and the games they lost.
    case recovered(failures: Int, gamesLost: Int)
}
