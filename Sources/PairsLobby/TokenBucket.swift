import PairsRules

/// A token bucket: `rate` tokens a second, holding at most `burst`. Each message takes one token, or as
/// many as its work costs (`ClientMessage.rateCost`).
///
/// `RateLimiter` uses two per connection: one to drop messages beyond the rate limit, and one to count
/// those drops, so that a client which keeps flooding after being told is disconnected. The server's log
/// uses one per kind of line, to hold lines back under churn (`LogSummary`).
public struct TokenBucket: Sendable {
    public let ratePerSecond: Double
    public let burst: Double
    private var tokens: Double
    private var updatedAt: Moment

    public init(ratePerSecond: Double, burst: Double, now: Moment) {
        self.ratePerSecond = ratePerSecond
        self.burst = burst
        self.tokens = burst
        self.updatedAt = now
    }

    /// Takes `count` tokens if they are there (the whole burst when `count` is more). Returns false, taking
    /// nothing, when there are fewer.
    public mutating func take(_ count: Double = 1, at now: Moment) -> Bool {
        let elapsed = Double(max(0, updatedAt.milliseconds(until: now))) / 1000
        tokens = min(burst, tokens + elapsed * ratePerSecond)
        updatedAt = now
        let cost = min(count, burst)
        guard tokens >= cost else { return false }
        tokens -= cost
        return true
    }
}
