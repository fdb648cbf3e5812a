import PairsLoad
import Testing

@Suite("pairs load --host with several servers")
struct LoadServerTests {
    @Test("each of HOST, HOST:PORT, [V6]:PORT and a bare IPv6 address reads as a server; the rest is refused")
    func reads() {
        #expect(LoadServer("10.0.0.1:7001", defaultPort: 7777) == LoadServer(host: "10.0.0.1", port: 7001))
        #expect(LoadServer("pairs.example", defaultPort: 7777) == LoadServer(host: "pairs.example", port: 7777))
        #expect(LoadServer("[::1]:7002", defaultPort: 7777) == LoadServer(host: "::1", port: 7002))
        #expect(LoadServer("::1", defaultPort: 7003) == LoadServer(host: "::1", port: 7003))
        #expect(LoadServer("[::1]", defaultPort: 7003) == LoadServer(host: "::1", port: 7003))
        for bad in ["", "host:", "host:0", "host:99999", ":7001", "[::1", "[::1]x", "host:port"] {
            #expect(LoadServer(bad, defaultPort: 7777) == nil, "\(bad)")
        }
        #expect(LoadServer(host: "::1", port: 7).description == "[::1]:7")
    }
}
