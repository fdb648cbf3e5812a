/// The frame types of RFC 6455 §5.2. The other eight values are reserved; a frame using one fails the
/// connection (`WebSocketFrameError.reservedOpcode`).
public enum WebSocketOpcode: UInt8, Sendable, Hashable {
    /// The next fragment of the message in progress.
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Close, ping and pong: frames about the connection rather than the messages. They may arrive between
    /// the fragments of a message, and are never fragmented themselves.
    public var isControl: Bool {
        rawValue & 0x8 != 0
    }
}
