import PairsRules
import PairsWire

/// The server's decisions: rooms, the room directory, quick match, seats and tokens, chat, names, rate
/// limits and the idle limit, tournaments (`Lobby+Tournaments`), and what every request does.
///
/// The lobby touches no socket and reads no clock. The transport hands it connections arriving and
/// leaving, every message a connection sends, and the moment each of these happens; the lobby answers with
/// actions (`LobbyAction`: send these bytes to these connections, close this one) that the transport carries
/// out in order (`performActions`). Time passing is an input too: the lobby names its next
/// deadline (`nextDeadline`), and the transport calls `advance(to:)` once that moment has come. So tests
/// drive the lobby with moments of their own and see a 60 s grace period run out in microseconds.
///
/// One lobby is one shard of the server's rooms: a server with K event loops runs K lobbies, each holding
/// its loop's rooms and connections, sharing a `LobbyDirectory` for what spans them (which shard holds which
/// room, the room list, quick match, resume tokens, the limits per address). A request for a room on
/// another shard is not handled here: the connection is handed over (`takeHandOffs`), and the other shard
/// handles the request (`receive(_:at:)` for a `HandOff`). With one shard (the first initializer) it is
/// the whole lobby, as it always was.
///
/// Not thread-safe: its owner calls it from one queue (its loop's), one call at a time.
public final class Lobby {
    let configuration: LobbyConfiguration
    let serverName: String
    let startedAt: Moment
    /// What `welcome` suggests typing first.
    let hint = "type: join | join ROOM | list | help"

    /// Every connection the lobby knows, open and not closed by the lobby.
    var clients = ConnectionTable<Client>()
    var directory: RoomDirectory
    var idleList = IdleList()
    var deadlines = RoomDeadlines()
    var counters = ServerStatistics()
    /// Connections this shard handed to others since the server started: 0 in steady play.
    var handOffCount = 0
    /// Tokens and seeds come from here: the system's random source in the server.
    var random: any RandomNumberGenerator

    /// Actions not yet taken by the transport, oldest first. Optional so that each can be moved out of a
    /// batch (`take()`), leaving nil, rather than copied out (a retain of the bytes it carries).
    private var outbox: [LobbyAction?] = []
    /// The storage of the last batch the transport took, empty, kept to become the next outbox: the two
    /// arrays trade places, so once both have grown the hot path appends without allocating.
    private var spareOutbox: [LobbyAction?] = []
    /// Connections handed to other shards, not yet taken by the transport.
    var handOffs: [HandOff] = []
    /// Room names this shard is claiming from the cluster, with who waits for the answer.
    var clusterClaims = ClusterClaims()
    /// The tournaments this shard runs, by name (`Lobby+Tournaments`).
    var tournaments: [String: HostedTournament] = [:]
    /// The earliest moment any of them must act at.
    var tournamentDeadline: Moment?

    /// The whole lobby, alone: one shard with a directory of its own.
    public convenience init(
        configuration: LobbyConfiguration, serverName: String, startedAt: Moment,
        random: any RandomNumberGenerator = SystemRandomNumberGenerator()
    ) {
        self.init(configuration: configuration, serverName: serverName, startedAt: startedAt, random: random,
                  directory: LobbyDirectory(shards: 1, configuration: configuration), shard: 0)
    }

    /// Shard number `shard` of the lobbies sharing `directory`, each made with the same configuration.
    public init(
        configuration: LobbyConfiguration, serverName: String, startedAt: Moment,
        random: any RandomNumberGenerator = SystemRandomNumberGenerator(),
        directory shared: LobbyDirectory, shard: Int
    ) {
        self.configuration = configuration
        self.serverName = serverName
        self.startedAt = startedAt
        self.random = random
        directory = RoomDirectory(shared: shared, shard: shard)
        outbox.reserveCapacity(64)
        spareOutbox.reserveCapacity(64)
    }

    /// This shard's number in its directory.
    public var shard: Int { directory.shard }

    /// The directory this shard shares with the others.
    public var sharedDirectory: LobbyDirectory { directory.shared }

    // MARK: Inputs

    /// A connection arrived: it is greeted, and sits in no room.
    public func connect(_ id: ConnectionID, peer: String, at now: Moment) {
        let client = Client(id: id, peer: peer, now: now, rateLimit: configuration.rateLimit)
        clients[id] = client
        idleList.touch(client)
        send(.welcome(Welcome(server: serverName, session: id.description, hint: hint)), to: client)
        log(.debug, .connected(id, peer: peer))
    }

