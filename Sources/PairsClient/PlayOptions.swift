import PairsRules
import PairsWire

/// What `pairs play` was asked to do.
public struct PlayOptions: Sendable, Hashable {
    public var endpoint: ServerEndpoint
    /// The player's name; nil keeps the server's default ("player1").
    public var name: String?
    /// The room to join or create; nil for quick match. Ignored when watching.
    public var room: String?
    /// The room to watch instead of playing.
    public var watch: String?
    /// The tournament to enter at the start instead of joining a room (`pairs tournament join`): the
    /// server then seats the player in each of its games.
    public var tournament: String?
    /// The rules this player asks for when creating a room; what is left unchosen is the server's.
    public var rules: RuleChoices
    /// Where the seats' resume tokens are kept, to take a seat back after the client was killed; nil keeps
    /// none (no home directory).
    public var savedSeats: SavedSeats?
    /// `--new`: take a new seat even when one saved by an earlier run is still held.
    public var ignoresSavedSeat: Bool
    /// `--quiet`: no bell when the player's turn begins.
    public var isQuiet: Bool
    /// How the name's password is had, to claim the name or prove it is the player's.
    public var password = PasswordSource.none
    /// The command the player ran, which its error lines start with: `pairs play`, or `pairs tournament`
    /// entering a tournament.
    public var command = "pairs play"

    public init(endpoint: ServerEndpoint = ServerEndpoint(), name: String? = nil, room: String? = nil,
                watch: String? = nil, rules: RuleChoices = RuleChoices(), savedSeats: SavedSeats? = nil,
                ignoresSavedSeat: Bool = false, isQuiet: Bool = false) {
        self.endpoint = endpoint
        self.name = name
        self.room = room
        self.watch = watch
        self.rules = rules
        self.savedSeats = savedSeats
        self.ignoresSavedSeat = ignoresSavedSeat
        self.isQuiet = isQuiet
    }
}
