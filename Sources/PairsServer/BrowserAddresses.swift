#if canImport(Glibc)
import Glibc
#endif
import PairsPolling

/// Where a browser on the LAN finds the server: the URLs of the start-up line
/// `open http://192.168.1.20:7777/ in a browser`, so the person running it has an address to read out.
public enum BrowserAddresses {
    /// The page's URLs for a server bound to `host` (numeric, as bound) on `port`. Bound to every interface
    /// (`0.0.0.0` or `::`), one per IPv4 address in `interfaceAddresses` (a browser on the LAN reaches
    /// those; IPv6 link-local addresses it would need a zone for), or the loopback address when that is all
    /// there is; bound to one address, that address.
    public static func urls(boundHost host: String, port: Int, interfaceAddresses: [String]) -> [String] {
        let hosts: [String]
        switch host {
        case "0.0.0.0", "::":
            hosts = interfaceAddresses.isEmpty ? ["127.0.0.1"] : interfaceAddresses
        default:
            hosts = [host]
        }
        return hosts.map { "http://\(SocketAddress.describe(host: $0, port: port))/" }
    }

    /// The IPv4 addresses of the machine's interfaces that are up, loopback left out, in the order the
    /// system lists them (`getifaddrs`); empty when there are none or the list cannot be read.
    public static func interfaceIPv4Addresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var entry = list
        while let interface = entry?.pointee {
            entry = interface.ifa_next
            let flags = Int32(interface.ifa_flags)
            guard let address = interface.ifa_addr, Int32(address.pointee.sa_family) == AF_INET,
                  flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0 else { continue }
            var ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            guard inet_ntop(AF_INET, &ipv4, &buffer, socklen_t(buffer.count)) != nil else { continue }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !addresses.contains(text) { addresses.append(text) }
        }
        return addresses
    }
}
