import PairsWire

/// Why a connection went, for the log: the transport lost it, or the lobby closed it with a `bye`, or the
/// client said goodbye with a `leave` and then ended the connection itself.
public enum Departure: Sendable, Hashable {
    case lost(DisconnectCause)
    case closed(ByeReason)
    /// The client's last request was `leave`, and then its connection ended from its side (closed, reset,
    /// or gone): a goodbye as good as `quit`, which is what `pairs play` does on Ctrl-C in a game.
    case quitAfterLeave
}
