import PairsWire

/// Why a connection could not be made or used, in words a player can act on.
public enum ConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The port is not a TCP port number.
    case badPort(Int)
    /// The host name did not resolve to any address.
    case cannotResolve(host: String, reason: String)
    /// Every address of the host refused, timed out or was unreachable; `reason` is the last failure.
    case cannotConnect(ServerEndpoint, reason: String)
    /// A send on a connection that is closed or was never opened.
    case notConnected
    /// The request could not be written: the connection broke, or the server stopped reading.
    case sendFailed(reason: String)

    /// The reason `cannotConnect` gives when nothing listens on the port: the failure every player meets
    /// first, so its description says what to check.
    public static let refused = "connection refused"

    public var description: String {
        switch self {
        case .badPort(let port):
            "\(port) is not a TCP port (1-65535)"
        case .cannotResolve(let host, let reason):
            "cannot find host \(host): \(reason)"
        case .cannotConnect(let endpoint, let reason) where reason == Self.refused:
            "cannot connect to \(endpoint): \(reason) (is the server running, on that port?)"
        case .cannotConnect(let endpoint, let reason):
            "cannot connect to \(endpoint): \(reason)"
        case .notConnected:
            "not connected"
        case .sendFailed(let reason):
            "cannot send to the server: \(reason)"
        }
    }

    /// What went wrong in a few words, without the server's address: for a sentence that says it already.
    var reason: String {
        switch self {
        case .cannotConnect(_, let reason), .sendFailed(let reason): reason
        case .cannotResolve(let host, _): "cannot find host \(host)"
        case .badPort, .notConnected: description
        }
    }
}