    /// One whole message from a connection (a line without its terminator). Connections the lobby does not
    /// know, or has closed, are ignored: their last bytes may still be in flight.
    public func receive(_ message: UnsafeRawBufferPointer, from id: ConnectionID, at now: Moment) {
        guard let client = clients[id] else { return }
        noteActivity(of: client, at: now)
        let request: Request?
        do {
            request = try RequestDecoder.decode(line: message)
        } catch {
            guard admit(messageFrom: client, id: error.id, at: now) else { return }
            counters.errors[error.code, default: 0] += 1
            send(.error(error), to: client)
            return
        }
        // A blank line is ignored but still counts against the rate, so newlines alone cannot flood.
        guard admit(messageFrom: client, id: request?.id, cost: request?.message.rateCost ?? 1, at: now), let request else { return }
        guard !client.isWaiting else { return postpone(request, of: client) }
        handle(request, from: client, at: now)
    }

    /// The store's word on a name a `hello` asked for: the name is set (and proved, with a password) or
    /// refused, and the requests that waited behind the `hello` are handled in order.
    public func nameChecked(_ lookup: NameLookup, _ result: NameCheckResult, at now: Moment) {
        // A password's answer counts for the limits whether or not its connection is still there.
        var guessing: (addressFailures: Int, nameFailures: Int, retryAt: Moment)?
        if lookup.password != nil {
            if result == .wrongPassword {
                guessing = directory.shared.passwordFailed(name: lookup.name, address: lookup.address, at: now)
            } else {
                directory.shared.passwordFinished(name: lookup.name, address: lookup.address)
            }
        }
        if let guessing, now < guessing.retryAt {
            // The line an operator acts on: which address guesses at which name, how often.
            log(.warning, .passwordGuessing(address: lookup.address, name: lookup.name, addressFailures: guessing.addressFailures,
                                            nameFailures: guessing.nameFailures, retryAfterMilliseconds: now.milliseconds(until: guessing.retryAt)))
        }
        guard let client = clients[lookup.connection], let pending = client.pendingHello, pending.name == lookup.name else { return }
        client.pendingHello = nil
        switch result {
        case .free, .claimed, .verified:
            client.name = lookup.name
            if result != .free {
                client.provenName = lookup.name
                client.failedPasswords = 0
            }
            send(.welcome(Welcome(server: serverName, session: client.id.description, hint: hint, name: lookup.name, id: pending.id)), to: client)
            if result == .claimed { log(.info, .nameClaimed(logged(client))) }
        case .taken:
            refuse(.nameTaken, "the name \(lookup.name) belongs to someone: say hello with its password, or pick another", id: pending.id, to: client)
        case .wrongPassword:
            client.failedPasswords += 1
            refuse(.badPassword, "that is not the password of \(lookup.name)", id: pending.id, to: client)
            log(.warning, .wrongPassword(logged(client), name: lookup.name, inARow: client.failedPasswords))
        case .looksLike(let claimed):
            refuse(.nameTaken, "the name \(lookup.name) looks too much like \(claimed), which belongs to someone: pick another", id: pending.id, to: client)
        case .unusablePassword(let reason):
            refuse(.badField, reason, id: pending.id, to: client)
        case .busy:
            refuse(.busy, "too many passwords are waiting to be checked; try again in a moment", id: pending.id, to: client,
                   retryAfterSeconds: 1)
        case .timedOut:
            refuse(.storageTimeout, "the store did not answer in time; try again later", id: pending.id, to: client)
        case .unavailable:
            refuse(.noStorage, "names cannot be checked right now; try again later", id: pending.id, to: client)
        }
        handleDeferred(of: client, at: now)
    }

    /// A message over the protocol's length limit arrived from a connection; its bytes were discarded.
    public func receiveTooLong(from id: ConnectionID, at now: Moment) {
        guard let client = clients[id] else { return }
        noteActivity(of: client, at: now)
        guard admit(messageFrom: client, id: nil, at: now) else { return }
        refuse(.tooLong, "a line is at most \(LineFramer.maxLineBytes) bytes; this one was dropped", id: nil, to: client)
    }

    /// A WebSocket frame that is not a whole message arrived (a ping, a pong, a fragment of a message): it
    /// counts against the rate limit as a message does, so that frames the lobby never sees cannot flood
    /// the server either. Returns whether to carry it out (answer a ping). One over the limit is dropped
    /// without a word (there is no request to refuse); a connection that keeps on is closed with `bye
    /// flooding`, as one flooding with lines is.
    /// Unlike a message, a frame is not activity for the idle limit nor a message in `stats`, as before.
    public func receiveFrame(from id: ConnectionID, at now: Moment) -> Bool {
        guard let client = clients[id] else { return false }
        return admit(messageFrom: client, id: nil, tellingDrops: false, at: now)
    }

