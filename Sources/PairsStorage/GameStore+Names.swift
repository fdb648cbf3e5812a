#if canImport(Glibc)
import Glibc
#endif

/// Names that belong to someone.
///
/// Whether a name is claimed is answered from memory (`ClaimedNames`). Claiming and verifying hash the
/// password, which is slow on purpose (see `PasswordHash`): call them on a queue of their own, never on
/// the one that runs the rooms. Verifying reads no disk; only a new claim writes.
extension GameStore {
    /// Whether `name` is claimed, so that using it needs its password.
    public func isClaimed(_ name: String) -> Bool {
        claimedNames.hash(of: name) != nil
    }

    /// Whether `name` is free, claimed, or looks like a claimed name, from memory: never waits for the disk.
    public func standing(of name: String) -> NameStanding {
        claimedNames.standing(of: name)
    }

    /// Why `password` cannot be a password (empty, too long, holding a NUL), or nil when it can: checked
    /// before any hashing, so that such a password is refused as a bad request, not as a wrong guess.
    public static func problem(withPassword password: String) -> PasswordError? {
        do {
            try PasswordHash.check(password)
            return nil
        } catch {
            return error
        }
    }

    /// Claims `name` with `password` if neither it nor a name that looks like it is claimed; otherwise
    /// checks `password` against it.
    public func claimOrVerify(name: String, password: String) throws(StoreError) -> NameCheck {
        try claimedNames.claimOrVerify(name: name, password: password) { claim throws(StoreError) in
            // The insert happens only if no name with the skeleton is there, in the one transaction: two claims
            // of look-alikes at once cannot both win.
            try claiming { connection throws(SQLiteError) -> [(name: String, hash: String)] in
                try connection.run("""
                    INSERT INTO names (name, password_hash, claimed_ms, skeleton) SELECT ?1, ?2, ?3, ?4
                    WHERE NOT EXISTS (SELECT 1 FROM names WHERE skeleton = ?4 OR name = ?1)
                    """,
                    binding: [.text(claim.name), .text(claim.hash), .integer(WallClockTime.now().unixMilliseconds), .text(claim.skeleton)])
                if connection.changes == 1 { return [] }
                return try connection.rows("SELECT name, password_hash FROM names WHERE skeleton = ?1 OR name = ?2 ORDER BY name = ?2 DESC",
                                           binding: [.text(claim.skeleton), .text(claim.name)]) { (name: $0.text(at: 0), hash: $0.text(at: 1)) }
            }
        }
    }
}

extension ClaimedNames {
    /// A claim about to be written: the name, its password's hash and its skeleton.
    struct Claim {
        var name: String
        var hash: String
        var skeleton: String
    }

    /// Whether `name` is free, claimed, or looks like a claimed name.
    func standing(of name: String) -> NameStanding {
        if hash(of: name) != nil { return .claimed }
        if let other = other(than: name, withSkeleton: NameSkeleton.of(name)) { return .looksLike(claimedName: other) }
        return .free
    }

    /// Claims `name` with `password` if neither it nor a look-alike is claimed, through `insert`, which
    /// writes the claim unless the database already holds the name or a look-alike, and then returns
    /// those holders (the name itself first), or nothing when the claim was written; otherwise checks
    /// `password` against the name's hash. One algorithm for every engine; only `insert` differs.
    func claimOrVerify(
        name: String, password: String, insert: (Claim) throws(StoreError) -> [(name: String, hash: String)]
    ) throws(StoreError) -> NameCheck {
        let bytes = name.utf8.count
        guard (1...RecordText.name.maxBytes).contains(bytes) else { throw .nameLength(bytes: bytes) }
        if let problem = GameStore.problem(withPassword: password) { throw .password(problem) }
        if let hash = hash(of: name) {
            return PasswordHash.verify(password, against: hash) ? .verified : .wrongPassword
        }
        let skeleton = NameSkeleton.of(name)
        if let other = other(than: name, withSkeleton: skeleton) { return .looksLike(claimedName: other) }
        // Hashed before taking the connection, so the slow part holds no lock.
        let hash: String
        do {
            hash = try PasswordHash.make(password)
        } catch {
            throw .password(error)
        }
        let holders = try insert(Claim(name: name, hash: hash, skeleton: skeleton))
        guard let first = holders.first else {
            add(name, hash: hash, skeleton: skeleton)
            return .claimed
        }
        // Someone else claimed it (or a look-alike) between the look and the insert.
        add(first.name, hash: first.hash, skeleton: NameSkeleton.of(first.name))
        guard first.name == name else { return .looksLike(claimedName: first.name) }
        return PasswordHash.verify(password, against: first.hash) ? .verified : .wrongPassword
    }
}

extension GameStore {
    /// Runs `body` in an immediate (writing) transaction on the claims' connection.
    fileprivate func claiming<Result>(_ body: (SQLiteConnection) throws(SQLiteError) -> Result) throws(StoreError) -> Result {
        do throws(SQLiteError) {
            return try claims.withConnection { connection throws(SQLiteError) -> Result in
                try connection.transaction(.immediate) { () throws(SQLiteError) in try body(connection) }
            }
        } catch {
            throw .database(.sqlite(error))
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
