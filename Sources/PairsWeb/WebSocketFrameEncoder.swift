/// Writes the frames a server sends (RFC 6455 §5.2): unmasked, unfragmented, no reserved bits.
public enum WebSocketFrameEncoder {
    /// The most payload a control frame (close, ping, pong) may carry, in bytes (§5.5): a control frame must
    /// fit in the shortest header form.
    public static let maxControlPayloadBytes = 125

    /// The most bytes of reason a close frame can carry: its payload less the two bytes of the code.
    public static let maxCloseReasonBytes = maxControlPayloadBytes - 2

    /// Appends the header of a final, unmasked frame of `payloadLength` bytes, to be followed by the payload:
    /// for writing a payload that is already in the caller's buffer without copying it into a frame first.
    public static func appendHeader(opcode: WebSocketOpcode, payloadLength: Int, to buffer: inout [UInt8]) {
        precondition(payloadLength >= 0, "a payload length cannot be negative")
        buffer.append(0x80 | opcode.rawValue)
        switch payloadLength {
        case 0...125:
            buffer.append(UInt8(payloadLength))
        case 126...0xFFFF:
            buffer.append(126)
            buffer.append(UInt8(truncatingIfNeeded: payloadLength >> 8))
            buffer.append(UInt8(truncatingIfNeeded: payloadLength))
        default:
            buffer.append(127)
            for shift in stride(from: 56, through: 0, by: -8) {
                buffer.append(UInt8(truncatingIfNeeded: UInt64(payloadLength) >> UInt64(shift)))
            }
        }
    }

    /// Appends a final frame as a client sends it (§5.3): the mask bit set, `key` after the length, and the
    /// payload masked with it. For `pairs load`, which plays over WebSockets as the page does; a server never
    /// masks.
    public static func appendMaskedFrame(_ opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer, key: UInt32, to buffer: inout [UInt8]) {
        let lengthByte = buffer.count + 1
        appendHeader(opcode: opcode, payloadLength: payload.count, to: &buffer)
        buffer[lengthByte] |= 0x80
        for shift: UInt32 in [24, 16, 8, 0] {
            buffer.append(UInt8(truncatingIfNeeded: key >> shift))
        }
        // Payload byte i is masked with key byte i mod 4, counted from the top, as the decoder unmasks it.
        for (index, byte) in payload.enumerated() {
            buffer.append(byte ^ UInt8(truncatingIfNeeded: key >> UInt32(24 - 8 * (index & 3))))
        }
    }

    /// A whole frame of `opcode` carrying `payload`.
    public static func frame(_ opcode: WebSocketOpcode, payload: some Collection<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(10 + payload.count)
        appendHeader(opcode: opcode, payloadLength: payload.count, to: &bytes)
        bytes.append(contentsOf: payload)
        return bytes
    }

    /// A text message in one frame: one JSON message of protocol.md, without its line's newline.
    public static func text(_ payload: some Collection<UInt8>) -> [UInt8] {
        frame(.text, payload: payload)
    }

    /// One text frame per line of `lines`, each frame the line without its `\n`: how the server sends the line
    /// protocol's messages over a WebSocket, one message per frame. Bytes after the last newline, if any, are
    /// a line too.
    public static func textFrames(ofLines lines: [UInt8]) -> [UInt8] {
        var frames: [UInt8] = []
        // A header is at most 4 bytes for a message of the line protocol's length; the lobby sends a line or
        // a few at a time.
        frames.reserveCapacity(lines.count + 16)
        lines.withUnsafeBytes { bytes in
            forEachLine(in: bytes) { line in
                appendHeader(opcode: .text, payloadLength: line.count, to: &frames)
                frames.append(contentsOf: line)
            }
        }
        return frames
    }

    /// Appends one text frame per line of `lines`, as `textFrames(ofLines:)` does, but as a client sends
    /// them: each masked with the next key from `keys`.
    public static func appendMaskedTextFrames(ofLines lines: UnsafeRawBufferPointer, keys: inout some RandomNumberGenerator,
                                              to buffer: inout [UInt8]) {
        forEachLine(in: lines) { line in
            appendMaskedFrame(.text, payload: line, key: UInt32(truncatingIfNeeded: keys.next()), to: &buffer)
        }
    }

    /// Calls `body` with each line of `lines` without its `\n`, the bytes after the last newline included.
    private static func forEachLine(in lines: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        var start = 0
        while start < lines.count {
            let end = lines[start...].firstIndex(of: UInt8(ascii: "\n")) ?? lines.count
            body(UnsafeRawBufferPointer(rebasing: lines[start..<end]))
            start = end + 1
        }
    }

    /// A ping carrying `payload`, at most `maxControlPayloadBytes`.
    public static func ping(_ payload: some Collection<UInt8> = []) -> [UInt8] {
        precondition(payload.count <= maxControlPayloadBytes, "a ping carries at most 125 bytes")
        return frame(.ping, payload: payload)
    }

    /// The answer to a ping: its payload, which the decoder guarantees is at most 125 bytes.
    public static func pong(_ payload: some Collection<UInt8>) -> [UInt8] {
        precondition(payload.count <= maxControlPayloadBytes, "a pong carries at most 125 bytes")
        return frame(.pong, payload: payload)
    }

    /// A close frame with `code` and `reason`, the reason cut at a character boundary to
    /// `maxCloseReasonBytes` if it is longer.
    public static func close(code: WebSocketCloseCode, reason: String = "") -> [UInt8] {
        var payload = [UInt8(truncatingIfNeeded: code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)]
        var reasonBytes = 0
        for character in reason {
            let utf8 = character.utf8
            guard reasonBytes + utf8.count <= maxCloseReasonBytes else { break }
            payload.append(contentsOf: utf8)
            reasonBytes += utf8.count
        }
        return frame(.close, payload: payload)
    }
}
