import PairsRules
import PairsWire

/// A connection on its way from one shard to another, with the request that sent it there: the other
/// shard holds the room the request is for (a `join`, `watch` or `resume`, or the quick-match room waiting
/// for a player), and only that shard may touch the room. The shard that hands the connection over has
/// forgotten it; the transport moves the socket to the destination's loop and gives this to its lobby
/// (`Lobby.receive(_:at:)`), which handles the request as if it had arrived there.
///
/// Only a connection in no room moves (each of these requests wants one), so nothing of a room travels.
public struct HandOff: Sendable {
    /// The connection that moves.
    public let connection: ConnectionID
    /// The shard (event loop) it moves to.
    public let shard: Int
    let client: ExportedClient
    let request: Request
}

/// What the lobby knows of a connection in no room, as it travels between shards: its name, its limits'
/// state, and the requests that waited behind a `hello` and are still to be handled.
struct ExportedClient: Sendable {
    let id: ConnectionID
    let peer: String
    let name: String
    let rateLimiter: RateLimiter?
    let provenName: String?
    let failedPasswords: Int
    let deferred: [Request]
    let lastActivity: Moment
    let hasSpoken: Bool
    let lastRequestWasLeave: Bool
    let followsRedirects: Bool
}

extension Client {
    /// The client as it leaves: its later deferred requests go with it, to be handled after the one that
    /// moves it. A client waiting for the store's word on a name never moves (its requests wait).
    var exported: ExportedClient {
        ExportedClient(id: id, peer: peer, name: name, rateLimiter: rateLimiter, provenName: provenName, failedPasswords: failedPasswords,
                       deferred: deferred, lastActivity: lastActivity, hasSpoken: hasSpoken, lastRequestWasLeave: lastRequestWasLeave,
                       followsRedirects: followsRedirects)
    }

    convenience init(_ exported: ExportedClient) {
        self.init(id: exported.id, peer: exported.peer, now: exported.lastActivity, rateLimit: nil)
        name = exported.name
        rateLimiter = exported.rateLimiter
        provenName = exported.provenName
        failedPasswords = exported.failedPasswords
        deferred = exported.deferred
        hasSpoken = exported.hasSpoken
        lastRequestWasLeave = exported.lastRequestWasLeave
        followsRedirects = exported.followsRedirects
    }
}

extension Lobby {
    // MARK: Moving connections between shards

    /// The connections this shard has handed to others since the last call, oldest first; each was
    /// forgotten here when it was handed over. The transport takes them after `performActions` (whatever
    /// this shard sent a moving connection is queued by then) and, for each, moves the socket with its
    /// queued output and its unread input to loop `shard` and calls that loop's `receive(_:at:)`.
    public func takeHandOffs() -> [HandOff] {
        defer { handOffs.removeAll(keepingCapacity: true) }
        return handOffs
    }

    /// Whether a connection was handed over since `takeHandOffs` was last called: the transport checks it
    /// after each message it passes in, and passes the connection's later messages to the destination.
    public var hasHandOffs: Bool { !handOffs.isEmpty }

    /// A connection handed over by another shard arrives, and its request is handled here, then the
    /// requests that waited with it. Delivered even when its socket closed on the way (the transport then
    /// calls `disconnect` next), so that the lobby's books always balance.
    public func receive(_ handOff: HandOff, at now: Moment) {
        precondition(handOff.shard == directory.shard, "a hand-off for shard \(handOff.shard) reached shard \(directory.shard)")
        let client = Client(handOff.client)
        clients[client.id] = client
        idleList.touch(client)
        handle(handOff.request, from: client, at: now)
        handleDeferred(of: client, at: now)
    }

    /// Forgets `client` here and hands it, with `request`, to `shard`, which holds what the request is for.
    func handOff(_ client: Client, _ request: Request, to shard: Int) {
        clients[client.id] = nil
        idleList.remove(client)
        handOffs.append(HandOff(connection: client.id, shard: shard, client: client.exported, request: request))
        client.deferred = []
        handOffCount += 1
    }

    /// Handles, in order, the requests that waited behind a `hello`, until one waits again or the client is
    /// gone from this shard (closed, or handed over with the rest).
    func handleDeferred(of client: Client, at now: Moment) {
        while !client.isWaiting, !client.deferred.isEmpty, clients[client.id] === client {
            handle(client.deferred.removeFirst(), from: client, at: now)
        }
    }

    /// This shard's part of `stats`'s `loops`.
    public var loopStatistics: LoopCounters {
        LoopCounters(connections: clients.count, rooms: directory.count, flips: counters.flips, handOffs: handOffCount)
    }
}

extension ServerStatistics {
    /// The lobby's counters of every shard as one: what `stats` reports with more than one loop, each
    /// shard's `Lobby.statistics(at:)` summed (the uptime is the longest). The transport's own counters
    /// (bytes, messages out, latency, storage) are left as the first part has them.
    public static func summing(_ parts: [ServerStatistics]) -> ServerStatistics {
        guard var total = parts.first else { return ServerStatistics() }
        for part in parts.dropFirst() {
            total.connections += part.connections
            total.rooms += part.rooms
            total.gamesActive += part.gamesActive
            total.gamesFinished += part.gamesFinished
            total.flips += part.flips
            total.messagesIn += part.messagesIn
            total.uptimeSeconds = max(total.uptimeSeconds, part.uptimeSeconds)
            total.errors.merge(part.errors, uniquingKeysWith: +)
            total.gamesFinishedByVariant.merge(part.gamesFinishedByVariant, uniquingKeysWith: +)
        }
        return total
    }
}
