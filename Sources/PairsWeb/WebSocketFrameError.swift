/// Why a client's frames fail the WebSocket connection (RFC 6455 §7.1.7), each with the close code to send
/// before closing it.
public enum WebSocketFrameError: Error, Sendable, Hashable {
    /// A frame without a masking key: every frame from a client must be masked (§5.1).
    case unmaskedFrame
    /// A frame with a masking key from a server, which must never mask (§5.1).
    case maskedFrame
    /// A reserved bit (RSV1-3) is set, and no extension was negotiated that would give it a meaning (§5.2).
    case reservedBitsSet
    /// An opcode RFC 6455 leaves reserved (3-7, 11-15).
    case reservedOpcode(UInt8)
    /// A close, ping or pong frame without the FIN bit: control frames are never fragmented (§5.5).
    case fragmentedControlFrame
    /// A close, ping or pong frame longer than 125 bytes (§5.5).
    case controlFrameTooLong
    /// A length in the 16- or 64-bit form that would have fitted a shorter one, or a 64-bit length with its
    /// most significant bit set (§5.2: "the minimal number of bytes MUST be used").
    case invalidPayloadLength
    /// A continuation frame with no fragmented message to continue.
    case unexpectedContinuation
    /// A text or binary frame while a fragmented message still waits for its last fragment.
    case dataFrameInsideFragmentedMessage
    /// A binary message: the protocol is JSON text.
    case binaryMessage
    /// A message longer than the decoder's `maxMessageBytes`, refused as soon as a frame header said so.
    case messageTooLong(limit: Int)
    /// A text message that is not UTF-8, refused at the first byte that cannot be part of valid UTF-8.
    case invalidUTF8
    /// A close frame whose payload is one byte: a code needs two (§5.5.1).
    case closePayloadTooShort
    /// A close frame with a code no endpoint may send (see `WebSocketCloseCode.isValidInCloseFrame`).
    case invalidCloseCode(UInt16)
    /// A close frame whose reason is not UTF-8.
    case invalidCloseReason

    /// The code of the close frame that reports this error to the client.
    public var closeCode: WebSocketCloseCode {
        switch self {
        case .binaryMessage: .unsupportedData
        case .messageTooLong: .messageTooBig
        case .invalidUTF8: .invalidPayloadData
        // A bad close reason is a framing error rather than bad message data (Autobahn case 7.5.1 takes both).
        case .unmaskedFrame, .maskedFrame, .reservedBitsSet, .reservedOpcode, .fragmentedControlFrame, .controlFrameTooLong,
             .invalidPayloadLength, .unexpectedContinuation, .dataFrameInsideFragmentedMessage,
             .closePayloadTooShort, .invalidCloseCode, .invalidCloseReason:
            .protocolError
        }
    }
}

extension WebSocketFrameError: CustomStringConvertible {
    /// A short sentence, fit for the reason of the close frame (at most 123 bytes) and for logs.
    public var description: String {
        switch self {
        case .unmaskedFrame: "client frames must be masked"
        case .maskedFrame: "server frames must not be masked"
        case .reservedBitsSet: "reserved bits set without an extension"
        case .reservedOpcode(let opcode): "reserved opcode \(opcode)"
        case .fragmentedControlFrame: "control frames must not be fragmented"
        case .controlFrameTooLong: "control frames carry at most 125 bytes"
        case .invalidPayloadLength: "payload length not in its minimal form"
        case .unexpectedContinuation: "continuation frame without a message to continue"
        case .dataFrameInsideFragmentedMessage: "new message before the last fragment of the previous one"
        case .binaryMessage: "binary messages are not supported; send JSON text"
        case .messageTooLong(let limit): "message longer than \(limit) bytes"
        case .invalidUTF8: "text message is not valid UTF-8"
        case .closePayloadTooShort: "close frame payload of one byte"
        case .invalidCloseCode(let code): "invalid close code \(code)"
        case .invalidCloseReason: "close reason is not valid UTF-8"
        }
    }
}
