import PairsRules

/// A request from a client, as JSON (`{"type":"flip","card":3}`) or as a text command (`flip 3`).
public enum ClientMessage: Sendable, Hashable {
    /// Sets the player's name (already cleaned) and optionally checks the protocol version.
    case hello(name: String)
    /// Joins a named room, or quick match without a name.
    case join(JoinRequest)
    case flip(card: Int)
    case leave
    case rematch
    /// Chat to the room; the text is already cleaned.
    case say(text: String)
    case watch(room: String)
    case list
    case resume(token: String)
    case ping
    case stats
    case help
    case quit
}

/// A request with the `id` the client gave it, if any.
public struct Request: Sendable, Hashable {
    public var id: RequestID?
    public var message: ClientMessage

    public init(id: RequestID? = nil, _ message: ClientMessage) {
        self.id = id
        self.message = message
    }
}

/// A `join`: the room to join or create (nil for quick match) and the rules to create it with. Rules left
/// unchosen take the server's defaults; all are ignored when the room exists already.
public struct JoinRequest: Sendable, Hashable {
    public var room: String?
    public var rules: RuleChoices

    public init(room: String? = nil, rules: RuleChoices = RuleChoices()) {
        self.room = room
        self.rules = rules
    }
}

/// A request that could not be understood: the error to send back, with the request's id when it could
/// be read.
public struct RequestError: Error, Sendable, Hashable {
    public var code: ErrorCode
    public var message: String
    public var id: RequestID?

    public init(_ code: ErrorCode, _ message: String, id: RequestID? = nil) {
        self.code = code
        self.message = message
        self.id = id
    }
}
