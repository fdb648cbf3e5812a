@testable import PairsWeb
import PairsTestSupport
import Testing

private func read(_ bytes: [UInt8]) -> [WebSocketTestClient.ServerFrame] {
    var reader = WebSocketTestClient.ServerFrameReader()
    let frames = reader.append(bytes)
    #expect(reader.pendingByteCount == 0)
    return frames
}

@Test("text frames of every length form read back unmasked, final, with no reserved bits", arguments: [0, 1, 125, 126, 127, 65535, 65536, 70000])
func textFramesRoundTrip(length: Int) {
    let payload = (0..<length).map { UInt8(0x20 + $0 % 90) }
    let encoded = WebSocketFrameEncoder.text(payload)
    let headerLength = length < 126 ? 2 : length <= 0xFFFF ? 4 : 10
    #expect(encoded.count == headerLength + length)
    #expect(read(encoded) == [.init(fin: true, rsv: 0, opcode: 1, isMasked: false, payload: payload)])
}

@Test("a header written apart and followed by its payload is the same frame")
func headerThenPayload() {
    let payload = Array(#"{"type":"state"}"#.utf8)
    var buffer: [UInt8] = []
    WebSocketFrameEncoder.appendHeader(opcode: .text, payloadLength: payload.count, to: &buffer)
    #expect(buffer + payload == WebSocketFrameEncoder.text(payload))
}

@Test("the server's frames arrive whole at a client reading them in every piece size")
func serverFramesInPieces() {
    let stream = WebSocketFrameEncoder.text(Array("hello".utf8)) + WebSocketFrameEncoder.ping(Array("p".utf8))
        + WebSocketFrameEncoder.pong([]) + WebSocketFrameEncoder.close(code: .goingAway, reason: "shutdown")
    let whole = read(stream)
    #expect(whole.map(\.opcode) == [1, 9, 10, 8])
    for size in Chunking.sizes(for: stream.count) {
        var reader = WebSocketTestClient.ServerFrameReader()
        let frames = Chunking.pieces(of: stream, size: size).flatMap { reader.append($0) }
        #expect(frames == whole)
    }
}

@Test("close frames carry their code and a reason cut at a character boundary to 123 bytes")
func closeFrames() {
    let plain = read(WebSocketFrameEncoder.close(code: .messageTooBig, reason: "message longer than 4096 bytes"))
    #expect(plain.first?.closeCode == 1009)
    #expect(plain.first?.text == "message longer than 4096 bytes")
    let long = read(WebSocketFrameEncoder.close(code: .normalClosure, reason: String(repeating: "é", count: 100)))
    #expect(long.first?.payload.count == 2 + 122)
    #expect(long.first?.text == String(repeating: "é", count: 61))
    // What the server sends, its own decoder would take: the frames are valid the other way round too.
    for error in [WebSocketFrameError.invalidUTF8, .messageTooLong(limit: 4096), .reservedOpcode(3), .binaryMessage] {
        let frame = read(WebSocketFrameEncoder.close(code: error.closeCode, reason: "\(error)"))[0]
        #expect(frame.closeCode == error.closeCode.rawValue)
        #expect(frame.text == "\(error)")
        #expect(frame.payload.count <= 125)
        #expect(error.closeCode.isValidInCloseFrame)
    }
}

@Test("pings and pongs carry their payload back")
func pingsAndPongs() {
    let payload = [UInt8](repeating: 7, count: 125)
    #expect(read(WebSocketFrameEncoder.pong(payload)) == [.init(fin: true, rsv: 0, opcode: 10, isMasked: false, payload: payload)])
    #expect(read(WebSocketFrameEncoder.ping()) == [.init(fin: true, rsv: 0, opcode: 9, isMasked: false, payload: [])])
}

@Test("the lobby's lines become one text frame each, without their newlines, as the simple split says", arguments: [
    "", "\n", "{\"type\":\"pong\"}\n", "{\"a\":1}\n{\"b\":2}\n", "{\"a\":1}\n\n{\"c\":3}\n", "no newline at the end",
    String(repeating: "x", count: 4096) + "\n" + String(repeating: "y", count: 125) + "\n" + String(repeating: "z", count: 126) + "\n",
])
func linesBecomeTextFrames(text: String) {
    let lines = Array(text.utf8)
    // The reference: split at every newline, the empty piece after a final newline being no line.
    var expected = lines.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    if lines.last == UInt8(ascii: "\n") || lines.isEmpty { expected.removeLast() }
    let frames = read(WebSocketFrameEncoder.textFrames(ofLines: lines))
    #expect(frames.map(\.payload) == expected)
    #expect(frames.allSatisfy { $0.opcode == 1 && $0.fin && !$0.isMasked && $0.rsv == 0 })
    #expect(WebSocketFrameEncoder.textFrames(ofLines: lines) == expected.flatMap { WebSocketFrameEncoder.text($0) })
}
