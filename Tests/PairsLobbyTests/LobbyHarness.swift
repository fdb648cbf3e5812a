import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

/// A lobby driven on a manual clock, with every action it takes recorded per connection and decoded.
///
/// Nothing here sleeps: `advance(by:)` moves the clock and lets the lobby act on whatever fell due, so a
/// 60 s grace period runs out in microseconds.
///
/// With `shards` above 1 the lobby is that many shards sharing one directory, as a server's loops are, and
/// the harness plays the transport between them: it passes each connection's messages to the shard it is
/// on, and moves a connection handed over (`Lobby.takeHandOffs`) to its new shard, at once, or, with
/// `deliversHandOffs` off, only when a test says (`deliver`), so that tests can make races happen.
/// Messages sent by a connection on its way wait, and follow it, as its unread input would.
final class LobbyHarness {
    /// The first shard: the whole lobby when there is one.
    var lobby: Lobby { lobbies[0] }
    let lobbies: [Lobby]
    /// Whether hand-offs reach their shard as soon as they are made.
    var deliversHandOffs = true
    /// Hand-offs made and not yet delivered, oldest first.
    private(set) var inFlight: [HandOff] = []
    /// The shard each connection is on (the one it left, while on its way).
    private var location: [ConnectionID: Int] = [:]
    /// Messages sent by connections on their way, kept for their new shard.
    private var unread: [ConnectionID: [String]] = [:]
    /// Connections whose socket closed on their way: the new shard hears of it once it has them.
    private var droppedInFlight: [ConnectionID: DisconnectCause] = [:]
    private(set) var now = Moment(milliseconds: 1_000_000)
    /// Ids as the transport gives them: a slot goes to the next newcomer once its connection is gone, so
    /// every test also checks that a gone connection's id reaches nobody.
    private var ids = ConnectionIDIssuer()
    /// Connections gone for good (closed by the lobby, or dropped), whose slots were given back.
    private var gone: Set<ConnectionID> = []
    /// Every message each connection was sent, in order, decoded.
    private(set) var received: [ConnectionID: [ServerMessage]] = [:]
    /// Every byte each connection was sent, as the transport would write it.
    private(set) var bytes: [ConnectionID: [UInt8]] = [:]
    /// Every broadcast part, in order: whom it went to, whether it started a broadcast, and its bytes.
    private(set) var broadcasts: [(to: ConnectionID, first: Bool, bytes: [UInt8])] = []
    /// The `bye` each closed connection got.
    private(set) var closed: [ConnectionID: ByeReason] = [:]
    private(set) var log: [LogEntry] = []
    /// Games handed over to be kept, in order.
    private(set) var records: [FinishedGame] = []
    /// Finished tournaments handed to the store, in order.
    private(set) var tournamentRecords: [FinishedTournament] = []
    /// Questions for the store, with the connection and request that asked.
    private(set) var queries: [(query: StorageQuery, request: RequestID?, connection: ConnectionID)] = []
    /// Names waiting for the store's word, oldest first; `answerName(_:)` gives it.
    private(set) var lookups: [NameLookup] = []
    /// Tournament entrants' ratings waiting for the store, oldest first; `answerRating(_:)` gives one.
    private(set) var ratingLookups: [RatingLookup] = []
    /// Questions for the cluster, in the order the lobby asked them.
    var clusterInquiries: [ClusterInquiry] = []
    /// The seed every room deals from.
    let seed: UInt64
    /// Whether what the lobby sends is kept (and decoded); off while a test makes thousands of rooms it
    /// never reads from, where decoding every line cost most of the time.
    var keepsSends = true

    /// With `cluster`, the lobby is one instance of a cluster (its questions wait for `answerCluster`).
    init(shards: Int = 1, cluster: (any LobbyCluster)? = nil, _ configure: (inout LobbyConfiguration) -> Void = { _ in }) {
        var configuration = LobbyConfiguration()
        configuration.defaultRules = RuleSet(pairs: 2, turnSeconds: 30, revealMilliseconds: 1000, againOnMatch: true)
        configuration.seed = 3
        configure(&configuration)
        seed = configuration.seed ?? 3
        configuration.seed = seed
        if shards == 1, cluster == nil {
            lobbies = [Lobby(configuration: configuration, serverName: "pairs test", startedAt: now, random: SplitMix64(seed: 99))]
        } else {
            let directory = LobbyDirectory(shards: shards, configuration: configuration, cluster: cluster)
            let startedAt = now
            lobbies = (0..<shards).map {
                Lobby(configuration: configuration, serverName: "pairs test", startedAt: startedAt,
                      random: SplitMix64(seed: 99 + UInt64($0)), directory: directory, shard: $0)
            }
        }
    }

