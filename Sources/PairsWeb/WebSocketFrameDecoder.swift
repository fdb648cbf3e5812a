/// Turns the bytes a WebSocket client sends (RFC 6455 §5) into messages and control frames, in whatever
/// pieces the bytes arrive: the server side of a connection whose messages are JSON text. Reading from a
/// server instead (`Peer.server`, for `pairs load`), frames must be unmasked, and the rest is the same.
///
/// A pure state machine: no socket, no clock, no answers of its own. The caller writes what the events ask
/// for: a pong for a ping, a close frame echoing a close, and for a failure a close frame with the error's
/// `closeCode`, then closes the connection.
///
/// - Every frame must be masked; reserved bits, reserved opcodes, fragmented or long control frames and
///   broken fragmentation fail the connection with 1002, a binary message with 1003.
/// - Memory is bounded: a message longer than `maxMessageBytes` fails with 1009 as soon as a frame header
///   says so, before its payload arrives, so at most `maxMessageBytes` plus one control payload (125 bytes)
///   are ever held. An idle decoder holds no heap storage.
/// - Text is checked for UTF-8 as it arrives, across fragments, and fails with 1007 at the first bad byte.
/// - After a close frame or a failure, nothing more is read.
///
/// ```swift
/// decoder.append(chunk) { event in
///     switch event {
///     case .text(let bytes): lobby.handle(message: bytes)
///     case .ping(let payload): send(WebSocketFrameEncoder.pong(payload))
///     case .pong: break
///     case .close(let code, _): send(WebSocketFrameEncoder.close(code: code ?? .normalClosure)); close()
///     case .failure(let error): send(WebSocketFrameEncoder.close(code: error.closeCode, reason: "\(error)")); close()
///     }
/// }
/// ```
public struct WebSocketFrameDecoder: Sendable {
    /// What a frame, or a message of several, amounts to.
    ///
    /// Not `Sendable` and not to be stored: payloads are views of the decoder's buffers, valid only until
    /// the callback returns.
    public enum Event {
        /// A whole text message, unmasked, reassembled from its fragments and valid UTF-8. May be empty.
        case text(UnsafeRawBufferPointer)
        /// A ping: answer with a pong carrying the same payload (at most 125 bytes).
        case ping(UnsafeRawBufferPointer)
        /// A pong, solicited or not; nothing to answer.
        case pong(UnsafeRawBufferPointer)
        /// The client closes: answer with a close frame (echoing `code`, or 1000 when there is none) and
        /// close the connection. `code` is nil when the frame had no payload; `reason` is valid UTF-8.
        case close(code: WebSocketCloseCode?, reason: String)
        /// The client broke the protocol: send a close frame with `error.closeCode` and close the connection.
        case failure(WebSocketFrameError)
    }

    /// Whose frames a decoder reads: a client masks every frame it sends, a server none (RFC 6455 §5.1), and
    /// a frame the other way fails the connection.
    public enum Peer: Sendable, Hashable {
        /// The server's decoder, reading a client: frames must be masked.
        case client
        /// A client's decoder, reading a server: frames must not be masked.
        case server
    }

    /// The longest message taken, in bytes of payload, summed over its fragments.
    public let maxMessageBytes: Int

    /// Whose frames this decoder reads.
    public let peer: Peer

    /// The header of the frame being read, once its length is known.
    private struct FrameHeader: Sendable {
        var opcode: WebSocketOpcode
        var isFinal: Bool
        var length: Int
    }

    /// Where the decoder is in the byte stream.
    private enum State: Sendable {
        /// Before the first byte of a frame: FIN, RSV1-3 and the opcode.
        case frameStart
        /// Before the second byte: the MASK bit and the 7-bit length.
        case payloadLength(opcode: WebSocketOpcode, isFinal: Bool)
        /// Inside the 16- or 64-bit extended length; `width` is its size in bytes, `bytesLeft` how many are
        /// still to come, `length` the big-endian value so far.
        case extendedPayloadLength(opcode: WebSocketOpcode, isFinal: Bool, width: Int, bytesLeft: Int, length: UInt64)
        /// Inside the four-byte masking key, `bytesRead` of them in `key` so far.
        case maskingKey(FrameHeader, bytesRead: Int, key: UInt32)
        /// Inside the payload, `offset` bytes of it read (which also says where in the key to continue).
        case payload(FrameHeader, key: UInt32, offset: Int)
        /// A close frame arrived; nothing after it is read.
        case closed
        /// A failure was reported; nothing after it is read.
        case failed
    }

    /// Whether a fragmented message waits for its next fragment.
    private enum MessageState: Sendable {
        /// The next data frame must start a message.
        case betweenMessages
        /// The next data frame must be a continuation.
        case fragmented
    }

    /// Fragments read so far that were not the last of their message: frames that complete no event, which
    /// a server counts against its rate limit all the same (an empty one costs the sender 6 bytes).
    public private(set) var fragmentsRead = 0

    private var state = State.frameStart
    private var messageState = MessageState.betweenMessages

