import PairsRules

/// One connection's rate limit: drops messages beyond the allowance, and tells a client that keeps
/// flooding after being told from one that had a busy moment.
struct RateLimiter {
    /// What to do with a message.
    enum Verdict {
        /// Within the allowance: handle it.
        case accepted
        /// Over the allowance: drop it and say `rate_limited`.
        case dropped
        /// Over the allowance for too long after being told: disconnect with `bye flooding`.
        case flooding
    }

    /// The messages the client may send.
    private var allowance: TokenBucket
    /// The drops the client may cause: a client is cut off after dropping about a burst's worth of
    /// messages in a row beyond its allowance, while one that backs off when told earns the allowance back
    /// within seconds (it refills at a quarter of the rate).
    private var dropAllowance: TokenBucket

    init(_ limit: RateLimit, now: Moment) {
        let rate = Double(limit.messagesPerSecond)
        let burst = Double(limit.burstMessages)
        allowance = TokenBucket(ratePerSecond: rate, burst: burst, now: now)
        dropAllowance = TokenBucket(ratePerSecond: rate / 4, burst: burst, now: now)
    }

    /// Admits a message that costs `cost` messages of the allowance (its work; 1 for most). A drop counts
    /// once against the drop allowance, whatever the cost.
    mutating func admit(cost: Int = 1, at now: Moment) -> Verdict {
        if allowance.take(Double(cost), at: now) { return .accepted }
        return dropAllowance.take(at: now) ? .dropped : .flooding
    }
}
