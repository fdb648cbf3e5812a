import PairsPolling
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Test("numeric addresses resolve to themselves, IPv6 with or without brackets",
      arguments: [("127.0.0.1", "127.0.0.1", AF_INET), ("::1", "::1", AF_INET6), ("[::1]", "::1", AF_INET6)])
func numericAddressesResolve(host: String, numeric: String, family: Int32) throws {
    let addresses = try SocketAddress.resolve(host: host, port: 7777, for: .connecting)
    #expect(addresses.count == 1)
    #expect(addresses[0].host == numeric)
    #expect(addresses[0].port == 7777)
    #expect(addresses[0].family == family)
}

@Test("an address to listen on for every interface resolves, and its description puts IPv6 in brackets")
func listeningAddresses() throws {
    let any4 = try SocketAddress.resolve(host: "0.0.0.0", port: 0, for: .listening)
    #expect(any4.map(\.description) == ["0.0.0.0:0"])
    let any6 = try SocketAddress.resolve(host: "::", port: 9, for: .listening)
    #expect(any6.map(\.description) == ["[::]:9"])
}

@Test("HOST:PORT puts an IPv6 host in brackets exactly once, and leaves names and IPv4 alone",
      arguments: [("localhost", "localhost:1"), ("10.0.0.2", "10.0.0.2:1"), ("::1", "[::1]:1"), ("[::1]", "[::1]:1")])
func describedAddresses(host: String, described: String) {
    #expect(SocketAddress.describe(host: host, port: 1) == described)
}

@Test("a name that does not resolve is a typed error naming the host, not a crash")
func unknownHostIsATypedError() {
    #expect {
        _ = try SocketAddress.resolve(host: "no-such-host.invalid", port: 7777, for: .connecting)
    } throws: { error in
        guard case ResolveError.cannotResolve(host: "no-such-host.invalid", let reason) = error else { return false }
        return !reason.isEmpty && "\(error)".contains("no-such-host.invalid")
    }
}

@Test("a bound socket tells its address, with the port the kernel picked for port 0")
func boundAddress() throws {
    let address = try SocketAddress.resolve(host: "127.0.0.1", port: 0, for: .listening)[0]
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    #expect(address.withSockaddr { bind(fd, $0, $1) } == 0)
    let bound = try SocketAddress(boundTo: fd)
    #expect(bound.host == "127.0.0.1")
    #expect(bound.port > 0)
    #expect(bound.description == "127.0.0.1:\(bound.port)")
}
