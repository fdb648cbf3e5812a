import PairsBots
import PairsRules
import PairsWire

/// What a bot plays, where, and how.
public struct BotConfiguration: Sendable, Hashable {
    /// The longest a bot may think, in milliseconds: the default turn clock is 30 seconds and a bot must
    /// never time itself out.
    public static let maxThinkMilliseconds = 10_000
    /// How long `pairs bot` thinks before each flip unless told otherwise, in milliseconds: long enough for
    /// a person playing against it to see what it turned.
    public static let standardThinkMilliseconds = 600

    public var endpoint: ServerEndpoint
    /// The room to join or create; nil for quick match.
    public var room: String?
    /// The rules the bot asks for when it creates a room; what it leaves unchosen is the server's.
    public var rules: RuleChoices
    /// Games to finish before leaving; 0 plays on until stopped.
    public var games: Int
    public var strategy: StrategyKind
    public var thinkMilliseconds: Int
    public var name: String
    /// The name's password, to claim it or prove it is the bot's: only games between claimed names are
    /// rated. Nil plays under the name unclaimed.
    public var password: String?
    /// Seeds the bot's own choices (which unseen card to try), so a run can be repeated.
    public var seed: UInt64
    /// A tournament to enter instead of joining a room: the server seats the bot in every game it pairs it
    /// for, and the bot plays them all and finishes when the tournament does (`games` is not counted).
    public var tournament: String?

    public init(endpoint: ServerEndpoint = ServerEndpoint(), room: String? = nil, rules: RuleChoices = RuleChoices(), games: Int = 0,
                strategy: StrategyKind = .memory, thinkMilliseconds: Int = BotConfiguration.standardThinkMilliseconds,
                name: String? = nil, password: String? = nil, seed: UInt64 = 0) {
        self.endpoint = endpoint
        self.room = room
        self.rules = rules
        self.games = games
        self.strategy = strategy
        self.thinkMilliseconds = thinkMilliseconds
        self.name = name ?? "bot-\(strategy.rawValue)"
        self.password = password
        self.seed = seed
        self.tournament = nil
    }
}
