#if canImport(Glibc)
import Glibc
#endif

/// Names that belong to someone.
///
/// Claiming and verifying hash the password, which is slow on purpose (see `PasswordHash`): call them on
/// a queue of their own, never on the one that runs the rooms.
extension GameStore {
    /// Whether `name` is claimed, so that using it needs its password.
    public func isClaimed(_ name: String) throws(StoreError) -> Bool {
        try storedHash(of: name) != nil
    }

    /// Claims `name` with `password` if the name is free; otherwise checks `password` against it.
    public func claimOrVerify(name: String, password: String) throws(StoreError) -> NameCheck {
        let bytes = name.utf8.count
        guard (1...RecordText.name.maxBytes).contains(bytes) else { throw .nameLength(bytes: bytes) }
        if let hash = try storedHash(of: name) {
            return PasswordHash.verify(password, against: hash) ? .verified : .wrongPassword
        }
        // Hashed before taking the connection, so the slow part holds no lock.
        let hash: String
        do {
            hash = try PasswordHash.make(password)
        } catch {
            throw .password(error)
        }
        let inserted = try read(.immediate) { connection throws(SQLiteError) in
            try connection.run(
                "INSERT INTO names (name, password_hash, claimed_ms) VALUES (?1, ?2, ?3) ON CONFLICT (name) DO NOTHING",
                binding: [.text(name), .text(hash), .integer(WallClockTime.now().unixMilliseconds)])
            return connection.changes == 1
        }
        if inserted { return .claimed }
        // Someone else claimed it between the look and the insert: the password must be theirs now.
        guard let theirs = try storedHash(of: name) else { return .wrongPassword }
        return PasswordHash.verify(password, against: theirs) ? .verified : .wrongPassword
    }

    /// The password hash `name` was claimed with, or nil when it is free.
    private func storedHash(of name: String) throws(StoreError) -> String? {
        try read { connection throws(SQLiteError) in
            try connection.rows("SELECT password_hash FROM names WHERE name = ?1", binding: [.text(name)]) {
                $0.text(at: 0)
            }.first
        }
    }
}

extension WallClockTime {
    /// The system's wall clock now.
    static func now() -> WallClockTime {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return WallClockTime(unixMilliseconds: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }
}
