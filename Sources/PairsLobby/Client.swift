import PairsRules
import PairsWire

/// The lobby's record of one connection: the name it goes by, where it is, and what the limits know of it.
///
/// The socket behind it belongs to the transport; the lobby knows the connection only by its `id`.
final class Client {
    /// Where a connection is.
    enum Place {
        /// In no room: it may join, watch, resume or list.
        case lobby
        /// Holding a seat of a room.
        case seated(Room, Seat)
        /// Watching a room.
        case watching(Room)
    }

    let id: ConnectionID
    /// The peer's address, for the log.
    let peer: String
    /// The peer's host without its port: what `RoomLimits` counts per address.
    let address: String
    /// The name `hello` set, used for rooms joined from now on. A room keeps the name a player joined
    /// with: renaming in the middle of a game changes nobody's name at the table.
    var name: String
    var place = Place.lobby
    /// Nil when the server has no rate limit.
    var rateLimiter: RateLimiter?
    /// The name this connection proved with its password (claimed or verified), if it did: only that
    /// name counts as claimed at a table.
    var provenName: String?
    /// Wrong passwords in a row, which make the next check wait longer (`PasswordThrottle`).
    var failedPasswords = 0
    /// A `hello` waiting for the store's word on its name, with its id.
    var pendingHello: (name: String, withPassword: Bool, id: RequestID?)?
    /// Requests that arrived while `pendingHello` waited: they are handled, in order, once it is answered,
    /// so that a `join` sent right after a `hello` sits down under the new name.
    var deferred: [Request] = []
    /// Whether the client said in `hello` that it follows `redirect`s to other instances of a cluster.
    var followsRedirects = false
    /// A `join`, `watch` or `resume` waiting for the cluster's word on where its room or seat is.
    var awaitedCluster: Request?
    /// A `tournament_join` waiting for the store's word on the entrant's rating (`Lobby.ratingFound`).
    var awaitedRating: Request?
    /// The last message received, for the idle limit.
    var lastActivity: Moment
    /// Whether the connection has sent anything at all: one that never did (a browser's spare socket, a
    /// port scan) is not a player, and its end is a debug line, not a `disconnect`.
    var hasSpoken = false
    /// Whether the last request handled was `leave`: if the connection then ends from the client's side,
    /// the client said goodbye (`Departure.quitAfterLeave`) rather than dropped.
    var lastRequestWasLeave = false

    /// Neighbours in the lobby's idle list (connections in no room, least recently active first).
    var idlePrevious: Client?
    var idleNext: Client?
    var isInIdleList = false

    init(id: ConnectionID, peer: String, now: Moment, rateLimit: RateLimit?) {
        self.id = id
        self.peer = peer
        self.address = Self.address(ofPeer: peer)
        self.name = "player\(id.value)"
        self.lastActivity = now
        self.rateLimiter = rateLimit.map { RateLimiter($0, now: now) }
    }

    /// The host of `HOST:PORT` or `[HOST]:PORT` (IPv6), or the whole string when it has no port.
    static func address(ofPeer peer: String) -> String {
        if peer.hasPrefix("["), let end = peer.firstIndex(of: "]") {
            return String(peer[peer.index(after: peer.startIndex)..<end])
        }
        guard let colon = peer.lastIndex(of: ":"), peer.firstIndex(of: ":") == colon else { return peer }
        return String(peer[..<colon])
    }

    /// The room the connection is in, seated or watching.
    var room: Room? {
        switch place {
        case .lobby: nil
        case .seated(let room, _), .watching(let room): room
        }
    }

    /// Whether the client's requests wait for an answer: the store's on a name or a rating, or the cluster's
    /// on a room.
    var isWaiting: Bool { pendingHello != nil || awaitedCluster != nil || awaitedRating != nil }

    /// Whether the connection plays under the name it proved.
    var hasProvenName: Bool { provenName == name }

    /// The seat the connection holds, if it holds one.
    var seat: Seat? {
        if case .seated(_, let seat) = place { seat } else { nil }
    }
}
