import Dispatch
import PairsLobby
import PairsRules
import PairsWire
import Testing

/// One lobby shard on a serial queue of its own, as a server's event loop: its lobby is touched on that
/// queue only, and hand-offs go to the other shards' queues, so the shared directory is raced for real.
private final class QueuedShard: @unchecked Sendable {
    let queue: DispatchQueue
    /// Touched on `queue` only.
    private let lobby: Lobby
    /// Seats taken through this shard, by room; touched on `queue` only.
    private var seats: [String: Int] = [:]
    /// Errors sent by this shard; touched on `queue` only.
    private var errors: [ErrorCode] = []
    private let group: DispatchGroup
    /// Every shard, by number; set before any work starts.
    nonisolated(unsafe) var all: [QueuedShard] = []
    let now = Moment(milliseconds: 1_000_000)

    init(_ lobby: Lobby, group: DispatchGroup) {
        self.lobby = lobby
        self.group = group
        queue = DispatchQueue(label: "shard \(lobby.shard)")
    }

    /// Connects each of `ids` here and sends `line` from it, each as the transport would on this loop.
    func start(_ ids: [ConnectionID], sending line: String) {
        group.enter()
        queue.async { [self] in
            for id in ids {
                lobby.connect(id, peer: "127.0.0.1:\(40_000 + id.value)", at: now)
                Array(line.utf8).withUnsafeBytes { lobby.receive($0, from: id, at: now) }
                drain()
            }
            group.leave()
        }
    }

    /// Carries out the lobby's actions, and sends each connection it handed over to its new shard's queue.
    private func drain() {
        dispatchPrecondition(condition: .onQueue(queue))
        lobby.performActions { action in
            guard case .send(let bytes, _, _) = action else { return }
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                switch try? ServerMessageDecoder.decode(line: line) {
                case .joined(let joined)?: seats[joined.room, default: 0] += 1
                case .error(let error)?: errors.append(error.code)
                default: break
                }
            }
        }
        for handOff in lobby.takeHandOffs() {
            let target = all[handOff.shard]
            group.enter()
            target.queue.async {
                target.lobby.receive(handOff, at: target.now)
                target.drain()
                self.group.leave()
            }
        }
    }

    /// Seats taken through this shard by room, errors, rooms held and the directory's room count, read on
    /// the shard's queue once its work is done.
    var outcome: (seats: [String: Int], errors: [ErrorCode], rooms: Int, listed: Int) {
        queue.sync { (seats, errors, lobby.loopStatistics.rooms, lobby.sharedDirectory.roomCount) }
    }
}

@Suite("Shards racing on real queues")
struct ShardRaceTests {
    /// Two shards on two queues sharing a directory, each with `perShard` connections.
    private func shards(perShard: Int) -> (shards: [QueuedShard], ids: [[ConnectionID]], group: DispatchGroup) {
        var configuration = LobbyConfiguration()
        configuration.rateLimit = nil
        configuration.seed = 3
        let directory = LobbyDirectory(shards: 2, configuration: configuration)
        let group = DispatchGroup()
        let shards = (0..<2).map {
            QueuedShard(Lobby(configuration: configuration, serverName: "pairs test", startedAt: Moment(milliseconds: 0),
                              directory: directory, shard: $0), group: group)
        }
        for shard in shards { shard.all = shards }
        // One issuer for all shards, as the transport must have: an id keeps its slot when it moves.
        var issuer = ConnectionIDIssuer()
        let ids = (0..<2).map { _ in (0..<perShard).map { _ in issuer.issue() } }
        return (shards, ids, group)
    }

    @Test("the same 300 room names joined at once from two shards make 300 rooms, each on one shard with both players seated")
    func sameNamesFromTwoQueues() throws {
        let count = 300
        let (shards, ids, group) = shards(perShard: count)
        // Both shards go through the names in the same order, at once, so that they race for each one.
        for room in 0..<count {
            for (index, shard) in shards.enumerated() {
                shard.start([ids[index][room]], sending: #"{"type":"join","room":"r\#(room)"}"#)
            }
        }
        #expect(group.wait(timeout: .now() + 30) == .success, "every join and hand-off was handled")
        let outcomes = shards.map(\.outcome)
        #expect(outcomes.flatMap(\.errors).isEmpty)
        #expect(outcomes.map(\.rooms).reduce(0, +) == count, "one room per name, on one shard")
        #expect(outcomes[0].listed == count)
        let seats = outcomes[0].seats.merging(outcomes[1].seats, uniquingKeysWith: +)
        #expect(seats == Dictionary(uniqueKeysWithValues: (0..<count).map { ("r\($0)", 2) }))
    }

    @Test("400 quick joiners at once on two shards fill 200 rooms, two players each, none left waiting")
    func quickMatchFromTwoQueues() throws {
        let count = 200
        let (shards, ids, group) = shards(perShard: count)
        for (index, shard) in shards.enumerated() {
            for id in ids[index] { shard.start([id], sending: #"{"type":"join"}"#) }
        }
        #expect(group.wait(timeout: .now() + 30) == .success, "every join and hand-off was handled")
        let outcomes = shards.map(\.outcome)
        #expect(outcomes.flatMap(\.errors).isEmpty)
        #expect(outcomes.map(\.rooms).reduce(0, +) == count)
        let seats = outcomes[0].seats.merging(outcomes[1].seats, uniquingKeysWith: +)
        #expect(seats.count == count)
        #expect(seats.values.allSatisfy { $0 == 2 })
    }

    @Test("two quick joiners at once on two shards, 200 times over: one room each time, both seated")
    func quickPairFromTwoQueues() throws {
        for _ in 0..<200 {
            let (shards, ids, group) = shards(perShard: 1)
            for (index, shard) in shards.enumerated() { shard.start(ids[index], sending: #"{"type":"join"}"#) }
            #expect(group.wait(timeout: .now() + 30) == .success, "both joins and any hand-off were handled")
            let outcomes = shards.map(\.outcome)
            #expect(outcomes.flatMap(\.errors).isEmpty)
            #expect(outcomes.map(\.rooms).reduce(0, +) == 1)
            #expect(outcomes[0].seats.merging(outcomes[1].seats, uniquingKeysWith: +).values.sorted() == [2])
            if outcomes.map(\.rooms).reduce(0, +) != 1 { break }
        }
    }
}
