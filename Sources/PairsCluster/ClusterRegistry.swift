#if Cluster
/// What the instances of a cluster share in Redis, as one instance sees it: which instances are alive, which
/// owns each room, who waits for a quick match, which holds each resume token.
///
/// Key layout (`pairs` is the namespace; names and tokens go into keys as their bytes, so any name is safe):
///
/// | Key                      | Type       | Value                                  | TTL        | Written by       |
/// |--------------------------|------------|----------------------------------------|------------|------------------|
/// | `pairs:instance:<id>`    | string     | the address peers reach it by          | `entryTTL` | that instance    |
/// | `pairs:room:<name>`      | string     | the owning instance's id               | `entryTTL` | the owner        |
/// | `pairs:token:<token>`    | string     | the instance holding the seat's id     | `entryTTL` | the owner        |
/// | `pairs:quick:<rules>`    | sorted set | waiter ids, scored by arrival          | `entryTTL` | waiters' owners  |
/// | `pairs:waiter:<id>`      | string     | its instance's id, or `matched:<id>`   | `entryTTL` | owner, or taker  |
/// | `pairs:quick-sequence`   | integer    | the last arrival number given          | none       | everyone (INCR)  |
///
/// A waiter's id is the name of the quick room its player waits in (the server's); `<rules>` is the rule
/// set's JSON text (protocol.md's rules object).
/// A taken waiter whose taker's player never came is queued again by its owner (`requeue`), over the mark.
///
/// Every entry lives only while its owner renews it (`refresh()`, every `refreshInterval`), and only its
/// owner does: the renewal compares the entry's owner with itself, so nobody keeps a dead instance's entries
/// alive. An entry counts only while its owner's instance key exists, so a dead instance's rooms, tokens and
/// waiters are gone for everyone once its key expires (within `entryTTL`), and the keys themselves by
/// `entryTTL` later at most. Claims (`SET NX PX` in a script), the owner-only delete and the quick-match pop
/// are Lua scripts, atomic in Redis: of two instances racing for a room exactly one wins, and a waiter is
/// taken at most once.
///
/// Synchronous: every call is one round trip to Redis (two for a large `refresh`). Use it from a queue of its
/// own, like its `RedisClient`. Redis out of reach throws `RedisError.unreachable` / `.connectionLost`; the
/// registry keeps what it owns and writes it again on the first `refresh()` that reaches Redis.
public final class ClusterRegistry {
    /// How long an entry outlives its owner's last renewal: a dead instance's rooms and waiters are freed
    /// within this, and a live one renewing every third of it survives two missed renewals.
    public static let defaultEntryTTL: Duration = .seconds(5)
    /// Entries renewed per script call, so that one call with thousands of rooms does not hold Redis (single
    /// threaded) for long.
    static let entriesPerRefreshCall = 500

    /// This instance's id: random, so a restarted instance is a new one and never renews its old entries.
    public let instance: String
    /// The address peers reach this instance by, `HOST:PORT`.
    public let address: String
    public let entryTTL: Duration
    private let client: RedisClient
    private let keys: ClusterKeys
    /// What this instance owns and renews.
    private var rooms: Set<String> = []
    private var tokens: Set<String> = []
    /// Waiter id to its rule set.
    private var waiters: [String: String] = [:]

    public init(client: RedisClient, address: String, instance: String = ClusterRegistry.newIdentifier(),
                entryTTL: Duration = ClusterRegistry.defaultEntryTTL, namespace: String = "pairs") {
        self.client = client
        self.address = address
        self.instance = instance
        self.entryTTL = entryTTL
        keys = ClusterKeys(namespace: namespace)
    }

    /// How often `refresh()` should run: a third of the TTL, so two missed renewals are survived.
    public var refreshInterval: Duration { entryTTL / 3 }

    /// The rooms, tokens and waiters this instance owns and renews.
    public var ownedRooms: Set<String> { rooms }
    public var ownedTokens: Set<String> { tokens }
    public var ownedWaiters: Set<String> { Set(waiters.keys) }

