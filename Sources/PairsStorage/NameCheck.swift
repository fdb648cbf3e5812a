/// What became of a name and password offered to `GameStore.claimOrVerify(name:password:)`.
public enum NameCheck: Sendable, Hashable {
    /// The name was free, and now belongs to whoever knows the password.
    case claimed
    /// The name was claimed before, and the password is its password.
    case verified
    /// The name is claimed, and the password is not its password.
    case wrongPassword
}