    /// The unmasked payload of the text message being read, across its fragments.
    private var messageBytes: [UInt8] = []

    /// The unmasked payload of the control frame being read.
    private var controlBytes: [UInt8] = []

    /// Checks the message being read, byte by byte as it is unmasked.
    private var validator = UTF8Validator()

    /// - Parameters:
    ///   - maxMessageBytes: the longest message taken; the server passes the line protocol's limit, so a
    ///     message is refused over WebSocket exactly when it would be as a line.
    ///   - peer: whose frames are read: a client's (the server's decoder, the default) or a server's.
    public init(maxMessageBytes: Int, from peer: Peer = .client) {
        precondition(maxMessageBytes >= 0, "maxMessageBytes cannot be negative")
        self.maxMessageBytes = maxMessageBytes
        self.peer = peer
    }

    /// How many payload bytes are held for messages and control frames not yet complete.
    public var bufferedByteCount: Int {
        messageBytes.count + controlBytes.count
    }

    /// Whether a close frame or a failure has ended the stream, so further bytes are ignored.
    public var isFinished: Bool {
        switch state {
        case .closed, .failed: true
        default: false
        }
    }

    /// Feeds the next bytes from the peer, calling `body` with each event they complete, in stream order.
    public mutating func append(_ chunk: UnsafeRawBufferPointer, _ body: (Event) -> Void) {
        var index = 0
        while index < chunk.count {
            switch state {
            case .closed, .failed:
                return
            case .frameStart:
                readFrameStart(chunk[index], body)
                index += 1
            case .payloadLength(let opcode, let isFinal):
                readPayloadLength(chunk[index], opcode: opcode, isFinal: isFinal, body)
                index += 1
            case .extendedPayloadLength(let opcode, let isFinal, let width, let bytesLeft, let length):
                let length = length << 8 | UInt64(chunk[index])
                index += 1
                if bytesLeft > 1 {
                    state = .extendedPayloadLength(opcode: opcode, isFinal: isFinal, width: width, bytesLeft: bytesLeft - 1, length: length)
                } else {
                    let isMinimal = width == 2 ? length >= 126 : length > 0xFFFF && length >> 63 == 0
                    guard isMinimal else { return fail(.invalidPayloadLength, body) }
                    startPayload(opcode: opcode, isFinal: isFinal, length: length, body)
                }
            case .maskingKey(let header, let bytesRead, let key):
                let key = key << 8 | UInt32(chunk[index])
                index += 1
                if bytesRead < 3 {
                    state = .maskingKey(header, bytesRead: bytesRead + 1, key: key)
                } else if header.length == 0 {
                    completeFrame(header, body)
                } else {
                    state = .payload(header, key: key, offset: 0)
                }
            case .payload(let header, let key, let offset):
                let count = min(header.length - offset, chunk.count - index)
                readPayload(UnsafeRawBufferPointer(rebasing: chunk[index..<(index + count)]), of: header, key: key, offset: offset, body)
                index += count
            }
        }
    }

    /// Feeds the next bytes from the client; see `append(_:_:)`.
    public mutating func append(_ chunk: [UInt8], _ body: (Event) -> Void) {
        chunk.withUnsafeBytes { append($0, body) }
    }

    // MARK: - Private

    /// The first byte of a frame: whether its opcode may come now.
    private mutating func readFrameStart(_ byte: UInt8, _ body: (Event) -> Void) {
        let isFinal = byte & 0x80 != 0
        guard byte & 0x70 == 0 else { return fail(.reservedBitsSet, body) }
        guard let opcode = WebSocketOpcode(rawValue: byte & 0x0F) else { return fail(.reservedOpcode(byte & 0x0F), body) }
        switch (opcode, messageState) {
        case (.close, _), (.ping, _), (.pong, _):
            guard isFinal else { return fail(.fragmentedControlFrame, body) }
        case (.continuation, .betweenMessages):
            return fail(.unexpectedContinuation, body)
        case (.text, .fragmented), (.binary, .fragmented):
            return fail(.dataFrameInsideFragmentedMessage, body)
        case (.binary, .betweenMessages):
            return fail(.binaryMessage, body)
        case (.text, .betweenMessages):
            validator = UTF8Validator()
        case (.continuation, .fragmented):
            break
        }
        state = .payloadLength(opcode: opcode, isFinal: isFinal)
    }

    /// The second byte of a frame: the mask bit and the length, or where to find the length.
    private mutating func readPayloadLength(_ byte: UInt8, opcode: WebSocketOpcode, isFinal: Bool, _ body: (Event) -> Void) {
        switch (peer, byte & 0x80 != 0) {
        case (.client, false): return fail(.unmaskedFrame, body)
        case (.server, true): return fail(.maskedFrame, body)
        case (.client, true), (.server, false): break
        }
        let length = byte & 0x7F
        guard !opcode.isControl || length <= WebSocketFrameEncoder.maxControlPayloadBytes else {
            return fail(.controlFrameTooLong, body)
        }
        switch length {
        case 126: state = .extendedPayloadLength(opcode: opcode, isFinal: isFinal, width: 2, bytesLeft: 2, length: 0)
        case 127: state = .extendedPayloadLength(opcode: opcode, isFinal: isFinal, width: 8, bytesLeft: 8, length: 0)
        default: startPayload(opcode: opcode, isFinal: isFinal, length: UInt64(length), body)
        }
    }

