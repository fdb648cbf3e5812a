@testable import PairsWeb
import PairsTestSupport
import Testing

/// The handshake request of RFC 6455 §1.2, as the test client writes it.
private func handshake(_ changes: (inout HTTPHeaders) -> Void = { _ in }) -> HTTPRequest {
    var parser = HTTPRequestParser()
    guard case .request(var request, _) = parser.parse(WebSocketTestClient.handshakeRequest()) else {
        fatalError("the test client's handshake does not parse")
    }
    changes(&request.headers)
    return request
}

/// `headers` without the fields called `name`, and with `extra` added.
private func replacing(_ name: String, with extra: [(String, String)], in headers: HTTPHeaders) -> HTTPHeaders {
    var result = HTTPHeaders(headers.fields.filter { $0.name.lowercased() != name.lowercased() })
    for (fieldName, value) in extra {
        result.append(name: fieldName, value: value)
    }
    return result
}

@Test("the accept value for the RFC 6455 sample key is the RFC's")
func rfcSampleAccept() {
    #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
}

@Test("a browser's handshake gets a 101 that the test client accepts")
func acceptedHandshake() throws {
    let response = try WebSocketHandshake.response(to: handshake())
    #expect(response.status == .switchingProtocols)
    let encoded = String(decoding: response.encoded(), as: UTF8.self)
    #expect(encoded.hasSuffix("\r\n\r\n"))
    #expect(WebSocketTestClient.isAcceptingHandshake(encoded))
    #expect(!encoded.contains("Content-Length"))
}

@Test("Upgrade and Connection are token lists compared without regard to case")
func tokenListsInAnyCase() throws {
    let request = handshake { headers in
        headers = replacing("Connection", with: [("connection", "keep-alive, UPGRADE")], in: headers)
        headers = replacing("Upgrade", with: [("upgrade", "WebSocket")], in: headers)
    }
    #expect(try WebSocketHandshake.response(to: request).status == .switchingProtocols)
}

@Test("a request that is not an upgrade, or not a GET of HTTP/1.1, is 400")
func notAnUpgrade() {
    var head = handshake()
    head.method = .head
    var old = handshake()
    old.version = .http1_0
    let requests = [
        head, old,
        handshake { $0 = replacing("Upgrade", with: [], in: $0) },
        handshake { $0 = replacing("Upgrade", with: [("Upgrade", "h2c")], in: $0) },
        handshake { $0 = replacing("Connection", with: [("Connection", "keep-alive")], in: $0) },
        HTTPRequest(method: .get, target: "/ws", headers: ["Host": "a"]),
    ]
    for request in requests {
        #expect(throws: WebSocketHandshakeError.notAnUpgradeRequest) { try WebSocketHandshake.response(to: request) }
    }
    #expect(WebSocketHandshakeError.notAnUpgradeRequest.response.status == .badRequest)
}

@Test("a version other than 13, or none, is 426 naming version 13", arguments: [[], ["8"], ["13", "13"], ["14"]])
func unsupportedVersion(versions: [String]) {
    let request = handshake { $0 = replacing("Sec-WebSocket-Version", with: versions.map { ("Sec-WebSocket-Version", $0) }, in: $0) }
    #expect(throws: WebSocketHandshakeError.unsupportedVersion(versions.joined(separator: ", "))) {
        try WebSocketHandshake.response(to: request)
    }
    let response = WebSocketHandshakeError.unsupportedVersion("8").response
    #expect(response.status == .upgradeRequired)
    #expect(response.headers["Sec-WebSocket-Version"] == "13")
}

@Test("a key that is missing, repeated, not canonical Base64 or not 16 bytes is 400", arguments: [
    [], ["dGhlIHNhbXBsZSBub25jZQ==", "dGhlIHNhbXBsZSBub25jZQ=="], ["not base64!"], ["dGhlIHNhbXBsZSBub25jZQ"],
    ["dGhlIHNhbXBsZSBub25jZXg="], ["dGhlIHNhbXBsZSBub25jZR=="],
])
func invalidKeys(keys: [String]) {
    let request = handshake { $0 = replacing("Sec-WebSocket-Key", with: keys.map { ("Sec-WebSocket-Key", $0) }, in: $0) }
    #expect(throws: WebSocketHandshakeError.invalidKey) { try WebSocketHandshake.response(to: request) }
    #expect(WebSocketHandshakeError.invalidKey.response.status == .badRequest)
}

