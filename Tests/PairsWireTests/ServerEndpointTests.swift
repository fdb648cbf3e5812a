import PairsWire
import Testing

@Suite("A server's HOST:PORT, as clients, pairs load and a cluster's instances read and write it")
struct ServerEndpointTests {
    @Test("each of HOST, HOST:PORT, [V6]:PORT and a bare IPv6 address reads as an endpoint where a default port is given")
    func readsWithADefaultPort() {
        #expect(ServerEndpoint("10.0.0.1:7001", defaultPort: 7777) == ServerEndpoint(host: "10.0.0.1", port: 7001))
        #expect(ServerEndpoint("pairs.example", defaultPort: 7777) == ServerEndpoint(host: "pairs.example", port: 7777))
        #expect(ServerEndpoint("[::1]:7002", defaultPort: 7777) == ServerEndpoint(host: "::1", port: 7002))
        #expect(ServerEndpoint("::1", defaultPort: 7003) == ServerEndpoint(host: "::1", port: 7003))
        #expect(ServerEndpoint("[::1]", defaultPort: 7003) == ServerEndpoint(host: "::1", port: 7003))
        for bad in ["", "host:", "host:0", "host:65536", "host:99999", ":7001", "[::1", "[::1]x", "[]:7001", "host:port"] {
            #expect(ServerEndpoint(bad, defaultPort: 7777) == nil, "\(bad)")
        }
    }

    @Test("without a default port, a host alone is refused: an instance's advertised address always names its port")
    func readsWithoutADefaultPort() {
        #expect(ServerEndpoint("10.0.0.1:7001") == ServerEndpoint(host: "10.0.0.1", port: 7001))
        #expect(ServerEndpoint("[fe80::1]:65535") == ServerEndpoint(host: "fe80::1", port: 65535))
        for bad in ["pairs.example", "::1", "[::1]", "::1:7001", ""] {
            #expect(ServerEndpoint(bad) == nil, "\(bad)")
        }
    }

    @Test("what it writes reads back as the same endpoint, with an IPv6 address in brackets")
    func roundTrips() {
        let endpoints = [ServerEndpoint(), ServerEndpoint(host: "::1", port: 7), ServerEndpoint(host: "game.lan", port: 65535),
                         ServerEndpoint(host: "192.168.1.20", port: 1), ServerEndpoint(host: "fe80::1%eth0", port: 7777)]
        for endpoint in endpoints {
            #expect(ServerEndpoint(endpoint.description) == endpoint, "\(endpoint)")
        }
        #expect(ServerEndpoint(host: "::1", port: 7).description == "[::1]:7")
        #expect(ServerEndpoint(host: "[::1]", port: 7).description == "[::1]:7")
        #expect(ServerEndpoint().description == "localhost:\(WireProtocol.defaultPort)")
    }
}