    /// A fresh random identifier (16 hex digits) for an instance or a waiter.
    public static func newIdentifier() -> String {
        var generator = SystemRandomNumberGenerator()
        let value: UInt64 = generator.next()
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    // MARK: Instances

    /// Announces this instance (its key with its address), as `refresh()` does: call it at start, so that a
    /// Redis out of reach is known before anything is served.
    public func join() throws(RedisError) {
        try client.command("SET", keys.instance(instance), address, "PX", milliseconds(entryTTL), isIdempotent: true)
    }

    /// Leaves the cluster on an orderly shutdown: removes everything this instance owns and its own key, so
    /// peers need not wait for them to expire.
    public func leave() throws(RedisError) {
        for room in rooms { _ = try release(keys.room(room)) }
        for token in tokens { _ = try release(keys.token(token)) }
        for (waiter, rules) in waiters { _ = try withdraw(waiter: waiter, rules: rules) }
        rooms = []
        tokens = []
        waiters = [:]
        try client.command("DEL", keys.instance(instance), isIdempotent: true)
    }

    /// The address of instance `id`, if it is alive.
    public func address(ofInstance id: String) throws(RedisError) -> String? {
        try client.command("GET", keys.instance(id), isIdempotent: true).text
    }

    // MARK: Rooms and tokens

    /// Claims room `name` for this instance, which renews it from now on. `.claimed` when this instance owns
    /// it (newly or already, or taken from a dead owner); otherwise the live owner.
    public func claimRoom(_ name: String) throws(RedisError) -> ClaimOutcome {
        let outcome = try claim(keys.room(name))
        if outcome == .claimed { rooms.insert(name) }
        return outcome
    }

    /// Gives room `name` up (it closed): removes its entry if this instance still owns it. True if removed.
    @discardableResult
    public func releaseRoom(_ name: String) throws(RedisError) -> Bool {
        rooms.remove(name)
        return try release(keys.room(name))
    }

    /// The live instance owning room `name`, if any.
    public func owner(ofRoom name: String) throws(RedisError) -> ClusterOwner? {
        try lookup(keys.room(name))
    }

    /// Records that this instance holds the seat of resume token `token`, and renews it from now on.
    public func registerToken(_ token: String) throws(RedisError) -> ClaimOutcome {
        let outcome = try claim(keys.token(token))
        if outcome == .claimed { tokens.insert(token) }
        return outcome
    }

    /// Forgets token `token` (its seat is gone). True if its entry was this instance's and is removed.
    @discardableResult
    public func releaseToken(_ token: String) throws(RedisError) -> Bool {
        tokens.remove(token)
        return try release(keys.token(token))
    }

    /// The live instance holding the seat of `token`, if any: none means the game is lost.
    public func owner(ofToken token: String) throws(RedisError) -> ClusterOwner? {
        try lookup(keys.token(token))
    }

    // MARK: Quick match

    /// Takes the oldest live waiter for `rules` from any instance, or else queues a new waiter of this
    /// instance, which it renews until it is withdrawn or matched (`refresh()` reports a match by another
    /// instance). Not retried after a lost connection: a pop that took effect must not be repeated.
    /// `waiter` is the new waiter's id, unique in the cluster: the lobby uses the name of the quick room the
    /// player waits in (`quick-TAG-N`), so that whoever takes the waiter knows which room to send its player
    /// to, from the same atomic pop.
    public func matchOrWait(rules: String, waiter: String = ClusterRegistry.newIdentifier()) throws(RedisError) -> QuickMatchOutcome {
        let reply = try client.command(
            ["EVAL", ClusterScripts.matchOrEnqueue, 3, keys.queue(rules), keys.sequence, keys.instance(instance),
             instance, waiter, milliseconds(entryTTL), keys.waiterPrefix, keys.instancePrefix, address])
        guard let fields = reply.elements, let flag = fields.first?.integer else { throw unexpected(reply, "a quick match") }
        if flag == 0 {
            waiters[waiter] = rules
            return .waiting(waiter: waiter)
        }
        guard fields.count == 4, let taken = fields[1].text, let owner = fields[2].text, let at = fields[3].text else {
            throw unexpected(reply, "a quick match")
        }
        return .matched(waiter: taken, owner: ClusterOwner(instance: owner, address: at))
    }

    /// Queues this instance's waiter `waiter` again for `rules`, at the back and without matching, and renews
    /// it from now on as any waiter: another instance took it, but the player it promised never came, and
    /// the waiter's player still waits. Not retried after a lost connection: a requeue that took effect and
    /// was taken meanwhile must not be queued once more.
    public func requeue(waiter: String, rules: String) throws(RedisError) {
        let reply = try client.command(["EVAL", ClusterScripts.requeue, 4, keys.queue(rules), keys.sequence, keys.waiter(waiter),
                                        keys.instance(instance), instance, waiter, milliseconds(entryTTL), address])
        guard reply.integer == 1 else { throw unexpected(reply, "a requeue") }
        waiters[waiter] = rules
    }

    /// Takes this instance's waiter out of the queue (its player left or was matched here), unless another
    /// instance took it first.
    public func withdraw(waiter: String) throws(RedisError) -> WithdrawOutcome {
        guard let rules = waiters.removeValue(forKey: waiter) else {
            // Perhaps matched by another instance and dropped at a renewal: its key says by whom for a TTL
            // more, while that instance's player is on the way (the lobby keeps the seat for them).
            let value = try client.command("GET", keys.waiter(waiter), isIdempotent: true).text
            return value.flatMap(Self.matchedBy).map { .matched(byInstance: $0) } ?? .unknown
        }
        return try withdraw(waiter: waiter, rules: rules)
    }

    private func withdraw(waiter: String, rules: String) throws(RedisError) -> WithdrawOutcome {
        let reply = try client.command(["EVAL", ClusterScripts.withdraw, 2, keys.queue(rules), keys.waiter(waiter), instance, waiter],
                                       isIdempotent: true)
        switch reply {
        case .integer(1): return .withdrawn
        case .null: return .unknown
        default:
            guard let taker = reply.text.flatMap(Self.matchedBy) else { throw unexpected(reply, "a withdrawal") }
            return .matched(byInstance: taker)
        }
    }

    // MARK: Renewal

    /// Renews this instance's key and everything it owns; writes again what Redis lost (a restart). Entries
    /// another instance took meanwhile (this one looked dead) are dropped from what it owns and reported,
    /// as are its waiters another instance matched.
    public func refresh() throws(RedisError) -> RefreshReport {
        var report = RefreshReport()
        let entries = rooms.map { (key: keys.room($0), room: $0 as String?, token: nil as String?) }
            + tokens.map { (key: keys.token($0), room: nil as String?, token: $0 as String?) }
        var start = 0
        repeat {
            let chunk = entries[start..<min(start + Self.entriesPerRefreshCall, entries.count)]
            let arguments: [any RedisArgument] = ["EVAL", ClusterScripts.refresh, chunk.count + 1, keys.instance(instance)]
                + chunk.map(\.key) + [instance, address, milliseconds(entryTTL)]
            let reply = try client.command(arguments, isIdempotent: true)
            guard let outcomes = reply.elements, outcomes.count == chunk.count else { throw unexpected(reply, "a renewal") }
            for (entry, outcome) in zip(chunk, outcomes) {
                switch outcome.integer {
                case 1: break
                case 2: report.rewritten += 1
                case 0:
                    if let room = entry.room { rooms.remove(room); report.lostRooms.append(room) }
                    if let token = entry.token { tokens.remove(token); report.lostTokens.append(token) }
                default: throw unexpected(reply, "a renewal")
                }
            }
            start += chunk.count
        } while start < entries.count
        try refreshWaiters(into: &report)
        return report
    }

    private func refreshWaiters(into report: inout RefreshReport) throws(RedisError) {
        let listed = Array(waiters)
        var start = 0
        while start < listed.count {
            let chunk = listed[start..<min(start + Self.entriesPerRefreshCall, listed.count)]
            let arguments: [any RedisArgument] = ["EVAL", ClusterScripts.refreshWaiters, 1, keys.sequence,
                                                  instance, milliseconds(entryTTL), keys.waiterPrefix]
                + chunk.flatMap { [$0.key, keys.queue($0.value)] as [any RedisArgument] }
            let reply = try client.command(arguments, isIdempotent: true)
            guard let outcomes = reply.elements, outcomes.count == chunk.count else { throw unexpected(reply, "a waiters' renewal") }
            for (waiter, outcome) in zip(chunk, outcomes) {
                switch outcome {
                case .integer(1): break
                case .integer(2): report.rewritten += 1
                default:
                    guard let taker = outcome.text.flatMap(Self.matchedBy) else { throw unexpected(reply, "a waiters' renewal") }
                    waiters.removeValue(forKey: waiter.key)
                    report.matchedWaiters[waiter.key] = taker
                }
            }
            start += chunk.count
        }
    }

    // MARK: Scripts

    private func claim(_ key: [UInt8]) throws(RedisError) -> ClaimOutcome {
        let reply = try client.command(["EVAL", ClusterScripts.claim, 2, key, keys.instance(instance),
                                        instance, milliseconds(entryTTL), keys.instancePrefix, address], isIdempotent: true)
        guard let fields = reply.elements, let flag = fields.first?.integer else { throw unexpected(reply, "a claim") }
        if flag == 1 { return .claimed }
        guard fields.count == 3, let owner = fields[1].text, let at = fields[2].text else { throw unexpected(reply, "a claim") }
        return .ownedBy(ClusterOwner(instance: owner, address: at))
    }

    private func release(_ key: [UInt8]) throws(RedisError) -> Bool {
        let reply = try client.command(["EVAL", ClusterScripts.release, 1, key, instance], isIdempotent: true)
        guard let removed = reply.integer else { throw unexpected(reply, "a release") }
        return removed == 1
    }

    private func lookup(_ key: [UInt8]) throws(RedisError) -> ClusterOwner? {
        let reply = try client.command(["EVAL", ClusterScripts.lookup, 1, key, keys.instancePrefix], isIdempotent: true)
        if reply == .null { return nil }
        guard let fields = reply.elements, fields.count == 2, let owner = fields[0].text, let at = fields[1].text else {
            throw unexpected(reply, "a lookup")
        }
        return ClusterOwner(instance: owner, address: at)
    }

    /// The taker's id in a waiter key's `matched:<instance>`.
    private static func matchedBy(_ value: String) -> String? {
        let marker = "matched:"
        return value.hasPrefix(marker) ? String(value.dropFirst(marker.count)) : nil
    }

    private func unexpected(_ reply: RedisReply, _ what: String) -> RedisError {
        .unexpectedReply("\(what) answered \(reply)")
    }

    private func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
#endif