@Test("any 16 bytes in Base64 are a key, and the accept value follows the key")
func anySixteenBytesAreAKey() throws {
    let request = handshake { $0 = replacing("Sec-WebSocket-Key", with: [("Sec-WebSocket-Key", "AAAAAAAAAAAAAAAAAAAAAA==")], in: $0) }
    let response = try WebSocketHandshake.response(to: request)
    #expect(response.headers["Sec-WebSocket-Accept"] == WebSocketHandshake.acceptValue(forKey: "AAAAAAAAAAAAAAAAAAAAAA=="))
    #expect(response.headers["Sec-WebSocket-Accept"] != WebSocketTestClient.sampleAccept)
}

@Suite("Which pages may open a WebSocket")
struct WebSocketOriginTests {
    private func request(host: String, origins: [String]) -> HTTPRequest {
        var headers: HTTPHeaders = ["Host": host]
        for origin in origins { headers.append(name: "Origin", value: origin) }
        return HTTPRequest(method: .get, target: "/ws", headers: headers)
    }

    @Test("the server's own page, by the Host it was asked for, and no page at all, are let in", arguments: [
        ("192.168.1.5:7777", ["http://192.168.1.5:7777"]),
        ("pairs.lan", ["http://pairs.lan"]),
        ("pairs.lan", ["http://pairs.lan:80"]),
        ("Pairs.LAN:7777", ["http://pairs.lan:7777"]),
        ("[::1]:7777", ["http://[::1]:7777"]),
        ("pairs.lan:443", ["https://pairs.lan"]),
        ("pairs.lan:7777", []),
    ])
    func ownPageIsAllowed(host: String, origins: [String]) {
        #expect(WebSocketOrigin.isAllowed(request(host: host, origins: origins), alsoAllowing: []))
    }

    @Test("a page of any other origin is refused: another host, another port, null, file, two Origins", arguments: [
        ("192.168.1.5:7777", ["http://evil.example"]),
        ("192.168.1.5:7777", ["http://192.168.1.5:7778"]),
        ("192.168.1.5:7777", ["http://192.168.1.5"]),
        ("192.168.1.5:7777", ["null"]),
        ("192.168.1.5:7777", ["file://"]),
        ("192.168.1.5:7777", ["http://192.168.1.5:7777", "http://evil.example"]),
        ("192.168.1.5:7777", ["http://192.168.1.5:7777.evil.example"]),
    ])
    func foreignPagesAreRefused(host: String, origins: [String]) {
        #expect(!WebSocketOrigin.isAllowed(request(host: host, origins: origins), alsoAllowing: []))
    }

    @Test("an origin given to --allow-origin is let in, however it was spelled; the handshake refuses others with 403")
    func allowedOrigins() throws {
        let allowed = [WebSocketOrigin.normalized("HTTP://Friends.example:8080/")]
        #expect(WebSocketOrigin.isAllowed(request(host: "pairs.lan:7777", origins: ["http://friends.example:8080"]), alsoAllowing: allowed))
        #expect(!WebSocketOrigin.isAllowed(request(host: "pairs.lan:7777", origins: ["http://friends.example"]), alsoAllowing: allowed))
        #expect(WebSocketOrigin.isValid("http://friends.example:8080"))
        #expect(!WebSocketOrigin.isValid("friends.example"))
        #expect(!WebSocketOrigin.isValid("http://"))
        #expect(!WebSocketOrigin.isValid("http://a/b"))
        let foreign = handshake { $0 = replacing("Origin", with: [("Origin", "http://evil.example")], in: $0) }
        #expect(throws: WebSocketHandshakeError.foreignOrigin("http://evil.example")) { try WebSocketHandshake.response(to: foreign) }
        #expect(WebSocketHandshakeError.foreignOrigin("x").response.status == .forbidden)
    }
}
