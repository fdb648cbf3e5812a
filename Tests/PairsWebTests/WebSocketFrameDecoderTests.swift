@testable import PairsWeb
import PairsRules
import PairsTestSupport
import Testing

private typealias Frame = WebSocketTestClient.Frame

/// A random frame: mostly valid traffic (text whole and in fragments, pings, pongs), sometimes one of the
/// things a server must refuse, with random masks and payloads that mix ASCII, multi-byte UTF-8 and, rarely,
/// bad bytes. `isFragmented` follows the frames made so far, so most continuations have a message to continue.
private func randomFrame(isFragmented: inout Bool, using random: inout SplitMix64) -> Frame {
    let alphabet: [[UInt8]] = [[0x61], [0x7B], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xC3], [0xFF]]
    let weights = [300, 30, 30, 30, 30, 1, 1]
    func payload(maxPieces: Int) -> [UInt8] {
        (0..<random.next(below: maxPieces + 1)).flatMap { _ -> [UInt8] in
            var pick = random.next(below: weights.reduce(0, +))
            for (index, weight) in weights.enumerated() {
                if pick < weight { return alphabet[index] }
                pick -= weight
            }
            return []
        }
    }
    var frame: Frame
    switch random.next(below: 100) {
    case 0..<60:
        let fin = random.next(below: 3) != 0
        frame = Frame(fin: fin, opcode: isFragmented ? 0 : 1, payload: payload(maxPieces: 30))
        isFragmented = !fin
    case 60..<75: frame = .ping(payload(maxPieces: 30))
    case 75..<88: frame = .pong(payload(maxPieces: 30))
    case 88..<90: frame = .close(code: [1000, 1001, 4000, 1005, 2][random.next(below: 5)], reason: payload(maxPieces: 5))
    case 90..<92: frame = Frame(fin: random.next(below: 2) == 0, opcode: isFragmented ? 1 : 0, payload: payload(maxPieces: 5))
    case 92..<94: frame = Frame(opcode: UInt8(random.next(below: 16)), payload: payload(maxPieces: 5))
    case 94..<96: frame = Frame(rsv: UInt8(random.next(below: 8)), opcode: 1, payload: payload(maxPieces: 5))
    case 96..<98: frame = Frame(opcode: 1, payload: payload(maxPieces: 5), lengthForm: [.sixteenBit, .sixtyFourBit][random.next(below: 2)])
    default: frame = Frame(opcode: 1, payload: payload(maxPieces: 5), mask: nil)
    }
    if frame.mask != nil { frame.mask = (0..<4).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
    return frame
}

@Test("random frame streams cut at random places decode as the reference works them out frame by frame")
func randomStreamsMatchTheReference() {
    var random = SplitMix64(seed: 6455)
    var failures = 0
    var texts = 0
    for _ in 0..<400 {
        var isFragmented = false
        let frames = (0..<(1 + random.next(below: 12))).map { _ in randomFrame(isFragmented: &isFragmented, using: &random) }
        let limit = [16, 64, 200, messageLimit][random.next(below: 4)]
        let expected = referenceEvents(frames, limit: limit)
        let stream = WebSocketTestClient.encode(frames)
        var decoder = WebSocketFrameDecoder(maxMessageBytes: limit)
        var events: [Received] = []
        for piece in Chunking.randomPieces(of: stream, maxSize: 40, using: &random) {
            decoder.append(piece) { events.append(Received($0)) }
        }
        #expect(events == expected)
        failures += expected.contains { if case .failure = $0 { true } else { false } } ? 1 : 0
        texts += expected.filter { if case .text = $0 { true } else { false } }.count
    }
    // The mix exercised both sides: many messages got through and many streams failed.
    #expect(failures > 50 && texts > 100)
}

@Test("text messages round-trip through the test client's masking, whatever the key and length")
func maskedRoundTrip() {
    var random = SplitMix64(seed: 13)
    for length in [0, 1, 2, 3, 4, 5, 124, 125, 126, 127, 1000, 4095, 4096] {
        let text = String((0..<length).map { _ in "aé€😀{}\"".randomElement(using: &random)! }).utf8.prefix(length)
        let payload = Array(text)
        guard isValidUTF8(payload) else { continue }
        let mask = (0..<4).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        var frame = Frame.text(bytes: payload)
        frame.mask = mask
        let stream = WebSocketTestClient.encode(frame)
        #expect(decodedEvents(stream, pieceSize: stream.count) == [.text(payload)], "length \(length)")
        #expect(decodedEvents(stream, pieceSize: 3) == [.text(payload)], "length \(length)")
    }
}

