import PairsRules
import PairsWire

/// What the lobby needs of a cluster of server instances, one level above its shards: which instance owns
/// a room or holds a resume token's seat. The lobby knows nothing of how the cluster keeps this (Redis, in
/// `pairs serve --cluster`); the server gives its `LobbyDirectory` an implementation.
///
/// Neither method may block: both are called on the rooms' loops. A question is answered later, off the
/// loop, and the transport hands the answer to the lobby that asked (`Lobby.clusterAnswered`).
public protocol LobbyCluster: AnyObject, Sendable {
    /// A short tag unique to this instance (letters and digits), put in the names of rooms the lobby makes
    /// (`quick-TAG-N`), so that two instances never make rooms of the same name.
    var instanceTag: String { get }
    /// Answers `question` once, on any thread.
    func ask(_ question: ClusterQuestion, answer: @escaping @Sendable (ClusterAnswer) -> Void)
    /// Records a change of what this instance owns; nothing waits for it.
    func note(_ change: ClusterChange)
}

/// What the lobby asks the cluster.
public enum ClusterQuestion: Sendable, Hashable {
    /// Make room `name` this instance's, unless another instance owns it.
    case claimRoom(String)
    /// Which instance owns room `name`, if any.
    case findRoom(String)
    /// Which instance holds the seat of resume token `token`, if any.
    case findToken(String)
    /// Quick match across instances: take the oldest player waiting on another instance for `rules`
    /// (`.matchedWith`), or else queue quick room `room`, about to be made here, as waiting (`.here`).
    case quickMatch(room: String, rules: RuleSet)
    /// Take this instance's quick room `room` out of the cluster's queue before a local player fills it:
    /// `.here` withdrawn (or `.nowhere`, no longer queued), `.takenElsewhere` if another instance matched it first.
    case withdrawWaiter(String)
    /// Queue this instance's quick room `room` again, without matching, at the back of `rules`'s queue: a
    /// promise to another instance's player lapsed and its player still waits. `.here` queued, `.unavailable`
    /// out of reach.
    case requeueWaiter(room: String, rules: RuleSet)
}

/// The cluster's answer.
public enum ClusterAnswer: Sendable, Hashable {
    /// This instance owns it (a claim succeeded, or the entry is already this instance's).
    case here
    /// A live instance reached at this address owns it.
    case elsewhere(ServerEndpoint)
    /// No live instance owns it.
    case nowhere
    /// The cluster cannot be reached just now.
    case unavailable
    /// A quick match: the player waiting in room `room` on the instance at this address is this one's partner.
    case matchedWith(room: String, at: ServerEndpoint)
    /// A withdrawal came too late: another instance matched the waiter, and sends its player here.
    case takenElsewhere
}

/// A change of what this instance owns, for the cluster to record.
public enum ClusterChange: Sendable, Hashable {
    /// A room the lobby made under a name of its own (`quick-TAG-N`, `solo-TAG-N`) opened here.
    case roomOpened(String)
    /// A room of this instance closed.
    case roomClosed(String)
    /// A seat here got resume token `token`, replacing `retiring`.
    case tokenIssued(String, retiring: String?)
    /// A token here no longer resumes anything.
    case tokenRetired(String)
    /// Quick room `room`, queued by `quickMatch`, no longer waits (filled, left, or its player away): out of the queue.
    case waiterWithdrawn(String)
}

/// A question asked for a connection, handed back with its answer.
public struct ClusterInquiry: Sendable, Hashable {
    public var connection: ConnectionID
    public var question: ClusterQuestion

    public init(connection: ConnectionID, question: ClusterQuestion) {
        self.connection = connection
        self.question = question
    }
}