    /// The length is known: refuse a message that would grow too long before any of its payload is read,
    /// then read the masking key (a client's frame) or the payload (a server's, unmasked: a key of 0).
    private mutating func startPayload(opcode: WebSocketOpcode, isFinal: Bool, length: UInt64, _ body: (Event) -> Void) {
        if !opcode.isControl && UInt64(messageBytes.count) + length > UInt64(maxMessageBytes) {
            return fail(.messageTooLong(limit: maxMessageBytes), body)
        }
        // Fits in an Int: a control frame has at most 125 bytes, a data frame at most `maxMessageBytes`.
        let header = FrameHeader(opcode: opcode, isFinal: isFinal, length: Int(length))
        switch peer {
        case .client: state = .maskingKey(header, bytesRead: 0, key: 0)
        case .server where length == 0: completeFrame(header, body)
        case .server: state = .payload(header, key: 0, offset: 0)
        }
    }

    /// Unmasks the next `bytes` of the payload into its buffer, checking text as it goes.
    private mutating func readPayload(_ bytes: UnsafeRawBufferPointer, of header: FrameHeader, key: UInt32, offset: Int, _ body: (Event) -> Void) {
        if header.opcode.isControl {
            Self.appendUnmasked(bytes, key: key, offset: offset, to: &controlBytes)
        } else {
            let start = messageBytes.count
            Self.appendUnmasked(bytes, key: key, offset: offset, to: &messageBytes)
            let isValid = messageBytes.withUnsafeBytes { validator.consume(UnsafeRawBufferPointer(rebasing: $0[start...])) }
            guard isValid else { return fail(.invalidUTF8, body) }
        }
        let newOffset = offset + bytes.count
        if newOffset == header.length {
            completeFrame(header, body)
        } else {
            state = .payload(header, key: key, offset: newOffset)
        }
    }

    /// A frame's payload is complete: hand over what it completes.
    private mutating func completeFrame(_ header: FrameHeader, _ body: (Event) -> Void) {
        state = .frameStart
        switch header.opcode {
        case .text, .continuation, .binary:
            guard header.isFinal else {
                messageState = .fragmented
                fragmentsRead &+= 1
                return
            }
            guard validator.isAtBoundary else { return fail(.invalidUTF8, body) }
            messageState = .betweenMessages
            messageBytes.withUnsafeBytes { body(.text($0)) }
            // Released rather than kept: most connections are idle most of the time.
            messageBytes = []
        case .ping:
            controlBytes.withUnsafeBytes { body(.ping($0)) }
            controlBytes = []
        case .pong:
            controlBytes.withUnsafeBytes { body(.pong($0)) }
            controlBytes = []
        case .close:
            readClose(body)
        }
    }

    /// The payload of a close frame: nothing, or a valid code and a UTF-8 reason (§5.5.1).
    private mutating func readClose(_ body: (Event) -> Void) {
        if controlBytes.isEmpty {
            finishClosed()
            return body(.close(code: nil, reason: ""))
        }
        guard controlBytes.count >= 2 else { return fail(.closePayloadTooShort, body) }
        let code = WebSocketCloseCode(rawValue: UInt16(controlBytes[0]) << 8 | UInt16(controlBytes[1]))
        guard code.isValidInCloseFrame else { return fail(.invalidCloseCode(code.rawValue), body) }
        let reason = controlBytes[2...]
        var reasonValidator = UTF8Validator()
        guard reasonValidator.consume(reason), reasonValidator.isAtBoundary else { return fail(.invalidCloseReason, body) }
        let text = String(decoding: reason, as: UTF8.self)
        finishClosed()
        body(.close(code: code, reason: text))
    }

    private mutating func finishClosed() {
        state = .closed
        releaseBuffers()
    }

    private mutating func fail(_ error: WebSocketFrameError, _ body: (Event) -> Void) {
        state = .failed
        releaseBuffers()
        body(.failure(error))
    }

    private mutating func releaseBuffers() {
        messageBytes = []
        controlBytes = []
    }

    /// Appends `bytes` XORed with the masking key (§5.3), starting `offset` bytes into the payload.
    private static func appendUnmasked(_ bytes: UnsafeRawBufferPointer, key: UInt32, offset: Int, to buffer: inout [UInt8]) {
        // A server's frames are not masked, and a client's key may be 0: nothing to undo.
        guard key != 0 else { return buffer.append(contentsOf: bytes) }
        for (position, byte) in bytes.enumerated() {
            // The key is big-endian: payload byte i is masked with key byte i mod 4, counted from the top.
            let shift = UInt32(24 - 8 * ((offset + position) & 3))
            buffer.append(byte ^ UInt8(truncatingIfNeeded: key >> shift))
        }
    }
}
