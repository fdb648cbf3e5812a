/// Why a query or a claim failed.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database failed: SQLite, or PostgreSQL (a lost connection, a refused statement).
    case database(DatabaseError)
    /// A stored game holds values this code cannot read (written by hand, or damaged).
    case damagedGame(GameID)
    /// A limit outside `GameStore.limitRange`.
    case limitOutOfRange(Int)
    /// A name that is empty or longer than `RecordText.name.maxBytes`.
    case nameLength(bytes: Int)
    /// A password that cannot be hashed.
    case password(PasswordError)

    public var description: String {
        switch self {
        case .database(let error): "storage: \(error)"
        case .damagedGame(let id): "stored game \(id.rawValue) cannot be read"
        case .limitOutOfRange(let limit):
            "limit must be \(GameStore.limitRange.lowerBound)-\(GameStore.limitRange.upperBound), not \(limit)"
        case .nameLength(let bytes): "a name must be 1-\(RecordText.name.maxBytes) bytes, not \(bytes)"
        case .password(let error): error.description
        }
    }
}