    /// The transport lost the connection (or is shutting down): a player keeps the seat for the grace
    /// period. Nothing more is sent to it.
    public func disconnect(_ id: ConnectionID, because cause: DisconnectCause, at now: Moment) {
        guard let client = clients[id] else { return }
        if !client.hasSpoken {
            log(.debug, .silentClosed(client.id, peer: client.peer, .lost(cause)))
        } else {
            let departure: Departure = client.lastRequestWasLeave && cause.endsFromTheClientsSide ? .quitAfterLeave : .lost(cause)
            // Connections cut by a shutdown are counted in the transport's one line; each is a detail.
            log(cause == .shutdown ? .debug : .info, .disconnected(logged(client), from: loggedPlace(of: client), departure))
        }
        // At a shutdown every seat is kept as it is: nothing outlives it, and its one line says it all.
        forget(client, at: now, keepingSeat: cause == .shutdown)
    }

    /// The earliest moment at which `advance(to:)` has something to do: a room's match deadline (a reveal
    /// ending, a turn clock running out, a grace period ending) or a connection in no room going idle.
    public var nextDeadline: Moment? {
        let idle = idleList.first.map { $0.lastActivity.adding(milliseconds: configuration.idleMilliseconds) }
        let earliest: Moment? = switch (deadlines.earliest, idle) {
        case (let room?, let idle?): min(room, idle)
        case (let room, let idle): room ?? idle
        }
        guard let tournament = tournamentDeadline else { return earliest }
        return earliest.map { min($0, tournament) } ?? tournament
    }

    /// Carries out everything due at or before `now`: matches' deadlines, room by room in the order they
    /// fell due, then idle connections.
    public func advance(to now: Moment) {
        while let room = deadlines.popDue(at: now) {
            lapsePromise(of: room, at: now)
            publish(room.match.advance(to: now), in: room, id: nil, at: now)
        }
        advanceTournaments(to: now)
        while let oldest = idleList.first,
              oldest.lastActivity.milliseconds(until: now) >= configuration.idleMilliseconds {
            // Waiting for a tournament's next game is not idleness: it leaves the list until its next room.
            if followsTournament(oldest) { idleList.remove(oldest); continue }
            close(oldest, .idle, at: now)
        }
    }

    // MARK: Outputs

    /// Hands every action waiting to `perform`, oldest first, until none is left. Performing one may call
    /// the lobby again (a send that finds the connection gone), which can add more: those come after the
    /// ones already waiting.
    ///
    /// The actions go out in batches: the outbox is swapped for an empty array and the batch is walked
    /// with no access to the lobby's own storage, where taking one action at a time cost a checked access
    /// to the outbox (exclusivity enforcement) for every send of every change.
    public func performActions(_ perform: (LobbyAction) -> Void) {
        while !outbox.isEmpty {
            var batch = spareOutbox
            spareOutbox = []
            swap(&batch, &outbox)
            for index in batch.indices { perform(batch[index].take()!) }
            batch.removeAll(keepingCapacity: true)
            spareOutbox = batch
        }
    }

    /// The lobby's counters: connections, rooms, games, flips and messages received. Bytes and messages
    /// sent are the transport's to add.
    public func statistics(at now: Moment) -> ServerStatistics {
        var stats = counters
        stats.connections = clients.count
        stats.rooms = directory.count
        stats.gamesActive = directory.activeGames
        stats.uptimeSeconds = Int(startedAt.milliseconds(until: now) / 1000)
        return stats
    }

    /// How many connections the lobby knows.
    public var connectionCount: Int { clients.count }

    /// Games begun and not over (peek, playing or reveal): what a shutdown cuts short.
    public var gamesInProgress: Int { directory.gamesInProgress }

    // MARK: Shared by the request handlers

    func append(_ action: LobbyAction) {
        outbox.append(action)
    }

    /// Sends `bytes` to everyone in `room` (`Room.forEachRecipient`, `first` first) as one broadcast.
    func broadcast(_ bytes: [UInt8], messages: Int, in room: Room, first: ConnectionID? = nil) {
        var starts = true
        room.forEachRecipient(first: first) {
            append(.broadcast(bytes, messages: messages, to: $0, first: starts))
            starts = false
        }
    }

    func send(_ message: ServerMessage, to client: Client) {
        append(.send(ServerMessageEncoder.encode(message), messages: 1, to: client.id))
    }

    func refuse(_ code: ErrorCode, _ message: String, id: RequestID?, to client: Client, retryAfterSeconds: Int? = nil) {
        counters.errors[code, default: 0] += 1
        send(.error(RequestError(code, message, id: id, retryAfterSeconds: retryAfterSeconds)), to: client)
    }

