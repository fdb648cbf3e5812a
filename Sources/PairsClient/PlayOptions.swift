/// What `pairs play` was asked to do.
public struct PlayOptions: Sendable, Hashable {
    public var endpoint: ServerEndpoint
    /// The player's name; nil keeps the server's default ("player1").
    public var name: String?
    /// The room to join or create; nil for quick match. Ignored when watching.
    public var room: String?
    /// The room to watch instead of playing.
    public var watch: String?
    /// Pairs on the board when this player creates the room; nil for the server's default.
    public var pairs: Int?

    public init(endpoint: ServerEndpoint = ServerEndpoint(), name: String? = nil, room: String? = nil,
                watch: String? = nil, pairs: Int? = nil) {
        self.endpoint = endpoint
        self.name = name
        self.room = room
        self.watch = watch
        self.pairs = pairs
    }
}
