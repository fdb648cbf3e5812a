import PairsRules
import PairsWire

/// A question for the server's store of finished games, asked for a connection. The lobby only decides what
/// to ask; the transport asks the store, off the rooms' queue, and sends the answer.
public enum StorageQuery: Sendable, Hashable {
    /// Finished games, newest first: all, a name's, a ladder's, a tournament's (by its key), or any of these together.
    case history(name: String?, ladder: String?, tournament: String?, limit: Int, before: Int64?)
    /// One game in full.
    case replay(game: Int64)
    /// A ladder's best: rated for two seats, by time or by flips for one.
    case leaderboard(variant: Variant, limit: Int, soloBy: SoloRankingKind)
    /// A name's ratings, totals and last games.
    case profile(name: String, tournament: String? = nil)
}

/// A tournament entrant's rating to look up before they join: a claimed name's rating on the ladder of the
/// tournament's rules. The lobby asks (`LobbyAction.lookUpRating`); the transport asks the store off the
/// loop and tells the lobby (`Lobby.ratingFound`).
public struct RatingLookup: Sendable, Hashable {
    public var connection: ConnectionID
    public var name: String
    /// The ladder of the tournament's rules (`RulesJSON.ladder(of:)`): a rating counts on its own variant.
    public var ladder: String

    public init(connection: ConnectionID, name: String, ladder: String) {
        self.connection = connection
        self.name = name
        self.ladder = ladder
    }
}

/// A name (and maybe a password) to check against the names that belong to someone.
public struct NameLookup: Sendable, Hashable {
    public var connection: ConnectionID
    public var name: String
    /// With a password: claim the name, or prove it. Without: only whether someone has it.
    public var password: String?
    /// How long to wait before checking: a connection that got passwords wrong waits longer each time.
    public var delayMilliseconds: Int64
    /// The address the password came from, for the limits on guesses (`PasswordGuessLimiter`): its answer
    /// counts there even if the connection is gone by then.
    public var address: String

    public init(connection: ConnectionID, name: String, password: String?, delayMilliseconds: Int64, address: String = "") {
        self.connection = connection
        self.name = name
        self.password = password
        self.delayMilliseconds = delayMilliseconds
        self.address = address
    }
}

/// What the store said of a name.
public enum NameCheckResult: Sendable, Hashable {
    /// Nobody has it: it may be used, unclaimed.
    case free
    /// Someone has it, and no password was given.
    case taken
    /// It was free and now belongs to whoever gave the password.
    case claimed
    /// It belongs to someone, and the password is theirs.
    case verified
    /// It belongs to someone, and the password is not theirs.
    case wrongPassword
    /// It is not claimed but looks like `claimedName`, which is (the same look-alike skeleton): nobody may use it.
    case looksLike(claimedName: String)
    /// The password cannot be one (empty, too long, holding a NUL): `reason` says which.
    case unusablePassword(reason: String)
    /// Too many passwords were waiting to be checked: this one was not.
    case busy
    /// The store did not answer within its deadline.
    case timedOut
    /// The store could not say (it failed); the name is not set.
    case unavailable
}

/// How long a connection waits for its next password check after getting some wrong in a row: half a
/// second after the first, doubling each time up to sixteen, so trying many passwords on one connection
/// takes hours, while a typo costs a person half a second.
enum PasswordThrottle {
    static let firstDelayMilliseconds: Int64 = 500
    static let maxDelayMilliseconds: Int64 = 16_000

    static func delay(afterFailures failures: Int) -> Int64 {
        guard failures > 0 else { return 0 }
        return min(maxDelayMilliseconds, firstDelayMilliseconds << Int64(min(failures - 1, 16)))
    }
}
