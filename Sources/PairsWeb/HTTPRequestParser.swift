/// Reads one HTTP/1 request head (request line and header fields) from the bytes of a connection, in
/// whatever pieces they arrive.
///
/// Built for a server that answers a handful of `GET`s and then closes or upgrades the connection:
/// - Memory is bounded: at most `maxHeadBytes` are held, whatever the client sends, and a limit is reported
///   as soon as it is crossed, before the rest of the line arrives.
/// - Lines end in CRLF or a bare LF (RFC 9112 §2.2 lets a server accept both); a bare CR anywhere else is
///   malformed.
/// - No bodies: a request announcing one is refused (`HTTPRequestError.bodyNotAccepted`).
/// - The bytes after the head are not the parser's: `bytesConsumed` says where they start in the last chunk,
///   so a WebSocket client's first frames can go to the frame decoder.
///
/// ```swift
/// switch parser.parse(chunk) {
/// case .needMoreBytes: break
/// case .request(let request, let consumed): route(request, leftover: chunk[consumed...])
/// case .failure(let error): send(HTTPResponse.error(error)); close()
/// }
/// ```
public struct HTTPRequestParser: Sendable {
    /// The longest request line, in bytes, without its terminator.
    ///
    /// The longest this server's page asks for is a room and a name in the query (a 32-byte room and a
    /// 24-character name, percent-encoded, fit in under 400 bytes); 2 KiB leaves room for anything a browser
    /// adds and bounds how long the connection sniffer waits before deciding.
    public static let maxRequestLineBytes = 2048

    /// The longest request head, in bytes: the request line and every header line with their terminators,
    /// up to and including the empty line.
    ///
    /// 8 KiB, the usual default of HTTP servers (nginx, Apache httpd): browsers send well under 2 KiB to a
    /// server that sets no cookies, and it is the most a connection can make the server hold before answering.
    public static let maxHeadBytes = 8192

    /// What the bytes read so far amount to.
    public enum Outcome: Sendable, Hashable {
        /// The head is not complete yet.
        case needMoreBytes
        /// The head is complete. It ended `bytesConsumed` bytes into the last chunk; the rest of the chunk is
        /// whatever the client sent after it.
        case request(HTTPRequest, bytesConsumed: Int)
        /// The request is refused; answer with `HTTPResponse.error(_:)` and close the connection.
        case failure(HTTPRequestError)
    }

    /// Where the parser is in the head.
    private enum State: Sendable {
        /// Reading the request line.
        case requestLine
        /// Reading header lines after a valid request line.
        case headerFields(method: HTTPMethod, target: String, version: HTTPVersion, headers: HTTPHeaders)
        /// The head is complete or refused; further bytes are not read.
        case finished(Outcome)
    }

    private var state = State.requestLine

    /// The start of a line whose end has not arrived, without storage between lines.
    private var partialLine: [UInt8] = []

    /// The bytes of the head in complete lines so far, terminators included.
    private var headByteCount = 0

    public init() {}

    /// Reads the next bytes of the connection.
    ///
    /// Once it has returned `.request` or `.failure`, it returns the same again (with `bytesConsumed` 0) and
    /// reads nothing more.
    public mutating func parse(_ chunk: UnsafeRawBufferPointer) -> Outcome {
        if case .finished(let outcome) = state {
            if case .request(let request, _) = outcome { return .request(request, bytesConsumed: 0) }
            return outcome
        }
        var start = 0
        while start < chunk.count {
            let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n"))
            let segment = UnsafeRawBufferPointer(rebasing: chunk[start..<(newline ?? chunk.count)])
            if let error = limitExceeded(adding: segment, isLineComplete: newline != nil) {
                return finish(.failure(error))
            }
            partialLine.append(contentsOf: segment)
            guard let newline else { return .needMoreBytes }
            start = newline + 1
            headByteCount += partialLine.count + 1
            if partialLine.last == UInt8(ascii: "\r") {
                partialLine.removeLast()
            }
            let outcome = completeLine(endingAt: start)
            // Released rather than kept: the head is read once, and an idle connection should cost nothing.
            partialLine = []
            if outcome != .needMoreBytes {
                return finish(outcome)
            }
        }
        return .needMoreBytes
    }

    /// Reads the next bytes of the connection; see `parse(_:)`.
    public mutating func parse(_ chunk: [UInt8]) -> Outcome {
        chunk.withUnsafeBytes { parse($0) }
    }

