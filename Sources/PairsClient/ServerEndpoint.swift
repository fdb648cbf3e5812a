import PairsPolling
import PairsWire

/// Where a server listens: a host name (`localhost`, `game.lan`) or a numeric IPv4 or IPv6 address, and a
/// TCP port.
public struct ServerEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String = "localhost", port: Int = WireProtocol.defaultPort) {
        self.host = host
        self.port = port
    }

    /// `HOST:PORT`, with an IPv6 address in brackets so the port stays unambiguous (`[::1]:7777`).
    public var description: String {
        SocketAddress.describe(host: host, port: port)
    }
}
