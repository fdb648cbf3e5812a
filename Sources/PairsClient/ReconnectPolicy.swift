/// When to try again after a connection drops: soon at first, then backing off, and not at all once the
/// server would have given the seat away.
public struct ReconnectPolicy: Sendable, Hashable {
    /// How long after a drop reconnecting is worth trying, in milliseconds: the server's default grace
    /// period (`pairs serve --grace-seconds 60`), after which the seat is forfeited and the token is dead.
    public static let standardWindowMilliseconds = 60_000
    /// The first wait, in milliseconds: a blip (a Wi-Fi hand-over, a server restart) is usually over this fast.
    public static let standardFirstDelayMilliseconds = 250
    /// The longest wait between attempts, in milliseconds, so a player who comes back online is back in the
    /// game within seconds rather than minutes.
    public static let standardMaxDelayMilliseconds = 5_000

    public var windowMilliseconds: Int
    public var firstDelayMilliseconds: Int
    public var maxDelayMilliseconds: Int

    public init(windowMilliseconds: Int = standardWindowMilliseconds,
                firstDelayMilliseconds: Int = standardFirstDelayMilliseconds,
                maxDelayMilliseconds: Int = standardMaxDelayMilliseconds) {
        self.windowMilliseconds = windowMilliseconds
        self.firstDelayMilliseconds = firstDelayMilliseconds
        self.maxDelayMilliseconds = maxDelayMilliseconds
    }

    /// Reconnecting is off: a drop ends the session.
    public static let never = ReconnectPolicy(windowMilliseconds: 0)

    /// The wait before attempt number `attempt` (1 for the first), given `elapsed` milliseconds since the
    /// drop; nil when the next attempt would start after the window closes. Doubles from the first delay up
    /// to the maximum.
    public func delay(beforeAttempt attempt: Int, elapsedMilliseconds elapsed: Int) -> Int? {
        guard attempt >= 1 else { return 0 }
        var delay = firstDelayMilliseconds
        var doublings = attempt - 1
        while doublings > 0, delay < maxDelayMilliseconds {
            delay *= 2
            doublings -= 1
        }
        delay = min(delay, maxDelayMilliseconds)
        guard elapsed + delay < windowMilliseconds else { return nil }
        return delay
    }
}
