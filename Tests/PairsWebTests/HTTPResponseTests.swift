@testable import PairsWeb
import Testing

private func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}

@Test("a plain-text error is a whole response: status line, type, length, close, and a sentence")
func plainTextError() {
    let response = HTTPResponse.error(.headTooLarge)
    #expect(text(response.encoded()) == """
        HTTP/1.1 431 Request Header Fields Too Large\r
        Content-Type: text/plain; charset=utf-8\r
        X-Content-Type-Options: nosniff\r
        Content-Length: 84\r
        Connection: close\r
        \r
        431 Request Header Fields Too Large: the request headers are longer than 8192 bytes

        """)
    #expect(response.body.count == 84)
}

@Test("every request error answers with its status and a body that says why", arguments: [
    HTTPRequestError.malformedRequestLine, .methodNotAllowed("PUT"), .requestLineTooLong, .headTooLarge,
    .malformedHeaderField, .invalidHost, .invalidContentLength, .bodyNotAccepted,
])
func errorResponses(error: HTTPRequestError) {
    let encoded = text(HTTPResponse.error(error).encoded())
    #expect(encoded.hasPrefix("HTTP/1.1 \(error.status.rawValue) \(error.status.reasonPhrase)\r\n"))
    #expect(encoded.contains("\r\nConnection: close\r\n"))
    #expect(encoded.hasSuffix("\r\n\r\n\(error.status.rawValue) \(error.status.reasonPhrase): \(error)\n"))
    #expect(encoded.contains("\r\nAllow: GET, HEAD\r\n") == (error.status == .methodNotAllowed))
}

@Test("a 404 names the path, and an answer to HEAD has the GET's headers and no body")
func notFoundAndHead() {
    let response = HTTPResponse.notFound(HTTPRequest(method: .get, target: "/nowhere?x=1"))
    #expect(text(response.body) == "404 Not Found: nothing at /nowhere\n")
    let withBody = response.encoded()
    let headOnly = response.encoded(includingBody: false)
    #expect(withBody == headOnly + response.body)
    #expect(text(headOnly).contains("Content-Length: \(response.body.count)\r\n"))
}

@Test("JSON is never cached, a 101 is neither closed nor delimited, and a 304 carries no body")
func specialResponses() {
    #expect(text(HTTPResponse.json(Array("{}".utf8)).encoded()) == """
        HTTP/1.1 200 OK\r
        Content-Type: application/json\r
        Cache-Control: no-store\r
        Content-Length: 2\r
        Connection: close\r
        \r
        {}
        """)
    #expect(text(HTTPResponse(status: .switchingProtocols, headers: ["Upgrade": "websocket"]).encoded())
        == "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n")
    #expect(text(HTTPResponse(status: .notModified, headers: ["ETag": "\"x\""], body: [1, 2]).encoded())
        == "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\nConnection: close\r\n\r\n")
}

@Test("header lookups ignore ASCII case, return nothing for a repeated field, and find tokens in lists")
func headerLookups() {
    let headers: HTTPHeaders = ["Connection": "keep-alive,  Upgrade ", "UPGRADE": "WebSocket", "X": "1", "x": "2", "Host": ""]
    #expect(headers["connection"] == "keep-alive,  Upgrade ")
    #expect(headers["x"] == nil)
    #expect(headers.values(named: "X") == ["1", "2"])
    #expect(headers["host"] == "")
    #expect(headers.contains(token: "upgrade", inFieldNamed: "CONNECTION"))
    #expect(headers.contains(token: "websocket", inFieldNamed: "upgrade"))
    #expect(!headers.contains(token: "keep", inFieldNamed: "connection"))
    #expect(!headers.contains(token: "upgrade", inFieldNamed: "upgrade"))
}
