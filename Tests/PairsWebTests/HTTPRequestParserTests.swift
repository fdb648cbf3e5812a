@testable import PairsWeb
import PairsTestSupport
import Testing

/// What reading a stream came to, with the head's end counted from the start of the stream, so results of
/// different piece sizes compare.
private enum Parsed: Equatable, CustomStringConvertible {
    case needMoreBytes
    case request(HTTPRequest, headEnd: Int)
    case failure(HTTPRequestError)

    var description: String {
        switch self {
        case .needMoreBytes: "needMoreBytes"
        case .request(let request, let end): "request(\(request.method) \(request.target) \(request.headers.fields.map { "\($0.name)=\($0.value)" }), end \(end))"
        case .failure(let error): "failure(\(error))"
        }
    }
}

/// Feeds `stream` to a parser in pieces of `size` bytes until it decides.
private func parsed(_ stream: [UInt8], pieceSize: Int) -> Parsed {
    var parser = HTTPRequestParser()
    var offset = 0
    for piece in Chunking.pieces(of: stream, size: pieceSize) {
        switch parser.parse(piece) {
        case .needMoreBytes: offset += piece.count
        case .request(let request, let consumed): return .request(request, headEnd: offset + consumed)
        case .failure(let error): return .failure(error)
        }
    }
    return .needMoreBytes
}

