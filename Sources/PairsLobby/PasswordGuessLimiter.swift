import PairsRules

/// Wrong passwords counted per address and per claimed name, across connections: after a few, each address
/// (and, for addresses that have guessed wrong, each name) waits longer before its next password is
/// checked, and a reconnect does not reset the count. A pure decision on moments passed in, so tests drive
/// it on a manual clock.
///
/// The per-name limit binds only addresses with wrong passwords of their own lately: a player who types
/// the right password from another address than the guesser's gets in at once, while every address that
/// joins a guessing attack on a name pays that name's delay after its first wrong guess.
///
/// Checks in flight count too (`admit` to `failed` or `finished`): an address may have only as many at
/// once as it has free failures left, and one once it has none, so a hundred connections sending their
/// guesses in the same instant, the moment a wait ends, get one checked, not a hundred.
public struct PasswordGuessLimiter: Sendable {
    /// How many guesses, how fast.
    public struct Policy: Sendable, Hashable {
        /// Wrong passwords an address (or a name) may have before any delay: typos cost a person nothing.
        public var freeFailures = 3
        /// The delay after the first failure past the free ones; it doubles with each further one.
        public var firstDelayMilliseconds: Int64 = 1_000
        /// The longest delay: one guess per 5 minutes per address is about 300 a day.
        public var maxDelayMilliseconds: Int64 = 300_000
        /// A record with no failure for this long is forgotten (an hour): a person who mistyped yesterday
        /// starts afresh.
        public var forgetAfterMilliseconds: Int64 = 3_600_000
        /// At most this many addresses and as many names are remembered, so a flood of addresses cannot
        /// grow the table without bound; the least recently failed are forgotten first.
        public var maxRecords = 65_536

        public init() {}

        /// The wait after `failures` wrong passwords.
        func delay(afterFailures failures: Int) -> Int64 {
            guard failures > freeFailures else { return 0 }
            return min(maxDelayMilliseconds, firstDelayMilliseconds << Int64(min(failures - freeFailures - 1, 40)))
        }
    }

    /// Why a password must wait.
    public enum Scope: String, Sendable, Hashable {
        /// Too many wrong passwords from the address, for any names.
        case address
        /// Too many wrong passwords for the name, from any addresses.
        case name
    }

    /// What to do with a password offered now.
    public enum Verdict: Sendable, Hashable {
        /// Check it.
        case check
        /// Refuse it unchecked: try again at `until`.
        case wait(until: Moment, because: Scope)
    }

    /// What is known of one address or one name.
    struct Record: Sendable, Hashable {
        var failures: Int
        /// The last wrong password, or when the record was made.
        var lastFailure: Moment
        /// No password is checked for it before this.
        var blockedUntil: Moment
        /// Passwords admitted and not yet answered.
        var pending = 0

        init(at now: Moment) {
            failures = 0
            lastFailure = now
            blockedUntil = now
        }
    }

    public let policy: Policy
    private(set) var addresses: [String: Record] = [:]
    private(set) var names: [String: Record] = [:]

    public init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// Whether a password for `name` from `address` may be checked at `now`; when it may, it counts as in
    /// flight until `failed` or `finished` says how it went.
    public mutating func admit(name: String, address: String, at now: Moment) -> Verdict {
        var fromAddress = Self.live(&addresses, address, at: now, policy: policy) ?? Record(at: now)
        if let wait = wait(for: fromAddress, at: now) { return .wait(until: wait, because: .address) }
        var forName = Self.live(&names, name, at: now, policy: policy) ?? Record(at: now)
        if fromAddress.failures > 0, let wait = wait(for: forName, at: now) { return .wait(until: wait, because: .name) }
        fromAddress.pending += 1
        forName.pending += 1
        Self.store(fromAddress, at: address, in: &addresses, now: now, policy: policy)
        Self.store(forName, at: name, in: &names, now: now, policy: policy)
        return .check
    }

    /// Counts a wrong password for `name` from `address` at `now`; returns the failures counted for each and
    /// the moment the address may try again.
    @discardableResult
    public mutating func failed(name: String, address: String, at now: Moment)
        -> (addressFailures: Int, nameFailures: Int, retryAt: Moment) {
        let fromAddress = Self.count(&addresses, address, at: now, policy: policy)
        let forName = Self.count(&names, name, at: now, policy: policy)
        return (fromAddress.failures, forName.failures, max(fromAddress.blockedUntil, forName.blockedUntil))
    }

    /// An admitted password was answered otherwise than wrong (right, a new claim, or not checked after all).
    public mutating func finished(name: String, address: String) {
        addresses[address]?.pending.decrementKeepingNonNegative()
        names[name]?.pending.decrementKeepingNonNegative()
    }

    /// When a password for `record` may be checked, if not now: after its delay, and while it has as many
    /// checks in flight as it may, after the first delay (by then they are answered).
    ///
    /// Only a record past its free failures has a delay to wait out: the limiter is shared by every event
    /// loop, and each reads its own `now`, so a record stamped by one loop can lie a moment in the future of
    /// another's earlier reading; that skew must not turn into a wait nobody earned.
    private func wait(for record: Record, at now: Moment) -> Moment? {
        if record.failures > policy.freeFailures, now < record.blockedUntil { return record.blockedUntil }
        let inFlight = max(1, policy.freeFailures - record.failures)
        return record.pending >= inFlight ? now.adding(milliseconds: policy.firstDelayMilliseconds) : nil
    }

    /// How many addresses and names are remembered.
    public var recordCount: Int { addresses.count + names.count }

    /// The record for `key`, forgetting it if it is stale.
    private static func live(_ table: inout [String: Record], _ key: String, at now: Moment, policy: Policy) -> Record? {
        guard let record = table[key] else { return nil }
        guard record.lastFailure.milliseconds(until: now) < policy.forgetAfterMilliseconds else {
            table[key] = nil
            return nil
        }
        return record
    }

    private static func count(_ table: inout [String: Record], _ key: String, at now: Moment, policy: Policy) -> Record {
        var record = live(&table, key, at: now, policy: policy) ?? Record(at: now)
        record.pending.decrementKeepingNonNegative()
        record.failures += 1
        record.lastFailure = now
        record.blockedUntil = now.adding(milliseconds: policy.delay(afterFailures: record.failures))
        store(record, at: key, in: &table, now: now, policy: policy)
        return record
    }

    private static func store(_ record: Record, at key: String, in table: inout [String: Record], now: Moment, policy: Policy) {
        if table[key] == nil, table.count >= policy.maxRecords { makeRoom(in: &table, at: now, policy: policy) }
        table[key] = record
    }

    /// Forgets stale records, and if that is not enough, the least recently failed quarter: rare (a flood
    /// of tens of thousands of addresses), so its sort costs nothing in the usual case.
    private static func makeRoom(in table: inout [String: Record], at now: Moment, policy: Policy) {
        table = table.filter { $0.value.lastFailure.milliseconds(until: now) < policy.forgetAfterMilliseconds }
        guard table.count >= policy.maxRecords else { return }
        let oldest = table.sorted { $0.value.lastFailure < $1.value.lastFailure }.prefix(max(1, table.count / 4))
        for (key, _) in oldest { table[key] = nil }
    }
}

extension Int {
    fileprivate mutating func decrementKeepingNonNegative() {
        self = Swift.max(0, self - 1)
    }
}
