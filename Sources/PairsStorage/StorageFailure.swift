/// Something that went wrong while the store was running, reported for the log. The games go on; what
/// was committed before stays committed.
public enum StorageFailure: Sendable, Hashable, CustomStringConvertible {
    /// A batch could not be committed (a full disk, an I/O error): its `games` are lost.
    case batchFailed(SQLiteError, games: Int)
    /// The database refused one game of a batch (the others were stored).
    case gameRefused(SQLiteError, room: String)
    /// The game was stored, but its ladder could not be updated (a rated game whose name is not claimed).
    case ladderNotUpdated(SQLiteError, game: GameID)
    /// `GameWriter.maxBacklog` games were already waiting for the disk: this one was dropped.
    case backlogFull(room: String)

    public var description: String {
        switch self {
        case .batchFailed(let error, let games): "storage: \(games) games lost, the batch failed: \(error)"
        case .gameRefused(let error, let room): "storage: a game of room \(room) was refused: \(error)"
        case .ladderNotUpdated(let error, let game): "storage: game \(game.rawValue) left its ladder alone: \(error)"
        case .backlogFull(let room): "storage: the writer is \(GameWriter.maxBacklog) games behind; a game of room \(room) was dropped"
        }
    }
}