@Test("one byte over each limit fails: message 4096, control payload 125, close reason 123")
func oneByteOverEachLimit() {
    let cases: [(fits: Frame, over: Frame, error: WebSocketFrameError)] = [
        (.text(bytes: [UInt8](repeating: 0x61, count: messageLimit)), .text(bytes: [UInt8](repeating: 0x61, count: messageLimit + 1)),
         .messageTooLong(limit: messageLimit)),
        (.ping([UInt8](repeating: 1, count: 125)), .ping([UInt8](repeating: 1, count: 126)), .controlFrameTooLong),
        (.pong([UInt8](repeating: 1, count: 125)), .pong([UInt8](repeating: 1, count: 126)), .controlFrameTooLong),
        (.close(code: 1000, reason: [UInt8](repeating: 0x61, count: 123)), .close(code: 1000, reason: [UInt8](repeating: 0x61, count: 124)),
         .controlFrameTooLong),
    ]
    for (fits, over, error) in cases {
        let accepted = decodedEvents(WebSocketTestClient.encode(fits), pieceSize: 1000)
        #expect(accepted.count == 1)
        #expect(!accepted.contains(.failure(error)))
        #expect(decodedEvents(WebSocketTestClient.encode(over), pieceSize: 1000) == [.failure(error)])
    }
}

@Test("a message over the limit is refused from its header alone, before any payload is held")
func limitDecidedByTheHeader() {
    var decoder = WebSocketFrameDecoder(maxMessageBytes: messageLimit)
    var events: [Received] = []
    // FIN + text, masked, 16-bit length 4097: the header alone, no key and no payload.
    decoder.append([0x81, 0xFE, 0x10, 0x01]) { events.append(Received($0)) }
    #expect(events == [.failure(.messageTooLong(limit: messageLimit))])
    #expect(decoder.bufferedByteCount == 0)
    #expect(decoder.isFinished)
    // A fragmented message is refused at the header of the fragment that would cross the limit.
    var fragmented = WebSocketFrameDecoder(maxMessageBytes: 10)
    events = []
    fragmented.append(WebSocketTestClient.encode(.text("12345678", fin: false))) { events.append(Received($0)) }
    #expect(events.isEmpty && fragmented.bufferedByteCount == 8)
    fragmented.append([0x80, 0x83]) { events.append(Received($0)) }
    #expect(events == [.failure(.messageTooLong(limit: 10))])
    #expect(fragmented.bufferedByteCount == 0)
}

@Test("invalid UTF-8 fails at the bad byte, before the rest of the frame arrives")
func failsFastInsideAFrame() {
    var frame = Frame.text(bytes: [0xCE, 0xBA, 0xED, 0xA0, 0x80] + [UInt8](repeating: 0x61, count: 100))
    frame.mask = [1, 2, 3, 4]
    let stream = WebSocketTestClient.encode(frame)
    // Two header bytes, four of the key, and the payload up to and including the A0 that ED cannot take.
    let throughBadByte = Array(stream[..<(2 + 4 + 4)])
    var decoder = WebSocketFrameDecoder(maxMessageBytes: messageLimit)
    var events: [Received] = []
    decoder.append(Array(throughBadByte.dropLast())) { events.append(Received($0)) }
    #expect(events.isEmpty)
    decoder.append([throughBadByte.last!]) { events.append(Received($0)) }
    #expect(events == [.failure(.invalidUTF8)])
}

@Test("after a close or a failure nothing more is read, and no buffer is kept")
func finishedDecoderReadsNothing() {
    for first in [Frame.close(code: 1001, reason: Array("bye".utf8)), Frame(opcode: 3, payload: [])] {
        var decoder = WebSocketFrameDecoder(maxMessageBytes: messageLimit)
        var events: [Received] = []
        decoder.append(WebSocketTestClient.encode([.text("one", fin: false), first])) { events.append(Received($0)) }
        #expect(decoder.isFinished)
        #expect(decoder.bufferedByteCount == 0)
        let count = events.count
        decoder.append(WebSocketTestClient.encode([.continuation("two"), .ping(), .text("three")])) { events.append(Received($0)) }
        #expect(events.count == count)
    }
}

@Test("an idle decoder holds nothing between messages, and a message is handed over once, whole")
func buffersAreReleasedBetweenMessages() {
    var decoder = WebSocketFrameDecoder(maxMessageBytes: messageLimit)
    #expect(decoder.bufferedByteCount == 0 && !decoder.isFinished)
    var events: [Received] = []
    decoder.append(WebSocketTestClient.encode([.text(#"{"type":"flip","card":3}"#), .ping(Array("p".utf8))])) { events.append(Received($0)) }
    #expect(events == [.text(#"{"type":"flip","card":3}"#), .ping(Array("p".utf8))])
    #expect(decoder.bufferedByteCount == 0)
}
