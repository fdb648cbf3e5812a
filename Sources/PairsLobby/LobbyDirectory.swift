#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PairsRules
import PairsWire

/// What the lobby's shards share: one `Lobby` per event loop holds that loop's rooms and connections, and
/// this table says where everything else is.
///
/// A room lives on exactly one shard, and everything a flip does stays there: nothing here is read or
/// written per flip. The table is touched only when a connection joins, watches, resumes, says hello with a
/// password, lists rooms or leaves, and when a room's listing changes (a seat taken or freed, a spectator
/// in or out, a game begun or over), under one lock held for a few dictionary operations and never
/// while a room or a connection is touched. It holds:
/// - the room directory: each room's name and shard, claimed atomically, so two shards opening the same
///   name at once get one room (the loser hands its connection to the winner);
/// - the room list in order, each entry with a snapshot of the room's summary (the shard that owns a room
///   lists it live), so a `list` pages over every shard's rooms;
/// - the quick-match rooms waiting for a second player, per rule set: a quick join finds one, or claims
///   a new room as waiting, in one step, so two people asking at once on two shards share one room;
/// - which shard holds each live resume token;
/// - every tournament's name, shard and listing (`LobbyDirectory+Tournaments`), so a request about one
///   is handed to the shard that runs it;
/// - the seats held for dropped players per address and in all (`AwaySeats`), and the wrong passwords per
///   address and per name (`PasswordGuessLimiter`), so spreading over loops gains an attacker nothing.
/// Counters stay with their shards (`Lobby.loopStatistics`, `ServerStatistics.summing`): a flip counts
/// without a lock.
public final class LobbyDirectory: Sendable {
    /// How many shards share the table; shards are numbered from 0.
    public let shardCount: Int
    private let table: PthreadLocked<Table>

    /// One room as every shard sees it.
    struct Entry {
        let shard: Int
        /// Its place in the room list; nil until its shard first files it (a name claimed for a room being
        /// made).
        var listingKey: RoomListingKey?
        /// What other shards show of it in a `list`, as of its last listing change.
        var summary: RoomSummary?
    }

    struct Table {
        var rooms: [String: Entry] = [:]
        var listing = OrderedKeys<RoomListingKey>()
        /// Quick-match rooms with one player waiting, per rule set, longest waiting first.
        var waitingQuickMatch: [RuleSet: [String]] = [:]
        var tokenShards: [String: Int] = [:]
        var madeRoomCount = 0
        /// Times a shard consulted or changed the table.
        var operations = 0
        var awaySeats: AwaySeats
        var guessLimiter: PasswordGuessLimiter
        /// Every tournament on every shard, by name (a namespace of its own): `LobbyDirectory+Tournaments`.
        var tournaments: [String: TournamentEntry] = [:]

        /// A name for a room made by the lobby, `PREFIX-N`, that no room has.
        mutating func newRoomName(prefix: String) -> String {
            while true {
                madeRoomCount += 1
                let name = "\(prefix)-\(madeRoomCount)"
                if rooms[name] == nil { return name }
            }
        }

        mutating func unlistWaiting(_ name: String, rules: RuleSet) {
            guard let index = waitingQuickMatch[rules]?.firstIndex(of: name) else { return }
            waitingQuickMatch[rules]!.remove(at: index)
            if waitingQuickMatch[rules]!.isEmpty { waitingQuickMatch[rules] = nil }
        }
    }

    public init(shards: Int = 1, configuration: LobbyConfiguration) {
        precondition(shards >= 1, "a lobby has at least one shard")
        shardCount = shards
        table = PthreadLocked(Table(awaySeats: AwaySeats(limits: configuration.roomLimits),
                            guessLimiter: PasswordGuessLimiter(policy: configuration.passwordGuesses)))
    }

    /// Runs `body` on the table under the lock, counting it in `operationCount`.
    func locked<Result>(_ body: (inout Table) -> Result) -> Result {
        table.withLock { table in
            table.operations += 1
            return body(&table)
        }
    }

    /// How many times shards have consulted or changed the table: for tests and benchmarks, which check
    /// that flips never do (it grows with joins, watches, resumes, lists and rooms' listing changes only).
    public var operationCount: Int { table.withLock { $0.operations } }

    // MARK: Rooms

    /// Where a new room may go, or why it may not.
    enum Claim: Equatable {
        /// The name is this shard's now: make the room.
        case claimed(String)
        /// A room of that name is on `shard` (or, for a quick match, waits there for a player): go there.
        case elsewhere(String, shard: Int)
        /// Dropped players hold too many seats, for the address or in all.
        case refused(forAddress: Int, inAll: Int)
    }

    /// The shard holding the room called `name`, if there is one.
    func shard(ofRoom name: String) -> Int? {
        locked { $0.rooms[name]?.shard }
    }

