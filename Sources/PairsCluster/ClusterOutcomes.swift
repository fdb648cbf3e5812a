#if Cluster
/// The instance that owns a room or a token, and where peers reach it.
public struct ClusterOwner: Sendable, Hashable {
    public var instance: String
    /// `HOST:PORT`, as that instance advertises it.
    public var address: String

    public init(instance: String, address: String) {
        self.instance = instance
        self.address = address
    }
}

/// What a claim of a room or a token came to.
public enum ClaimOutcome: Sendable, Hashable {
    /// This instance owns it.
    case claimed
    /// A live instance owns it.
    case ownedBy(ClusterOwner)
}

/// What asking for a quick match came to.
public enum QuickMatchOutcome: Sendable, Hashable {
    /// Another waiter was taken, and is this caller's to pair with: its owner is told by the caller (or learns
    /// it on its next `refresh()`).
    case matched(waiter: String, owner: ClusterOwner)
    /// Nobody waited: this instance's new waiter is queued.
    case waiting(waiter: String)
}

/// What withdrawing a waiter came to.
public enum WithdrawOutcome: Sendable, Hashable {
    case withdrawn
    /// Another instance took it first: the player is matched there.
    case matched(byInstance: String)
    /// Not a waiter this instance has queued (or its entry is gone).
    case unknown
}

/// What a `refresh()` found changed.
public struct RefreshReport: Sendable, Hashable {
    /// Rooms and tokens another instance took while this one looked dead; no longer this instance's.
    public var lostRooms: [String] = []
    public var lostTokens: [String] = []
    /// Waiters another instance took, with the taker's id; no longer queued.
    public var matchedWaiters: [String: String] = [:]
    /// Entries Redis had lost (it restarted) and that were written again.
    public var rewritten = 0

    public init() {}
}
#endif