    /// A new connection on `shard`, greeted.
    @discardableResult
    func connect(from host: String = "127.0.0.1", on shard: Int = 0) -> ConnectionID {
        let id = ids.issue()
        location[id] = shard
        lobbies[shard].connect(id, peer: "\(host):\(40_000 + id.value)", at: now)
        collect()
        return id
    }

    /// The shard `id` is on, or left while on its way.
    func shard(of id: ConnectionID) -> Int? { location[id] }

    /// Moves the oldest hand-off of `id` to its shard, with the messages that waited for it; false when
    /// none is in flight.
    @discardableResult
    func deliver(_ id: ConnectionID) -> Bool {
        guard let index = inFlight.firstIndex(where: { $0.connection == id }) else { return false }
        arrive(inFlight.remove(at: index))
        return true
    }

    private func arrive(_ handOff: HandOff) {
        let id = handOff.connection
        location[id] = handOff.shard
        lobbies[handOff.shard].receive(handOff, at: now)
        collect()
        // Its unread input, in order, unless it moved on again.
        while !isInFlight(id), let line = unread[id]?.first {
            unread[id]!.removeFirst()
            send(line, from: id)
        }
        if !isInFlight(id), let cause = droppedInFlight.removeValue(forKey: id) { drop(id, because: cause) }
    }

    func isInFlight(_ id: ConnectionID) -> Bool { inFlight.contains { $0.connection == id } }