/// The same reading done the obvious way: split the whole stream into lines first, then apply each rule in
/// turn with string operations.
private func referenceParse(_ stream: [UInt8]) -> Parsed {
    let maxLine = HTTPRequestParser.maxRequestLineBytes
    let maxHead = HTTPRequestParser.maxHeadBytes
    var lines = stream.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    let unterminated = lines.removeLast()
    var headBytes = 0
    var requestLine: (method: HTTPMethod, target: String, version: HTTPVersion)?
    var headers = HTTPHeaders()
    for rawLine in lines {
        headBytes += rawLine.count + 1
        let line = rawLine.last == UInt8(ascii: "\r") ? Array(rawLine.dropLast()) : rawLine
        guard let (method, target, version) = requestLine else {
            if line.count > maxLine { return .failure(.requestLineTooLong) }
            if headBytes > maxHead { return .failure(.headTooLarge) }
            let parts = String(decoding: line, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 3,
                  (1...20).contains(parts[0].count), parts[0].allSatisfy({ $0 == "-" || ("A"..."Z").contains($0) }),
                  parts[1].hasPrefix("/"), parts[1].utf8.allSatisfy({ (0x21...0x7E).contains($0) }),
                  ["HTTP/1.0", "HTTP/1.1"].contains(parts[2]) else { return .failure(.malformedRequestLine) }
            guard let method = HTTPMethod(rawValue: String(parts[0])) else { return .failure(.methodNotAllowed(String(parts[0]))) }
            requestLine = (method, String(parts[1]), parts[2] == "HTTP/1.1" ? .http1_1 : .http1_0)
            continue
        }
        if headBytes > maxHead { return .failure(.headTooLarge) }
        if line.isEmpty {
            let end = headBytes
            let values = { (name: String) in headers.fields.filter { $0.name.lowercased() == name }.map(\.value) }
            if version == .http1_1 && values("host").count != 1 { return .failure(.invalidHost) }
            if !values("transfer-encoding").isEmpty { return .failure(.bodyNotAccepted) }
            let lengths = values("content-length")
            if lengths.contains(where: { $0.isEmpty || !$0.allSatisfy { ("0"..."9").contains($0) } }) { return .failure(.invalidContentLength) }
            let numbers = Set(lengths.map { String($0.drop { $0 == "0" }) })
            if numbers.count > 1 { return .failure(.invalidContentLength) }
            if numbers.contains(where: { !$0.isEmpty }) { return .failure(.bodyNotAccepted) }
            return .request(HTTPRequest(method: method, target: target, version: version, headers: headers), headEnd: end)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return .failure(.malformedHeaderField) }
        let name = text[..<colon]
        let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard !name.isEmpty, name.allSatisfy(tokenCharacters.contains) else { return .failure(.malformedHeaderField) }
        let value = String(text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        guard line.allSatisfy({ $0 == 0x09 || $0 >= 0x20 && $0 != 0x7F }) else { return .failure(.malformedHeaderField) }
        headers.append(name: String(name), value: value)
    }
    // A line still arriving fails as soon as it can no longer fit (one byte of slack for a CR of CRLF).
    if requestLine == nil && unterminated.count > maxLine + 1 { return .failure(.requestLineTooLong) }
    if headBytes + unterminated.count > maxHead { return .failure(.headTooLarge) }
    return .needMoreBytes
}

private let host = "Host: pairs.local:7777\r\n"

private let fixtures: [String] = [
    "GET / HTTP/1.1\r\n\(host)\r\n",
    "GET /ws HTTP/1.1\r\n\(host)Upgrade: websocket\r\nConnection: keep-alive, Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n\u{81}\u{85}",
    "GET /stats HTTP/1.0\n\n",
    "GET /stats HTTP/1.1\nhost: x\n\nGET / HTTP/1.1\n",
    "HEAD /?room=kitchen&name=ann HTTP/1.1\r\nhOsT: a\r\n\r\n",
    "GET / HTTP/1.1\r\n\(host)X: \t spaced  value \t\r\nX-Empty:\r\nX-Latin: caf\u{e9}\r\n\r\n",
    "GET / HTTP/1.1\r\n\(host)Content-Length: 0\r\n\r\n",
    "GET / HTTP/1.1\r\n\(host)Content-Length: 00\r\nContent-Length: 0\r\n\r\n",
    "GET / HTTP/1.0\r\n\r\n",
    "POST / HTTP/1.1\r\n\(host)Content-Length: 3\r\n\r\nabc",
    "DELETE /x HTTP/1.1\r\n\(host)\r\n",
    "GET / HTTP/1.1\r\n\(host)Content-Length: 5\r\n\r\nhello",
    "GET / HTTP/1.1\r\n\(host)Content-Length: 99999999999999999999999999\r\n\r\n",
    "GET / HTTP/1.1\r\n\(host)Content-Length: abc\r\n\r\n",
    "GET / HTTP/1.1\r\n\(host)Content-Length: -1\r\n\r\n",
    "GET / HTTP/1.1\r\n\(host)Content-Length: 1\r\nContent-Length: 2\r\n\r\n",
    "GET / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "GET / HTTP/1.1\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    "GET / HTTP/1.1\r\nHost : a\r\n\r\n",
    "GET / HTTP/1.1\r\n\(host) folded\r\n\r\n",
    "GET / HTTP/1.1\r\n\(host)X: a\rb\r\n\r\n",
    "GET / HTTP/1.1\r\n\(host)X: a\u{0}b\r\n\r\n",
    "GET / HTTP/1.1\r\n\(host)NoColon\r\n\r\n",
    "GET / HTTP/1.1\r\n\(host): nameless\r\n\r\n",
    "get / HTTP/1.1\r\n\(host)\r\n",
    "GET  / HTTP/1.1\r\n\(host)\r\n",
    "GET http://a/ HTTP/1.1\r\n\(host)\r\n",
    "GET / HTTP/2.0\r\n\(host)\r\n",
    "GET / HTTP/1.1 \r\n\(host)\r\n",
    "GET /\r\n",
    "\r\nGET / HTTP/1.1\r\n\(host)\r\n",
    "GET / HTTP/1.1\r\n\(host)",
    "GET / HT",
    "",
]

@Test("fixture requests parse the same in every piece size as the reference reads them whole", arguments: fixtures)
func everyPieceSizeParsesAlike(stream: String) {
    let bytes = Array(stream.utf8)
    let expected = referenceParse(bytes)
    for size in Chunking.sizes(for: bytes.count) {
        #expect(parsed(bytes, pieceSize: size) == expected, "piece size \(size)")
    }
}

@Test("a browser's request comes out typed: method, target, path, query and headers looked up in any case")
func typedRequest() {
    let stream = Array("GET /?room=kitchen&name=ann HTTP/1.1\r\nHost: a\r\nACCEPT: text/html\r\nX: \t v  w \t\r\n\r\n".utf8)
    guard case .request(let request, let end) = parsed(stream, pieceSize: stream.count) else {
        Issue.record("expected a request")
        return
    }
    #expect(end == stream.count)
    #expect(request.method == .get)
    #expect(request.version == .http1_1)
    #expect(request.target == "/?room=kitchen&name=ann")
    #expect(request.path == "/")
    #expect(request.query == "room=kitchen&name=ann")
    #expect(request.headers["accept"] == "text/html")
    #expect(request.headers["x"] == "v  w")
    #expect(request.headers["missing"] == nil)
    #expect(HTTPRequest(method: .get, target: "/ws").query == nil)
    #expect(HTTPRequest(method: .get, target: "/ws?").query == "")
}

@Test("each refusal has its status: 400 malformed, 405 method, 413 body, 414 line, 431 head", arguments: [
    ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", HTTPStatus.badRequest),
    ("PUT / HTTP/1.1\r\nHost: a\r\n\r\n", .methodNotAllowed),
    ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\nx", .contentTooLarge),
    ("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", .contentTooLarge),
    ("GET /\(String(repeating: "a", count: 3000)) HTTP/1.1\r\n", .uriTooLong),
    ("GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 9000))", .requestHeaderFieldsTooLarge),
])
func refusalStatuses(stream: String, status: HTTPStatus) {
    guard case .failure(let error) = parsed(Array(stream.utf8), pieceSize: 7) else {
        Issue.record("expected a failure")
        return
    }
    #expect(error.status == status)
}

/// A request line of exactly `length` bytes, without its terminator.
private func requestLine(length: Int) -> String {
    "GET /" + String(repeating: "a", count: length - "GET / HTTP/1.1".utf8.count) + " HTTP/1.1"
}

/// A head of exactly `length` bytes, the empty line included.
private func head(length: Int, terminator: String) -> String {
    let fixed = "GET / HTTP/1.1\(terminator)Host: a\(terminator)X: \(terminator)\(terminator)"
    return "GET / HTTP/1.1\(terminator)Host: a\(terminator)X: \(String(repeating: "v", count: length - fixed.utf8.count))\(terminator)\(terminator)"
}

@Test("a request line of exactly the limit is read, one byte more is 414, with either terminator")
func requestLineLimit() {
    let limit = HTTPRequestParser.maxRequestLineBytes
    #expect(limit == 2048)
    for terminator in ["\r\n", "\n"] {
        for (length, fits) in [(limit, true), (limit + 1, false)] {
            let bytes = Array((requestLine(length: length) + terminator + "Host: a\r\n\r\n").utf8)
            for size in Chunking.sizes(for: bytes.count) {
                let result = parsed(bytes, pieceSize: size)
                #expect(result == referenceParse(bytes))
                if fits {
                    #expect(result == .request(HTTPRequest(method: .get, target: String(requestLine(length: length).dropFirst(4).dropLast(9)), headers: ["Host": "a"]), headEnd: bytes.count))
                } else {
                    #expect(result == .failure(.requestLineTooLong), "piece size \(size)")
                }
            }
        }
    }
}

@Test("a head of exactly 8 KiB is read, one byte more is 431, with either terminator")
func headLimit() {
    let limit = HTTPRequestParser.maxHeadBytes
    #expect(limit == 8192)
    for terminator in ["\r\n", "\n"] {
        let fits = Array(head(length: limit, terminator: terminator).utf8)
        let over = Array(head(length: limit + 1, terminator: terminator).utf8)
        #expect(fits.count == limit && over.count == limit + 1)
        for size in Chunking.sizes(for: over.count) {
            #expect(parsed(fits, pieceSize: size) == referenceParse(fits))
            guard case .request = parsed(fits, pieceSize: size) else {
                Issue.record("a head of \(limit) bytes was refused at piece size \(size)")
                continue
            }
            #expect(parsed(over, pieceSize: size) == .failure(.headTooLarge), "piece size \(size)")
        }
    }
}

@Test("a head that never ends is refused at the limit, holding no more than the limit")
func endlessHeadIsRefusedEarly() {
    var parser = HTTPRequestParser()
    let start = Array("GET / HTTP/1.1\r\nHost: a\r\nX: ".utf8)
    #expect(parser.parse(start) == .needMoreBytes)
    var outcome = HTTPRequestParser.Outcome.needMoreBytes
    var sent = start.count
    while outcome == .needMoreBytes && sent < 1_000_000 {
        outcome = parser.parse([UInt8](repeating: UInt8(ascii: "x"), count: 1000))
        sent += 1000
    }
    #expect(outcome == .failure(.headTooLarge))
    // Refused in the very piece that crossed the limit.
    #expect(sent > HTTPRequestParser.maxHeadBytes && sent - 1000 <= HTTPRequestParser.maxHeadBytes)
    #expect(parser.parse(Array("\r\n\r\n".utf8)) == .failure(.headTooLarge))
}

@Test("the bytes after the head are left to the caller, and a finished parser reads no more")
func bytesAfterTheHead() {
    var parser = HTTPRequestParser()
    let chunk = Array("GET /ws HTTP/1.1\r\nHost: a\r\n\r\n\u{81}\u{80}abcd".utf8)
    guard case .request(let request, let consumed) = parser.parse(chunk) else {
        Issue.record("expected a request")
        return
    }
    #expect(request.path == "/ws")
    #expect(Array(chunk[consumed...]) == Array("\u{81}\u{80}abcd".utf8))
    #expect(parser.parse(Array("more".utf8)) == .request(request, bytesConsumed: 0))
}
