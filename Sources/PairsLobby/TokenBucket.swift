import PairsRules

/// A token bucket: `rate` tokens a second, holding at most `burst`. Each message takes one token.
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

    /// Takes a token if one is there. Returns false, taking nothing, when the bucket is empty.
    public mutating func take(at now: Moment) -> Bool {
        let elapsed = Double(max(0, updatedAt.milliseconds(until: now))) / 1000
        tokens = min(burst, tokens + elapsed * ratePerSecond)
        updatedAt = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