    /// A connection on `shard` that said `hello` with `name` and joined `room` (quick match for nil).
    @discardableResult
    func player(_ name: String, joining room: String?, extra: String = "", on shard: Int = 0) -> ConnectionID {
        let id = connect(on: shard)
        send(#"{"type":"hello","name":"\#(name)"}"#, from: id)
        let target = room.map { #","room":"\#($0)""# } ?? ""
        send(#"{"type":"join"\#(target)\#(extra)}"#, from: id)
        return id
    }

    func send(_ line: String, from id: ConnectionID) {
        guard !isInFlight(id) else { return unread[id, default: []].append(line) }
        Array(line.utf8).withUnsafeBytes { lobbies[location[id] ?? 0].receive($0, from: id, at: now) }
        collect()
    }

    func sendTooLong(from id: ConnectionID) {
        lobbies[location[id] ?? 0].receiveTooLong(from: id, at: now)
        collect()
    }

    /// Gives the oldest name lookup the store's answer `result`, as the transport would once the store has
    /// looked (and after the lookup's delay, which the harness's clock does not wait for).
    func answerName(_ result: NameCheckResult) {
        guard !lookups.isEmpty else { Issue.record("no name lookup to answer"); return }
        let lookup = lookups.removeFirst()
        lobbies[location[lookup.connection] ?? 0].nameChecked(lookup, result, at: now)
        collect()
    }

    /// Gives the oldest rating lookup the store's answer (nil: no rating), as the transport would.
    func answerRating(_ rating: Int?) {
        guard !ratingLookups.isEmpty else { Issue.record("no rating lookup to answer"); return }
        let lookup = ratingLookups.removeFirst()
        lobbies[location[lookup.connection] ?? 0].ratingFound(lookup, rating, at: now)
        collect()
    }

    /// Gives the oldest question for the cluster `answer`, as the transport would once the cluster answered.
    func answerCluster(_ answer: ClusterAnswer) {
        guard !clusterInquiries.isEmpty else { Issue.record("no question for the cluster to answer"); return }
        let inquiry = clusterInquiries.removeFirst()
        lobbies[location[inquiry.connection] ?? 0].clusterAnswered(inquiry, answer, at: now)
        collect()
    }

    /// The connection's socket closes. One on its way is told to the shard it left (which no longer
    /// knows it), then, as the transport must, to its new shard once the hand-off has arrived there.
    func drop(_ id: ConnectionID, because cause: DisconnectCause = .closedByPeer) {
        lobbies[location[id] ?? 0].disconnect(id, because: cause, at: now)
        collect()
        if isInFlight(id) {
            droppedInFlight[id] = cause
        } else {
            release(id)
        }
    }

    /// The transport closes the socket for good, and its slot is free.
    private func release(_ id: ConnectionID) {
        guard gone.insert(id).inserted else { return }
        ids.retire(id)
    }

    /// Moves the clock forward and lets the lobby carry out what fell due, as the server's timer would at
    /// each deadline along the way.
    func advance(by milliseconds: Int64) {
        let target = now.adding(milliseconds: milliseconds)
        while let deadline = lobbies.compactMap(\.nextDeadline).min(), deadline <= target {
            now = max(now, deadline)
            for lobby in lobbies { lobby.advance(to: now) }
            collect()
        }
        now = target
    }

    /// Messages `id` was sent since the last call, and forgets them.
    func take(_ id: ConnectionID) -> [ServerMessage] {
        defer { received[id] = [] }
        return received[id] ?? []
    }

    func states(_ id: ConnectionID) -> [StateMessage] {
        take(id).compactMap { if case .state(let state) = $0 { state } else { nil } }
    }

    func errors(_ id: ConnectionID) -> [ErrorCode] {
        take(id).compactMap { if case .error(let error) = $0 { error.code } else { nil } }
    }

    /// The last message of type `state` sent to `id`, keeping the others.
    func lastState(_ id: ConnectionID) -> StateMessage? {
        received[id]?.reversed().lazy.compactMap { if case .state(let state) = $0 { state } else { nil } }.first
    }

    func joined(_ id: ConnectionID) -> Joined? {
        received[id]?.lazy.compactMap { if case .joined(let joined) = $0 { joined } else { nil } }.last
    }

    func flip(_ card: Int, by id: ConnectionID) {
        send(#"{"type":"flip","card":\#(card)}"#, from: id)
    }

    /// The faces of the first board a room of these options deals from the harness's seed, learnt from a
    /// copy of such a match: each card is turned up in a copy of its own, so nothing is played for real.
    /// Tests that need a match or a mismatch pick their cards from this.
    func firstDeal(_ options: RuleSet) throws -> [String] {
        var match = Match(rules: options, graceMilliseconds: 0, seed: seed)
        _ = try match.join(name: "a", at: now)
        _ = try match.join(name: "b", at: now)
        return try (0..<options.pairs * 2).map { card in
            var probe = match
            let state = try probe.flip(card: card, by: .first, at: now).last!
            guard case .up(let face) = state.cards[card] else { throw DealUnknown() }
            return face
        }
    }

    struct DealUnknown: Error {}

    private func collect() {
        for lobby in lobbies {
            lobby.performActions(perform)
            inFlight += lobby.takeHandOffs()
        }
        while deliversHandOffs, !inFlight.isEmpty { arrive(inFlight.removeFirst()) }
    }

    private func perform(_ action: LobbyAction) {
        switch action {
        case .send(let bytes, let messages, let id), .broadcast(let bytes, let messages, let id, _):
            guard keepsSends else { return }
            if case .broadcast(_, _, _, let first) = action { broadcasts.append((id, first, bytes)) }
            self.bytes[id, default: []] += bytes
            let lines = bytes.split(separator: UInt8(ascii: "\n"))
            #expect(lines.count == messages, "the message count matches the lines sent")
            for line in lines {
                do {
                    received[id, default: []].append(try ServerMessageDecoder.decode(line: line))
                } catch {
                    Issue.record("undecodable line: \(String(decoding: line, as: UTF8.self))")
                }
            }
        case .close(let id, let reason):
            #expect(closed[id] == nil, "a connection is closed once")
            closed[id] = reason
            release(id)
        case .sendStatistics(let stats, let id):
            received[id, default: []].append(.stats(stats))
        case .log(let entry):
            log.append(entry)
        case .record(let game, _):
            records.append(game)
        case .recordTournament(let tournament):
            tournamentRecords.append(tournament)
        case .query(let query, let request, let connection):
            queries.append((query, request, connection))
        case .checkName(let lookup):
            lookups.append(lookup)
        case .lookUpRating(let lookup):
            ratingLookups.append(lookup)
        case .askCluster(let inquiry):
            clusterInquiries.append(inquiry)
        }
    }
}
