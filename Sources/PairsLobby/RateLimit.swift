/// How many messages a connection may send: a sustained rate with bursts, or nothing at all when off.
public struct RateLimit: Sendable, Hashable {
    /// Messages a second a connection may keep sending.
    public var messagesPerSecond: Int
    /// Messages a connection may send at once after a quiet spell.
    public var burstMessages: Int

    /// `messagesPerSecond` with bursts of twice that: a bot answering a burst of states should not be
    /// punished for one busy moment.
    public init(messagesPerSecond: Int) {
        self.messagesPerSecond = messagesPerSecond
        self.burstMessages = messagesPerSecond * 2
    }
}
