/// Where to repeat a request that this server cannot answer because another instance of its cluster holds
/// what it is for: the room to join or watch, or the seat of the resume token. Sent only to a client that
/// said in `hello` that it follows redirects; it connects to `host`:`port`, says `hello` again, and repeats
/// the request (`request`, with `room` or `token`) there. Nothing changed on this server.
public struct Redirect: Sendable, Hashable {
    /// Which request to repeat.
    public enum Kind: String, Sendable, Hashable {
        case join, watch, resume
    }

    public var host: String
    public var port: Int
    public var request: Kind
    /// The room of a `join` or `watch`.
    public var room: String?
    /// The token of a `resume`.
    public var token: String?
    public var id: RequestID?

    public init(host: String, port: Int, request: Kind, room: String? = nil, token: String? = nil, id: RequestID? = nil) {
        self.host = host
        self.port = port
        self.request = request
        self.room = room
        self.token = token
        self.id = id
    }
}
