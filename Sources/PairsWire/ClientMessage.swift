import PairsRules

/// A request from a client, as JSON (`{"type":"flip","card":3}`) or as a text command (`flip 3`).
///
/// The cases with large payloads (a join's rules, the queries of kept games) are `indirect`: every flip
/// is decoded into this type and passed along by value, so it stays as small as a flip's few words.
public enum ClientMessage: Sendable, Hashable {
    /// Sets the player's name (already cleaned) and optionally checks the protocol version. With a
    /// password, claims the name (when nobody has) or proves it is the player's (when someone has).
    /// `followsRedirects` (`"redirects": true`) says the client reconnects where a `redirect` sends it.
    case hello(name: String, password: String? = nil, followsRedirects: Bool = false)
    /// Joins a named room, or quick match without a name.
    indirect case join(JoinRequest)
    case flip(card: Int)
    case leave
    case rematch
    /// Chat to the room; the text is already cleaned.
    case say(text: String)
    case watch(room: String)
    /// A page of the room list.
    case list(ListQuery)
    case resume(token: String)
    case ping
    case stats
    case help
    case quit
    /// Finished games, newest first.
    indirect case history(HistoryQuery)
    /// One finished game in full: its deal and every move.
    case replay(game: Int64)
    /// The best players of a ladder (a variant).
    indirect case leaderboard(LeaderboardQuery)
    /// A name's ratings, totals and last games.
    case profile(name: String, tournament: String? = nil)
    /// Creating, joining, leaving, starting, listing and watching tournaments.
    indirect case tournament(TournamentRequest)
}

extension ClientMessage {
    /// `list` of the first page, as many rooms as a person reads at once: what a client that knows no
    /// `limit` or `after` sends.
    public static var list: ClientMessage { .list(ListQuery()) }
}

/// What `list` asks for: `limit` rooms at most, those after the cursor `after` (an earlier answer's `next`).
public struct ListQuery: Sendable, Hashable {
    public var limit: Int?
    public var after: RoomListCursor?

    public init(limit: Int? = nil, after: RoomListCursor? = nil) {
        self.limit = limit
        self.after = after
    }
}

/// Where a page of the room list ended, as its `next` says and the following `list` sends back in
/// `after`: the last room of the page and whether it had a free seat, since rooms with one come first.
/// Sent as `open/NAME` or `full/NAME`; clients treat it as opaque.
public struct RoomListCursor: Sendable, Hashable {
    public var hasFreeSeat: Bool
    public var room: String

    public init(hasFreeSeat: Bool, room: String) {
        self.hasFreeSeat = hasFreeSeat
        self.room = room
    }

    /// The cursor as sent, or nil for a string no `next` could have been.
    public init?(wireValue: String) {
        let parts = wireValue.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "open" || parts[0] == "full", RoomName.isValid(String(parts[1])) else { return nil }
        self.init(hasFreeSeat: parts[0] == "open", room: String(parts[1]))
    }

    public var wireValue: String { (hasFreeSeat ? "open/" : "full/") + room }
}

/// The limits of `list`, as protocol.md gives them.
public enum ListLimits {
    /// Rooms one page holds at most (fewer when their line would pass the line limit).
    public static let limitRange: ClosedRange<Int> = 1...50
    /// Rooms a page holds when the request does not say: as many as a person reads at a glance.
    public static let defaultLimit = 10
}

/// What `history` asks for: games a name played, games of one variant, or both; `limit` games at most,
/// older than game `before` (for paging).
public struct HistoryQuery: Sendable, Hashable {
    public var name: String?
    public var rules: RuleChoices?
    public var limit: Int?
    public var before: Int64?
    /// The key of a tournament whose games to list (a kept game's `tournament`).
    public var tournament: String?

    public init(name: String? = nil, rules: RuleChoices? = nil, limit: Int? = nil, before: Int64? = nil, tournament: String? = nil) {
        self.name = name
        self.rules = rules
        self.limit = limit
        self.before = before
        self.tournament = tournament
    }
}

/// What `leaderboard` asks for: the ladder of the variant `rules` make (the classic game's without them),
/// `limit` places at most, a solo ladder ordered `by` time (the default) or by flips.
public struct LeaderboardQuery: Sendable, Hashable {
    public var rules: RuleChoices?
    public var limit: Int?
    public var by: SoloRankingKind?

    public init(rules: RuleChoices? = nil, limit: Int? = nil, by: SoloRankingKind? = nil) {
        self.rules = rules
        self.limit = limit
        self.by = by
    }
}

/// The limits of the storage requests, as protocol.md gives them.
public enum StorageLimits {
    /// Games or places one answer holds at most: a page of a screen.
    public static let limitRange: ClosedRange<Int> = 1...100
    /// How many when a request does not say.
    public static let defaultLimit = 20
    /// The longest password, in UTF-8 bytes: room for any passphrase, bounded so a hash costs what it should.
    public static let maxPasswordBytes = 256
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
    /// Seconds to wait before asking again (`retry_after`), for a refusal that passes with time
    /// (`too_many_guesses`, `busy`).
    public var retryAfterSeconds: Int?

    public init(_ code: ErrorCode, _ message: String, id: RequestID? = nil, retryAfterSeconds: Int? = nil) {
        self.code = code
        self.message = message
        self.id = id
        self.retryAfterSeconds = retryAfterSeconds
    }
}
