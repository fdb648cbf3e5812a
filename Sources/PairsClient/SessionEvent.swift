import PairsWire

/// What a `ClientSession` reports to its owner, on the session's queue.
public enum SessionEvent: Sendable, Hashable {
    /// The first connection is open and the server said `welcome` (to the `hello` of the session's name,
    /// when it has one): time to `join` or `watch`.
    case ready(Welcome)
    /// The server refused the session's name before `ready`: it belongs to someone (`name_taken`), the
    /// password is wrong (`bad_password`), or the server keeps no names (`no_storage`). Nothing was joined;
    /// the owner says hello again with a password (`ClientSession.sayHello(password:)`) or gives up.
    case nameRefused(RequestError)
    /// A message from the server. The greeting of a reconnection is not among them; it becomes
    /// `.reconnected`.
    case message(ServerMessage)
    /// A line from the server that this client cannot read; the session carries on.
    case unreadableLine(reason: String)
    /// The server sent something this client does not know (a newer protocol's field, event kind or
    /// message type), and it was skipped. Reported once per session, for the first such thing: a newer
    /// server sends it with every state, and saying so every time would drown everything else.
    case skippedUnknown(UnknownPart)
    /// The connection dropped without a goodbye; the session is about to try to get back in.
    case connectionLost(ConnectionEnd)
    /// Attempt number `attempt` to reconnect starts in `delayMilliseconds`.
    case reconnecting(attempt: Int, delayMilliseconds: Int)
    /// A new connection is open; the seat (or the room being watched) is being taken back, and the
    /// server's `joined` and states follow as messages.
    case reconnected
    /// The server refused to give the seat back (the grace period ran out, or it restarted): the player is
    /// in the lobby of the new connection.
    case seatLost(RequestError)
    /// The session is over; nothing follows.
    case ended(SessionEnd)
}

/// Why a session ended.
public enum SessionEnd: Sendable, Hashable, CustomStringConvertible {
    /// The first connection could not be made.
    case cannotConnect(ConnectionError)
    /// The player quit, or the owner closed the session.
    case quit
    /// The server said goodbye for a reason that reconnecting would not fix.
    case bye(ByeReason)
    /// The connection dropped and every attempt to get back failed until the window closed; `lastError` is
    /// why the last one failed, in a few words ("connection refused").
    case gaveUp(lastError: String)

    public var description: String {
        switch self {
        case .cannotConnect(let error): "\(error)"
        case .quit: "quit"
        case .bye(let reason): reason.explanation
        case .gaveUp(let lastError): "could not reconnect (\(lastError)); giving up"
        }
    }
}

extension ByeReason {
    /// The server's reason for closing, said to a player.
    public var explanation: String {
        switch self {
        case .shutdown: "the server is shutting down"
        case .serverFull: "the server is full; try again later"
        case .idle: "the server closed the connection after a long time without a message"
        case .flooding: "the server cut the connection: too many messages too fast"
        case .tooSlow: "the server cut the connection: this client fell behind reading"
        case .quit: "disconnected"
        case .replaced: "your seat was taken over by another connection with your token"
        }
    }

    /// Whether a new connection could carry on where this one stopped. A client that fell behind can
    /// catch up; a server going down, a deliberate goodbye, or being replaced cannot be undone by retrying.
    var invitesReconnect: Bool {
        self == .tooSlow
    }
}
