#if canImport(Glibc)
import Glibc
#endif
import PairsServer
import PairsTestSupport
import PairsWeb
import Testing

@Suite("The page's addresses at start-up", .ownThread)
struct BrowserAddressesTests {
    @Test("a server on every interface lists each LAN address, or the loopback one when that is all; one bound to an address lists that address")
    func urlsForEachBinding() {
        #expect(BrowserAddresses.urls(boundHost: "0.0.0.0", port: 7777, interfaceAddresses: ["192.168.1.20", "10.0.0.5"])
                == ["http://192.168.1.20:7777/", "http://10.0.0.5:7777/"])
        #expect(BrowserAddresses.urls(boundHost: "::", port: 7777, interfaceAddresses: ["192.168.1.20"]) == ["http://192.168.1.20:7777/"])
        #expect(BrowserAddresses.urls(boundHost: "0.0.0.0", port: 80, interfaceAddresses: []) == ["http://127.0.0.1:80/"])
        #expect(BrowserAddresses.urls(boundHost: "192.168.1.20", port: 7777, interfaceAddresses: ["10.0.0.5"]) == ["http://192.168.1.20:7777/"])
        #expect(BrowserAddresses.urls(boundHost: "::1", port: 7777, interfaceAddresses: ["10.0.0.5"]) == ["http://[::1]:7777/"])
    }

    @Test("the machine's interface addresses are IPv4, without loopback or repeats")
    func interfaceAddresses() {
        let addresses = BrowserAddresses.interfaceIPv4Addresses()
        #expect(Set(addresses).count == addresses.count)
        for address in addresses {
            var parsed = in_addr()
            #expect(inet_pton(AF_INET, address, &parsed) == 1, "\(address)")
            #expect(!address.hasPrefix("127."), "\(address)")
        }
    }

    @Test("pairs serve prints where to open the page after its listening line, and the page is there")
    func startUpLine() throws {
        let (server, port) = try PairsProcess.serve()
        defer { server.terminate() }
        #expect(try server.readLine(within: 10) == "open http://127.0.0.1:\(port)/ in a browser")
        let client = try TestClient(port: port)
        client.sendRaw(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let reply = try #require(HTTPReply(try client.readToEnd()))
        #expect(reply.status == 200)
        #expect(reply.body == ClientPage.bytes)
    }
}
