import PairsWire

/// Why a connection went, for the log: the transport lost it, or the lobby closed it with a `bye`.
public enum Departure: Sendable, Hashable {
    case lost(DisconnectCause)
    case closed(ByeReason)
}
