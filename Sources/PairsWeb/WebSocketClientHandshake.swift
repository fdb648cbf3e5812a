/// The client's side of the WebSocket opening handshake (RFC 6455 §4.1): the request a browser sends, and
/// the check of the server's answer, read in whatever pieces it arrives. For `pairs load`, which plays over
/// WebSockets as the page does; `WebSocketHandshake` is the server's side.
///
/// ```swift
/// var handshake = WebSocketClientHandshake(nonce: sixteenRandomBytes)
/// send(handshake.request(host: "192.168.1.20:7777"))
/// switch handshake.read(chunk) {
/// case .needMoreBytes: break
/// case .accepted(let consumed): frames(chunk[consumed...])
/// case .refused(let why): close(why)
/// }
/// ```
public struct WebSocketClientHandshake: Sendable {
    /// The longest response head read, in bytes, up to and including its empty line: a 101 is four short
    /// lines, and a server that sends more than a request head may hold is not one to talk to.
    public static let maxResponseHeadBytes = HTTPRequestParser.maxHeadBytes

    /// The length of the nonce a key encodes, in bytes (§4.1).
    public static let nonceBytes = 16

    /// What the response read so far amounts to.
    public enum Outcome: Sendable, Hashable {
        /// The response head has not ended yet.
        case needMoreBytes
        /// A 101 that accepts this key: the connection is a WebSocket. The head ended `bytesConsumed` bytes
        /// into the last chunk; the rest of the chunk is the server's first frames.
        case accepted(bytesConsumed: Int)
        /// Anything else, with why in a few words (`HTTP 400`, `wrong Sec-WebSocket-Accept`).
        case refused(String)
    }

    /// The `Sec-WebSocket-Key` sent: the Base64 of the nonce.
    public let key: String
    /// The response head so far, without storage once it is read.
    private var head: [UInt8] = []
    /// The outcome once the head has ended or been refused; later chunks change nothing.
    private var outcome: Outcome?

    /// A handshake whose key encodes `nonce`, which must be `nonceBytes` random bytes (§4.1: "randomly
    /// selected" for each connection).
    public init(nonce: [UInt8]) {
        precondition(nonce.count == Self.nonceBytes, "a WebSocket key encodes 16 bytes")
        key = Base64.encode(nonce)
    }

    /// The request, as a browser sends it: a `GET` of `path` with the upgrade's header fields.
    public func request(host: String, path: String = "/ws") -> [UInt8] {
        let lines = ["GET \(path) HTTP/1.1", "Host: \(host)", "Upgrade: websocket", "Connection: Upgrade",
                     "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: \(WebSocketHandshake.version)"]
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// Reads the next bytes of the server's response.
    public mutating func read(_ chunk: UnsafeRawBufferPointer) -> Outcome {
        if let outcome {
            // Once the head is read, every later byte is a frame.
            if case .accepted = outcome { return .accepted(bytesConsumed: 0) }
            return outcome
        }
        let searchFrom = max(0, head.count - 3)
        head.append(contentsOf: chunk)
        let terminator = Array("\r\n\r\n".utf8)
        guard let end = head[searchFrom...].firstRange(of: terminator)?.upperBound else {
            return head.count > Self.maxResponseHeadBytes ? finish(.refused(Self.tooLong)) : .needMoreBytes
        }
        guard end <= Self.maxResponseHeadBytes else { return finish(.refused(Self.tooLong)) }
        let consumed = chunk.count - (head.count - end)
        return finish(refusal(of: head[..<(end - terminator.count)]).map(Outcome.refused) ?? .accepted(bytesConsumed: consumed))
    }

    /// Reads the next bytes of the server's response; see `read(_:)`.
    public mutating func read(_ chunk: [UInt8]) -> Outcome {
        chunk.withUnsafeBytes { read($0) }
    }

    // MARK: - Private

    private static let tooLong = "response head over \(maxResponseHeadBytes) bytes"

    private mutating func finish(_ outcome: Outcome) -> Outcome {
        head = []
        self.outcome = outcome
        return outcome
    }

    /// Why `lines`, the head without its empty line, do not accept this key, or nil when they do (§4.2.2):
    /// a 101 upgrading to `websocket` with the accept value of the key.
    private func refusal(of lines: ArraySlice<UInt8>) -> String? {
        var rows = lines.split(separator: Array("\r\n".utf8), omittingEmptySubsequences: false)
        let status = String(decoding: rows.removeFirst(), as: UTF8.self).split(separator: " ", maxSplits: 2)
        guard status.count >= 2, status[0] == "HTTP/1.1" else { return "not an HTTP/1.1 response" }
        guard status[1] == "101" else { return "HTTP \(status[1])" }
        var headers = HTTPHeaders()
        for row in rows {
            guard let field = HTTPRequestParser.headerField(Array(row)) else { return "a malformed header line" }
            headers.append(name: field.name, value: field.value)
        }
        guard headers.contains(token: "websocket", inFieldNamed: "Upgrade"),
              headers.contains(token: "upgrade", inFieldNamed: "Connection") else { return "not an upgrade to websocket" }
        guard headers["Sec-WebSocket-Accept"] == WebSocketHandshake.acceptValue(forKey: key) else {
            return "wrong Sec-WebSocket-Accept"
        }
        return nil
    }
}
