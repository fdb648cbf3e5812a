/// What became of a name and password offered to `GameStore.claimOrVerify(name:password:)`.
public enum NameCheck: Sendable, Hashable {
    /// The name was free, and now belongs to whoever knows the password.
    case claimed
    /// The name was claimed before, and the password is its password.
    case verified
    /// The name is claimed, and the password is not its password.
    case wrongPassword
    /// The name is not claimed, but looks like `claimedName`, which is (same `NameSkeleton`): it cannot be
    /// claimed or used.
    case looksLike(claimedName: String)
}

/// Whether a name may be used without a password, as the claimed names in memory say (no disk involved).
public enum NameStanding: Sendable, Hashable {
    /// Nobody has it, nor a name that looks like it.
    case free
    /// Someone has claimed it: it needs its password.
    case claimed
    /// It looks like `claimedName`, which someone has claimed: nobody may use it.
    case looksLike(claimedName: String)
}
