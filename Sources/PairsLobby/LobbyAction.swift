import PairsWire

/// What the lobby asks the transport to do. The lobby decides; the transport carries these out in order.
///
/// Every change in every room makes a `broadcast` per recipient, moved into the lobby's outbox and out
/// again: the cases with large payloads (the statistics, a log entry, a finished game, a query) are
/// `indirect`, boxed, so that an action is as small as a `send` and moving one is a few words, not a page.
public enum LobbyAction: Sendable {
    /// Queue `bytes` (whole lines, each ending in `\n`) for a connection. `messages` is how many lines they
    /// hold, for the counters.
    case send([UInt8], messages: Int, to: ConnectionID)
    /// Queue `bytes` for one of several connections that all get the same bytes: a room's states or its
    /// chat, encoded once for all of them. `first` starts a broadcast: the `broadcast`s that follow it,
    /// up to the next `first`, carry the same array, so the transport may frame it once for all of them
    /// (a WebSocket's frames) instead of per recipient.
    case broadcast([UInt8], messages: Int, to: ConnectionID, first: Bool)
    /// Say `bye` with the reason and close the connection. The lobby has already forgotten it.
    case close(ConnectionID, ByeReason)
    /// Answer `stats`: the lobby's counters, which the transport completes with its own (bytes and
    /// messages sent and received) before sending them.
    indirect case sendStatistics(ServerStatistics, to: ConnectionID)
    /// A line for the operator's log.
    indirect case log(LogEntry)
    /// Keep a game that has just ended. What follows for the connections `holding` (the room's members,
    /// its last state first) waits until the game is kept, so that a client never sees a game end that a
    /// crash could then lose. The transport holds; the lobby only says whose output.
    indirect case record(FinishedGame, holding: [ConnectionID])
    /// Keep a tournament that has just ended, behind its games (nothing waits for it).
    indirect case recordTournament(FinishedTournament)
    /// Ask the store `query` and send its answer, as a reply to `request`, to a connection.
    indirect case query(StorageQuery, request: RequestID?, to: ConnectionID)
    /// Look a name up among the claimed ones (after a delay), and tell the lobby (`nameChecked`).
    indirect case checkName(NameLookup)
    /// Look a tournament entrant's rating up in the store, off the loop, and tell the lobby (`ratingFound`,
    /// with nil for no rating, a failure or no answer in time).
    indirect case lookUpRating(RatingLookup)
    /// Ask the cluster where a room or a resume token's seat is (or claim a room's name), off the loop, and
    /// tell the lobby (`clusterAnswered`). Only with a cluster (`LobbyDirectory.cluster`).
    indirect case askCluster(ClusterInquiry)
}

extension ByeReason {
    /// Whether everything already queued for the client goes out before the `bye`. A client that asked to
    /// go, or a server shutting down, still delivers what was said; a client cut off for what it did (or
    /// failed to do) gets the `bye` after at most the message already half sent.
    public var deliversQueuedOutput: Bool {
        switch self {
        case .quit, .shutdown: true
        case .serverFull, .idle, .flooding, .tooSlow, .replaced: false
        }
    }
}
