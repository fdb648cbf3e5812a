@testable import PairsWeb
import PairsRules
import PairsTestSupport
import Testing

/// The RFC's sample nonce, "the sample nonce" in ASCII, so the expected accept value is the RFC's.
private let sampleNonce = Array("the sample nonce".utf8)

@Test("the client's handshake request is one the server accepts, and the server's 101 accepts it back, read in every piece size")
func clientHandshakeRoundTrip() throws {
    let handshake = WebSocketClientHandshake(nonce: sampleNonce)
    #expect(handshake.key == WebSocketTestClient.sampleKey)
    var parser = HTTPRequestParser()
    guard case .request(let request, _) = parser.parse(handshake.request(host: "192.168.1.20:7777")) else {
        Issue.record("the client's request does not parse")
        return
    }
    #expect(request.path == "/ws")
    #expect(request.headers["Host"] == "192.168.1.20:7777")
    let response = try WebSocketHandshake.response(to: request).encoded()
    // The server's first frame may come in the same read as its 101.
    let stream = response + WebSocketFrameEncoder.text(Array("{}".utf8))
    for size in Chunking.sizes(for: stream.count) {
        var reader = handshake
        var frameBytes: [UInt8] = []
        var accepted = false
        for piece in Chunking.pieces(of: stream, size: size) {
            switch reader.read(piece) {
            case .needMoreBytes: #expect(!accepted, "piece size \(size)")
            case .accepted(let consumed): accepted = true; frameBytes += piece[consumed...]
            case .refused(let why): Issue.record("refused (\(why)) in pieces of \(size)")
            }
        }
        #expect(accepted && frameBytes == WebSocketFrameEncoder.text(Array("{}".utf8)), "piece size \(size)")
    }
}

@Test("a response that is not the 101 for this key is refused, saying why", arguments: [
    ("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", "HTTP 400"),
    ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: AAAAAAAAAAAAAAAAAAAAAAAAAAA=\r\n\r\n",
     "wrong Sec-WebSocket-Accept"),
    ("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n",
     "not an upgrade to websocket"),
    ("{\"type\":\"welcome\"}\r\n\r\n", "not an HTTP/1.1 response"),
])
func refusedResponses(response: String, reason: String) {
    var handshake = WebSocketClientHandshake(nonce: sampleNonce)
    #expect(handshake.read(Array(response.utf8)) == .refused(reason))
    #expect(handshake.read(Array("more".utf8)) == .refused(reason))
}

@Test("a response head of exactly the limit is read, one byte more is refused, with or without its end")
func responseHeadLimit() {
    let start = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nX-Pad: "
    func head(_ total: Int) -> [UInt8] {
        Array((start + String(repeating: "p", count: total - start.utf8.count - 4) + "\r\n\r\n").utf8)
    }
    var exact = WebSocketClientHandshake(nonce: sampleNonce)
    #expect(exact.read(head(WebSocketClientHandshake.maxResponseHeadBytes)) == .accepted(bytesConsumed: 8192))
    var over = WebSocketClientHandshake(nonce: sampleNonce)
    #expect(over.read(head(WebSocketClientHandshake.maxResponseHeadBytes + 1)) == .refused("response head over 8192 bytes"))
    // A head that never ends is refused at the byte past the limit, holding no more.
    var endless = WebSocketClientHandshake(nonce: sampleNonce)
    let noEnd = Array(head(WebSocketClientHandshake.maxResponseHeadBytes + 5).dropLast(4))
    #expect(endless.read(Array(noEnd[..<8192])) == .needMoreBytes)
    #expect(endless.read([noEnd[8192]]) == .refused("response head over 8192 bytes"))
}

@Test("a client's masked frames are the test client's with the same key, and the server's decoder reads them", arguments: [0, 1, 5, 125, 126, 4096])
func maskedFrames(length: Int) {
    let payload = (0..<length).map { UInt8(0x20 + $0 % 90) }
    let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
    var frame: [UInt8] = []
    payload.withUnsafeBytes { WebSocketFrameEncoder.appendMaskedFrame(.text, payload: $0, key: 0x37FA_213D, to: &frame) }
    #expect(frame == WebSocketTestClient.encode(.init(opcode: 1, payload: payload, mask: key)))
    #expect(decodedEvents(frame, pieceSize: 7) == [.text(payload)])
}

@Test("a client's decoder reads a server's unmasked frames in every piece size, and fails on a masked one")
func decodingAServer() {
    let stream = WebSocketFrameEncoder.text(Array(#"{"type":"welcome"}"#.utf8)) + WebSocketFrameEncoder.ping(Array("p".utf8))
        + WebSocketFrameEncoder.text([]) + WebSocketFrameEncoder.text([UInt8](repeating: 0x61, count: 300))
        + WebSocketFrameEncoder.close(code: .goingAway, reason: "shutdown")
    let expected: [Received] = [.text(#"{"type":"welcome"}"#), .ping(Array("p".utf8)), .text(""), .text([UInt8](repeating: 0x61, count: 300)),
                                .close(1001, "shutdown")]
    for size in Chunking.sizes(for: stream.count) {
        var decoder = WebSocketFrameDecoder(maxMessageBytes: messageLimit, from: .server)
        var events: [Received] = []
        for piece in Chunking.pieces(of: stream, size: size) {
            decoder.append(piece) { events.append(Received($0)) }
        }
        #expect(events == expected, "piece size \(size)")
    }
    var decoder = WebSocketFrameDecoder(maxMessageBytes: messageLimit, from: .server)
    var events: [Received] = []
    decoder.append(WebSocketTestClient.encode(.text("masked"))) { events.append(Received($0)) }
    #expect(events == [.failure(.maskedFrame)])
    #expect(WebSocketFrameError.maskedFrame.closeCode == .protocolError)
}

@Test("a client's lines become one masked text frame each, which the server's decoder reads back as the lines")
func maskedLines() {
    let lines = Array("{\"type\":\"join\"}\nflip 3\n\n{\"type\":\"ping\",\"id\":1}\n".utf8)
    var keys = SplitMix64(seed: 1)
    var frames: [UInt8] = []
    lines.withUnsafeBytes { WebSocketFrameEncoder.appendMaskedTextFrames(ofLines: $0, keys: &keys, to: &frames) }
    // The reference: each line framed alone with the keys in the same order.
    var sameKeys = SplitMix64(seed: 1)
    var expected: [UInt8] = []
    for line in lines.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
        Array(line).withUnsafeBytes { WebSocketFrameEncoder.appendMaskedFrame(.text, payload: $0, key: UInt32(truncatingIfNeeded: sameKeys.next()), to: &expected) }
    }
    #expect(frames == expected)
    for size in Chunking.sizes(for: frames.count) {
        #expect(decodedEvents(frames, pieceSize: size) == [.text("{\"type\":\"join\"}"), .text("flip 3"), .text(""), .text("{\"type\":\"ping\",\"id\":1}")],
                "piece size \(size)")
    }
}