    /// Claims `name` for a new room on `shard`, unless a room has it or dropped players of `address` (or of
    /// all) hold as many seats as `RoomLimits` allows.
    func claimRoom(named name: String, on shard: Int, address: String) -> Claim {
        locked { table in
            if let entry = table.rooms[name] { return .elsewhere(name, shard: entry.shard) }
            guard table.awaySeats.hasRoom(for: address) else {
                return .refused(forAddress: table.awaySeats.count(for: address), inAll: table.awaySeats.total)
            }
            table.rooms[name] = Entry(shard: shard)
            return .claimed(name)
        }
    }

    /// Claims a new room named `PREFIX-N` on `shard`; with `waitingFor`, a quick-match room that is offered
    /// to the next quick joiner of those rules at once, unless one waits already (then that one is the
    /// answer). Finding and claiming are one step, so two quick joiners on two shards meet in one room.
    func claimNewRoom(prefix: String, on shard: Int, address: String, waitingFor rules: RuleSet? = nil) -> Claim {
        locked { table in
            if let rules, let waiting = table.waitingQuickMatch[rules]?.first, let entry = table.rooms[waiting] {
                return .elsewhere(waiting, shard: entry.shard)
            }
            guard table.awaySeats.hasRoom(for: address) else {
                return .refused(forAddress: table.awaySeats.count(for: address), inAll: table.awaySeats.total)
            }
            let name = table.newRoomName(prefix: prefix)
            table.rooms[name] = Entry(shard: shard)
            if let rules { table.waitingQuickMatch[rules, default: []].append(name) }
            return .claimed(name)
        }
    }

    /// Files a room where its owner's last change puts it: in the room list (with `summary` for other
    /// shards) and, while it waits for a second quick-match player, among the waiting rooms.
    func file(_ name: String, listingKey: RoomListingKey, waiting: Bool, rules: RuleSet, summary: RoomSummary) {
        locked { table in
            guard var entry = table.rooms[name] else { return }
            if entry.listingKey != listingKey {
                if let old = entry.listingKey { table.listing.remove(old) }
                table.listing.insert(listingKey)
                entry.listingKey = listingKey
            }
            entry.summary = summary
            table.rooms[name] = entry
            if waiting {
                if table.waitingQuickMatch[rules]?.contains(name) != true { table.waitingQuickMatch[rules, default: []].append(name) }
            } else {
                table.unlistWaiting(name, rules: rules)
            }
        }
    }

    /// Forgets a room that has closed, with its live tokens.
    func remove(_ name: String, rules: RuleSet, tokens: [String?]) {
        locked { table in
            guard let entry = table.rooms.removeValue(forKey: name) else { return }
            if let key = entry.listingKey { table.listing.remove(key) }
            table.unlistWaiting(name, rules: rules)
            for case let token? in tokens { table.tokenShards[token] = nil }
        }
    }

    /// One page of the room list: each room's name, its shard and the summary it was last filed with; the
    /// rooms in all; and whether more follow.
    func page(after: RoomListingKey?, limit: Int) -> (rooms: [(key: RoomListingKey, shard: Int, summary: RoomSummary?)], total: Int, more: Bool) {
        locked { table in
            let keys = table.listing.keys(after: after, limit: limit + 1)
            var rooms: [(key: RoomListingKey, shard: Int, summary: RoomSummary?)] = []
            rooms.reserveCapacity(min(keys.count, limit))
            for key in keys.prefix(limit) {
                guard let entry = table.rooms[key.name] else { continue }
                rooms.append((key, entry.shard, entry.summary))
            }
            return (rooms, table.listing.count, keys.count > limit)
        }
    }

    /// Rooms in the room list, on every shard.
    public var roomCount: Int { table.withLock { $0.listing.count } }

    // MARK: Resume tokens

    /// Records that `token` resumes a seat on `shard`, and forgets `retiring` (the seat's previous token).
    func assign(_ token: String, to shard: Int, retiring: String?) {
        locked { table in
            if let retiring { table.tokenShards[retiring] = nil }
            table.tokenShards[token] = shard
        }
    }

    func retire(_ token: String) {
        _ = locked { $0.tokenShards.removeValue(forKey: token) }
    }

    /// The shard whose room `token` resumes a seat of, if the token is live.
    func shard(ofToken token: String) -> Int? {
        locked { $0.tokenShards[token] }
    }

    // MARK: Seats held for dropped players

    func hasRoomForAwaySeat(of address: String) -> Bool {
        locked { $0.awaySeats.hasRoom(for: address) }
    }

    func holdAwaySeat(for address: String) {
        locked { $0.awaySeats.hold(for: address) }
    }

    func releaseAwaySeat(for address: String) {
        locked { $0.awaySeats.release(for: address) }
    }

    // MARK: Passwords

    func admitPassword(name: String, address: String, at now: Moment) -> PasswordGuessLimiter.Verdict {
        locked { $0.guessLimiter.admit(name: name, address: address, at: now) }
    }

    func passwordFailed(name: String, address: String, at now: Moment) -> (addressFailures: Int, nameFailures: Int, retryAt: Moment) {
        locked { $0.guessLimiter.failed(name: name, address: address, at: now) }
    }

    func passwordFinished(name: String, address: String) {
        locked { $0.guessLimiter.finished(name: name, address: address) }
    }
}
