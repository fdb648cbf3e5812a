@testable import PairsWeb
import PairsTestSupport
import Testing

/// The events a decoder gives for `stream` cut into pieces of `pieceSize` bytes, checking on the way that it
/// never holds more than a message and a control payload.
func decodedEvents(_ stream: [UInt8], pieceSize: Int, limit: Int = messageLimit) -> [Received] {
    var decoder = WebSocketFrameDecoder(maxMessageBytes: limit)
    var events: [Received] = []
    for piece in Chunking.pieces(of: stream, size: pieceSize) {
        decoder.append(piece) { events.append(Received($0)) }
        #expect(decoder.bufferedByteCount <= limit + WebSocketFrameEncoder.maxControlPayloadBytes)
    }
    return events
}

/// Whether `bytes` are well-formed UTF-8, by the standard library.
func isValidUTF8(_ bytes: [UInt8]) -> Bool {
    String(validating: bytes, as: UTF8.self) != nil
}

/// Whether `bytes` can be continued into well-formed UTF-8: some completion of up to three continuation
/// bytes makes them valid. Brute force, so it is obviously right: the values tried cover the second byte's
/// ranges after E0, ED, F0 and F4 and the general continuation range.
func isValidUTF8Prefix(_ bytes: [UInt8]) -> Bool {
    let candidates: [UInt8] = [0x80, 0x90, 0xA0, 0xBF]
    var completions: [[UInt8]] = [[]]
    var longest: [[UInt8]] = [[]]
    for _ in 0..<3 {
        longest = longest.flatMap { completion in candidates.map { completion + [$0] } }
        completions += longest
    }
    return completions.contains { isValidUTF8(bytes + $0) }
}

/// The events a server decoder should give for `frames` (sent whole, one after the other), worked out
/// frame by frame from RFC 6455's rules, without parsing any bytes.
///
/// Checks come in the order the decoder meets them on the wire: first byte (RSV, opcode, fragmentation),
/// second byte (mask, control length), extended length, the message limit, then the payload.
func referenceEvents(_ frames: [WebSocketTestClient.Frame], limit: Int = messageLimit) -> [Received] {
    var events: [Received] = []
    var isFragmented = false
    var message: [UInt8] = []
    let validCloseCodes = Set<UInt16>([1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014]).union(3000...4999)
    for frame in frames {
        let isControl = frame.opcode >= 8
        func failure(_ error: WebSocketFrameError) -> [Received] { events + [.failure(error)] }
        if frame.rsv != 0 { return failure(.reservedBitsSet) }
        guard [0, 1, 2, 8, 9, 10].contains(frame.opcode) else { return failure(.reservedOpcode(frame.opcode)) }
        if isControl && !frame.fin { return failure(.fragmentedControlFrame) }
        if !isControl {
            if frame.opcode == 0 && !isFragmented { return failure(.unexpectedContinuation) }
            if frame.opcode != 0 && isFragmented { return failure(.dataFrameInsideFragmentedMessage) }
            if frame.opcode == 2 { return failure(.binaryMessage) }
        }
        if frame.mask == nil { return failure(.unmaskedFrame) }
        let length: UInt64
        switch frame.lengthForm {
        case .minimal:
            length = UInt64(frame.payload.count)
            if isControl && length > 125 { return failure(.controlFrameTooLong) }
        case .sixteenBit:
            length = UInt64(frame.payload.count)
            if isControl { return failure(.controlFrameTooLong) }
            if length < 126 { return failure(.invalidPayloadLength) }
        case .sixtyFourBit, .declared:
            if case .declared(let declared) = frame.lengthForm { length = declared } else { length = UInt64(frame.payload.count) }
            if isControl { return failure(.controlFrameTooLong) }
            if length <= 0xFFFF || length >= 1 << 63 { return failure(.invalidPayloadLength) }
        }
        if !isControl && UInt64(message.count) + length > UInt64(limit) { return failure(.messageTooLong(limit: limit)) }
        // A declared length the payload does not hold leaves the decoder waiting for the rest.
        if length != UInt64(frame.payload.count) { return events }
        switch frame.opcode {
        case 0, 1:
            message += frame.payload
            guard isValidUTF8Prefix(message) else { return failure(.invalidUTF8) }
            isFragmented = !frame.fin
            if frame.fin {
                guard isValidUTF8(message) else { return failure(.invalidUTF8) }
                events.append(.text(message))
                message = []
            }
        case 9:
            events.append(.ping(frame.payload))
        case 10:
            events.append(.pong(frame.payload))
        default:
            if frame.payload.isEmpty { return events + [.close(nil, "")] }
            if frame.payload.count == 1 { return failure(.closePayloadTooShort) }
            let code = UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
            guard validCloseCodes.contains(code) else { return failure(.invalidCloseCode(code)) }
            guard let reason = String(validating: frame.payload.dropFirst(2), as: UTF8.self) else { return failure(.invalidCloseReason) }
            return events + [.close(code, reason)]
        }
    }
    return events
}