    // MARK: - Private

    private mutating func finish(_ outcome: Outcome) -> Outcome {
        state = .finished(outcome)
        partialLine = []
        return outcome
    }

    /// The limit that adding `segment` to the current line would cross, if any.
    private func limitExceeded(adding segment: UnsafeRawBufferPointer, isLineComplete: Bool) -> HTTPRequestError? {
        let lineBytes = partialLine.count + segment.count
        if case .requestLine = state {
            // An unfinished line may end in a CR that will turn out to be half of its terminator.
            let endsInCarriageReturn = (segment.last ?? partialLine.last) == UInt8(ascii: "\r")
            let contentBytes = isLineComplete && endsInCarriageReturn ? lineBytes - 1 : lineBytes
            let allowance = isLineComplete ? 0 : 1
            if contentBytes > Self.maxRequestLineBytes + allowance { return .requestLineTooLong }
        }
        let headBytes = headByteCount + lineBytes + (isLineComplete ? 1 : 0)
        return headBytes > Self.maxHeadBytes ? .headTooLarge : nil
    }

    /// Handles the line in `partialLine`, without its terminator, which ended `end` bytes into the chunk.
    private mutating func completeLine(endingAt end: Int) -> Outcome {
        switch state {
        case .requestLine:
            return readRequestLine()
        case .headerFields(let method, let target, let version, var headers):
            if partialLine.isEmpty {
                return finishHead(HTTPRequest(method: method, target: target, version: version, headers: headers), endingAt: end)
            }
            guard let field = Self.headerField(partialLine) else { return .failure(.malformedHeaderField) }
            headers.append(name: field.name, value: field.value)
            state = .headerFields(method: method, target: target, version: version, headers: headers)
            return .needMoreBytes
        case .finished(let outcome):
            return outcome
        }
    }

    private mutating func readRequestLine() -> Outcome {
        partialLine.append(UInt8(ascii: "\n"))
        let scan = partialLine.withUnsafeBytes { RequestLine.scan($0) }
        guard case .complete(let line, _) = scan else { return .failure(.malformedRequestLine) }
        guard let method = HTTPMethod(rawValue: line.method) else { return .failure(.methodNotAllowed(line.method)) }
        state = .headerFields(method: method, target: line.target, version: line.version, headers: [:])
        return .needMoreBytes
    }

    /// The request, once the head's empty line has arrived, or why the head as a whole is refused.
    private func finishHead(_ request: HTTPRequest, endingAt end: Int) -> Outcome {
        let headers = request.headers
        if request.version == .http1_1 && headers["Host"] == nil {
            return .failure(.invalidHost)
        }
        if !headers.values(named: "Transfer-Encoding").isEmpty {
            return .failure(.bodyNotAccepted)
        }
        let lengths = headers.values(named: "Content-Length")
        guard lengths.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(Self.isDigit) }) else {
            return .failure(.invalidContentLength)
        }
        // Compared without leading zeros, so no length can overflow an integer on its way to being refused.
        let significant = Set(lengths.map { $0.drop { $0 == "0" } })
        guard significant.count <= 1 else { return .failure(.invalidContentLength) }
        guard significant.first?.isEmpty ?? true else { return .failure(.bodyNotAccepted) }
        return .request(request, bytesConsumed: end)
    }

    /// The field on a header line, or nil if the line is not `name: value` (RFC 9112 §5). Responses' fields
    /// are read with it too (`WebSocketClientHandshake`).
    static func headerField(_ line: [UInt8]) -> HTTPHeaders.Field? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = line[..<colon]
        // A line starting with whitespace would be obsolete line folding, and whitespace before the colon is
        // what request smuggling relies on; neither is a token.
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { return nil }
        let value = line[(colon + 1)...].trimmingOptionalWhitespace()
        guard value.allSatisfy(isFieldValueByte) else { return nil }
        return HTTPHeaders.Field(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }

    /// `tchar` (RFC 9110 §5.6.2): the bytes of a field name or method.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// The bytes a field value may hold (RFC 9110 §5.5): visible ASCII, space, tab and obs-text; no other
    /// control characters, so no bare CR and no NUL.
    private static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\t") || (0x20...0x7E).contains(byte) || byte >= 0x80
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
