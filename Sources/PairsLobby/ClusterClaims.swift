import PairsRules

/// The room names one shard is claiming from the cluster, each with the connections waiting for the
/// answer: the one whose `join` made the claim, and any that asked for the same name meanwhile (on this
/// shard, or handed over from another), which must not make a second claim.
struct ClusterClaims {
    struct Claim {
        /// The rules the room is made with if the claim succeeds: those of the `join` that made it.
        let rules: RuleSet
        var waiters: [ConnectionID]
    }

    private var claims: [String: Claim] = [:]

    func isClaiming(_ name: String) -> Bool { claims[name] != nil }

    mutating func start(_ name: String, rules: RuleSet, by connection: ConnectionID) {
        claims[name] = Claim(rules: rules, waiters: [connection])
    }

    mutating func wait(_ connection: ConnectionID, for name: String) {
        claims[name]?.waiters.append(connection)
    }

    /// The claim of `name`, answered: it is no longer pending.
    mutating func finish(_ name: String) -> Claim? {
        claims.removeValue(forKey: name)
    }
}