    /// What the password limits count a peer by (`HOST:PORT`, `[V6]:PORT` as the transport gives it): its
    /// address, since a reconnect changes only the port; for IPv6, its /64 network, since one host usually
    /// has a whole /64 to pick addresses from.
    public static func address(ofPeer peer: String) -> String {
        if peer.hasPrefix("["), let close = peer.firstIndex(of: "]") {
            let host = String(peer[peer.index(after: peer.startIndex)..<close])
            return network64(of: host) ?? host
        }
        guard let colon = peer.lastIndex(of: ":") else { return peer }
        return String(peer[..<colon])
    }

    /// `a:b:c:d::/64` for an IPv6 address written as the transport writes them; nil for an IPv4-mapped one
    /// (`::ffff:10.0.0.9`, counted as the IPv4 address it is) or text that is not an IPv6 address.
    static func network64(of host: String) -> String? {
        guard !host.contains(".") else { return nil }
        let halves = host.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2 else { return nil }
        let head = halves[0].isEmpty ? [] : halves[0].split(separator: ":").map(String.init)
        let tail = halves.count == 2 && !halves[1].isEmpty ? halves[1].split(separator: ":").map(String.init) : []
        let missing = 8 - head.count - tail.count
        guard halves.count == 2 ? missing >= 1 : missing == 0 else { return nil }
        let groups = head + Array(repeating: "0", count: missing) + tail
        guard groups.allSatisfy({ (1...4).contains($0.count) && UInt16($0, radix: 16) != nil }) else { return nil }
        return groups.prefix(4).map { String(UInt16($0, radix: 16)!, radix: 16) }.joined(separator: ":") + "::/64"
    }

    func log(_ level: LogLevel, _ event: LobbyEvent) {
        append(.log(LogEntry(level, event)))
    }

    /// The connection as the log names it.
    func logged(_ client: Client) -> LoggedConnection {
        LoggedConnection(id: client.id, name: client.name, peer: client.peer)
    }

    /// Where the connection is, as the log says it.
    func loggedPlace(of client: Client) -> LoggedPlace {
        switch client.place {
        case .lobby: .lobby
        case .seated(let room, let seat): .seated(room: room.name, seat: seat)
        case .watching(let room): .watching(room: room.name)
        }
    }

    /// Closes the connection with `bye`: it leaves its room (a player keeps the seat for the grace period)
    /// and the lobby forgets it.
    func close(_ client: Client, _ reason: ByeReason, at now: Moment) {
        if client.hasSpoken {
            log(.info, .disconnected(logged(client), from: loggedPlace(of: client), .closed(reason)))
        } else {
            log(.debug, .silentClosed(client.id, peer: client.peer, .closed(reason)))
        }
        forget(client, at: now)
        append(.close(client.id, reason))
    }

    /// Requests a connection may send while a `hello` waits for the store, beyond which they are refused:
    /// a person or a bot sends a few; only a client that floods sends more.
    static let maxDeferredRequests = 64

    /// Keeps `request` until the pending `hello` is answered.
    private func postpone(_ request: Request, of client: Client) {
        guard client.deferred.count < Self.maxDeferredRequests else {
            return refuse(.rateLimited, "wait for the answer to your hello", id: request.id, to: client)
        }
        client.deferred.append(request)
    }

    /// Takes a connection out of the lobby and out of its room.
    private func forget(_ client: Client, at now: Moment, keepingSeat: Bool = false) {
        clients[client.id] = nil
        idleList.remove(client)
        detachFromRoom(client, at: now, keepingSeat: keepingSeat)
        if !tournaments.isEmpty { tournamentConnectionGone(client, at: now) }
    }

    private func noteActivity(of client: Client, at now: Moment) {
        counters.messagesIn += 1
        client.lastActivity = now
        client.hasSpoken = true
        if client.isInIdleList { idleList.touch(client) }
    }

    /// Applies the rate limit to a message that costs `cost` messages' worth of work: false when it is
    /// dropped (the client is told, unless `tellingDrops` is false, or cut off once it has been told too
    /// often).
    private func admit(messageFrom client: Client, id: RequestID?, cost: Int = 1, tellingDrops: Bool = true, at now: Moment) -> Bool {
        guard let limit = configuration.rateLimit else { return true }
        switch client.rateLimiter?.admit(cost: cost, at: now) ?? .accepted {
        case .accepted:
            return true
        case .dropped:
            if tellingDrops {
                let worth = cost > 1 ? " (this request counts as \(cost))" : ""
                refuse(.rateLimited, "more than \(limit.messagesPerSecond) messages a second\(worth): this one was dropped", id: id, to: client)
            }
            return false
        case .flooding:
            close(client, .flooding, at: now)
            return false
        }
    }
}
