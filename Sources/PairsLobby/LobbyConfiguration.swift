import PairsRules

/// Everything the lobby's decisions depend on besides the requests and the moments they arrive at.
public struct LobbyConfiguration: Sendable {
    /// Rules for rooms whose creator does not choose them.
    public var defaultRules = RuleSet.standard
    /// How long a dropped player keeps the seat.
    public var graceSeconds = 60
    /// Every room deals its boards from this seed when set, so games can be replayed.
    public var seed: UInt64?
    /// Connections in no room are closed after this many seconds without a message.
    public var idleSeconds = 300
    /// The limit on each connection's messages; nil turns it off (for load tests).
    public var rateLimit: RateLimit? = RateLimit(messagesPerSecond: 40)
    /// Whether finished games are kept (history, replays, ratings) and names can be claimed: the server has
    /// a store. Off, those requests get `no_storage`.
    public var keepsGames = false
    /// Seats kept for dropped players, per address and in all: what bounds the rooms nobody is connected to.
    public var roomLimits = RoomLimits()
    /// How many wrong passwords an address, or a name, may have, and how long it then waits.
    public var passwordGuesses = PasswordGuessLimiter.Policy()
    /// How many tournaments the server holds, and their pace.
    public var tournaments = TournamentHosting()

    public init() {}

    var graceMilliseconds: Int64 { Int64(graceSeconds) * 1000 }
    var idleMilliseconds: Int64 { Int64(idleSeconds) * 1000 }
}
