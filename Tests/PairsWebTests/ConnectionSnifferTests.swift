@testable import PairsWeb
import Testing

private let httpStreams = [
    "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /ws HTTP/1.1\r\n",
    "GET /stats HTTP/1.0\n",
    "HEAD /?room=kitchen&name=ann%20b HTTP/1.1\r\n",
    "POST /x HTTP/1.1\r\n",
    "OPTIONS / HTTP/1.1\r\n",
    "GET / HTTP/1.1\n",
]

private let lineStreams = [
    "{\"type\":\"join\"}\n",
    "join kitchen\n",
    "get\n",
    "GET\n",
    "GET /\n",
    "GET / \n",
    "GET / HTTP/1.1 \r\n",
    "GET / HTTP/2\r\n",
    "GET / HTTP/1.2\r\n",
    "GET / http/1.1\r\n",
    "get / HTTP/1.1\r\n",
    "Get / HTTP/1.1\r\n",
    "GET  / HTTP/1.1\r\n",
    "GET http://a/ HTTP/1.1\r\n",
    "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    "GET / HTTP/1.1\rx",
    "say /me waves\n",
    "SAY /me waves\n",
    "FLIP 3\n",
    "3\n",
    "\r\n",
    " GET / HTTP/1.1\r\n",
    "\u{16}\u{03}\u{01}",
    String(repeating: "A", count: RequestLine.maxMethodBytes + 1) + " / HTTP/1.1\r\n",
]

@Test("a whole request line makes a connection HTTP", arguments: httpStreams)
func httpRequestLines(stream: String) {
    #expect(ConnectionSniffer.classify(Array(stream.utf8)) == .http)
}

@Test("anything that is not a whole request line is the line protocol", arguments: lineStreams)
func lineProtocolStreams(stream: String) {
    #expect(ConnectionSniffer.classify(Array(stream.utf8)) == .lines)
}

@Test("a stream waits only while every byte could still start a request line, and then never changes its mind",
      arguments: httpStreams + lineStreams)
func prefixesWaitOnlyWhileAmbiguous(stream: String) {
    let bytes = Array(stream.utf8)
    let final = ConnectionSniffer.classify(bytes)
    var decidedAt: Int?
    for length in 0...bytes.count {
        let classification = ConnectionSniffer.classify(Array(bytes[..<length]))
        if let decidedAt {
            #expect(classification == final, "prefix of \(length) bytes, decided at \(decidedAt)")
        } else if classification != .needMoreBytes {
            #expect(classification == final, "prefix of \(length) bytes")
            decidedAt = length
        }
    }
}

@Test("JSON, text commands and lower-case words are decided by their first byte", arguments: [
    "{", " ", "j", "f", "s", "q", "1", "g", "\n", "\r", "\u{0}", "\u{ff}",
])
func firstByteDecides(first: String) {
    #expect(ConnectionSniffer.classify(Array(first.utf8)) == .lines)
}

@Test("the sniffer never waits for more than its bound, and an over-long request line is HTTP, for the parser's 414")
func boundedWait() {
    let bound = ConnectionSniffer.maxBytesToDecide
    #expect(bound == HTTPRequestParser.maxRequestLineBytes + 2)
    let longTarget = Array("GET /".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: bound)
    #expect(ConnectionSniffer.classify(Array(longTarget[..<(bound - 1)])) == .needMoreBytes)
    #expect(ConnectionSniffer.classify(Array(longTarget[..<bound])) == .http)
    var parser = HTTPRequestParser()
    #expect(parser.parse(Array(longTarget[..<bound])) == .failure(.requestLineTooLong))

    // The longest request line the parser takes is decided within the bound, either way it ends.
    let longest = "GET /" + String(repeating: "a", count: HTTPRequestParser.maxRequestLineBytes - 14) + " HTTP/1.1"
    #expect(longest.utf8.count == HTTPRequestParser.maxRequestLineBytes)
    #expect(ConnectionSniffer.classify(Array((longest + "\r\n").utf8)) == .http)
    #expect(ConnectionSniffer.classify(Array((longest + "\rx").utf8)) == .lines)
}

@Test("every stream the sniffer calls HTTP has a request line the parser reads", arguments: httpStreams)
func snifferAndParserAgree(stream: String) {
    var parser = HTTPRequestParser()
    let outcome = parser.parse(Array(stream.utf8))
    #expect(outcome != .failure(.malformedRequestLine))
    #expect(outcome != .failure(.requestLineTooLong))
}
