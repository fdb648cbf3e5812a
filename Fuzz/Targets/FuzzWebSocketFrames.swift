import PairsWeb

// Fuzz target: a WebSocket peer's byte stream through the frame decoder, cut into chunks where the fuzzer
// says. However the stream is cut, the decoder must report the same events as when it reads the stream in
// one piece; it never holds more than a message and a control payload; every text is valid UTF-8 within the
// limit; nothing is reported after a close or a failure; and what it decoded, framed again as that peer
// frames it, decodes to the same events.

/// An event copied out of the decoder's callback (whose payloads are views valid only inside it).
private enum Decoded: Equatable {
    case text([UInt8])
    case ping([UInt8])
    case pong([UInt8])
    case close(code: UInt16?, reason: String)
    case failure(WebSocketFrameError)

    init(_ event: WebSocketFrameDecoder.Event) {
        switch event {
        case .text(let bytes): self = .text(Array(bytes))
        case .ping(let bytes): self = .ping(Array(bytes))
        case .pong(let bytes): self = .pong(Array(bytes))
        case .close(let code, let reason): self = .close(code: code?.rawValue, reason: reason)
        case .failure(let error): self = .failure(error)
        }
    }

    var endsTheStream: Bool {
        switch self {
        case .close, .failure: true
        case .text, .ping, .pong: false
        }
    }
}

/// The decoder's settings from the input's parameter byte: the top bit picks whose frames are read; small
/// limits reach the too-long paths in short inputs, and the protocol's line limit is kept in play.
private func decoder(for parameter: UInt8) -> WebSocketFrameDecoder {
    let peer: WebSocketFrameDecoder.Peer = parameter & 0x80 == 0 ? .client : .server
    let limit = parameter & 0x7F < 0x70 ? Int(parameter & 0x3F) : 4096
    return WebSocketFrameDecoder(maxMessageBytes: limit, from: peer)
}

/// Feeds `chunks` to `decoder`, checking the bound on what it holds after each one.
private func decode(_ chunks: [ArraySlice<UInt8>], with decoder: WebSocketFrameDecoder, _ described: () -> String) -> [Decoded] {
    var decoder = decoder
    var events: [Decoded] = []
    for chunk in chunks {
        chunk.withUnsafeBytes { bytes in decoder.append(bytes) { events.append(Decoded($0)) } }
        check(decoder.bufferedByteCount <= decoder.maxMessageBytes + WebSocketFrameEncoder.maxControlPayloadBytes,
              "\(described()): \(decoder.bufferedByteCount) bytes held")
    }
    check(decoder.isFinished == (events.last?.endsTheStream ?? false), "\(described()): isFinished is \(decoder.isFinished)")
    return events
}

/// `events` framed again as `peer` sends them: a client masks (with a key from the payload's length, any
/// key must do), a server does not.
private func reframed(_ events: [Decoded], as peer: WebSocketFrameDecoder.Peer) -> [UInt8] {
    var bytes: [UInt8] = []
    func append(_ opcode: WebSocketOpcode, _ payload: [UInt8]) {
        switch peer {
        case .client:
            payload.withUnsafeBytes { WebSocketFrameEncoder.appendMaskedFrame(opcode, payload: $0, key: 0x9E37_79B9 &* UInt32(payload.count + 1), to: &bytes) }
        case .server:
            bytes += WebSocketFrameEncoder.frame(opcode, payload: payload)
        }
    }
    for event in events {
        switch event {
        case .text(let payload): append(.text, payload)
        case .ping(let payload): append(.ping, payload)
        case .pong(let payload): append(.pong, payload)
        case .close(let code?, let reason): append(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8))
        case .close(nil, _): append(.close, [])
        case .failure: break
        }
    }
    return bytes
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrames(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = ChunkedInput(UnsafeBufferPointer(start: data, count: size))
    let fresh = decoder(for: input.parameter)
    let described = { "peer \(fresh.peer), limit \(fresh.maxMessageBytes), cuts \(input.cuts), stream \(shown(input.stream))" }

    let whole = decode([input.stream[...]], with: fresh, described)
    let cut = decode(input.chunks, with: fresh, described)
    check(cut == whole, "\(described()): cut, the decoder gives \(cut); whole, \(whole)")

    for (index, event) in whole.enumerated() {
        check(!event.endsTheStream || index == whole.count - 1, "\(described()): \(event) is not the last event")
        switch event {
        case .text(let payload):
            check(payload.count <= fresh.maxMessageBytes, "\(described()): a text of \(payload.count) bytes")
            check(String(validating: payload, as: UTF8.self) != nil, "\(described()): a text that is not UTF-8")
        case .ping(let payload), .pong(let payload):
            check(payload.count <= WebSocketFrameEncoder.maxControlPayloadBytes, "\(described()): a control payload of \(payload.count) bytes")
        case .close(let code, let reason):
            check(code != nil || reason.isEmpty, "\(described()): a reason without a code")
            check(reason.utf8.count <= WebSocketFrameEncoder.maxCloseReasonBytes, "\(described()): a close reason of \(reason.utf8.count) bytes")
        case .failure:
            break
        }
    }

    // What was read, framed again, reads the same (less the failure, which is the stream's, not a frame's).
    let expected = whole.filter { if case .failure = $0 { false } else { true } }
    let again = decode([reframed(expected, as: fresh.peer)[...]], with: fresh, described)
    check(again == expected, "\(described()): framed again, the events read \(again), not \(expected)")
    return 0
}
