#if canImport(Glibc)
import Glibc
#endif
import PairsPolling

/// The one socket address every connection of a run connects to, resolved once before the run.
///
/// Resolving a host name thousands of times would cost more than the connections themselves; and a name
/// such as `localhost` may have several addresses of which a server on `0.0.0.0` answers only one, so
/// when there are several, each is tried with one connect until one accepts.
enum ServerAddress {
    /// How long the probe of one address may take when a name has several.
    static let probeTimeoutMilliseconds = 3000

    /// Resolves `host` and picks the address to use. Throws when it does not resolve, or when it has several
    /// addresses and none accepts a connection.
    static func resolve(host: String, port: Int) throws(LoadError) -> SocketAddress {
        let addresses: [SocketAddress]
        do {
            addresses = try SocketAddress.resolve(host: host, port: port, for: .connecting)
        } catch {
            throw .cannotResolve(host: host, reason: error.reason)
        }
        if addresses.count == 1 { return addresses[0] }
        do {
            let probe = try SocketConnector.connectToFirst(of: addresses, timeoutMilliseconds: probeTimeoutMilliseconds)
            close(probe.fd)
            return probe.address
        } catch {
            throw .cannotConnect(endpoint: SocketAddress.describe(host: host, port: port), reason: error.description)
        }
    }
}
