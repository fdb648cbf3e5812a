/// The client's side of a WebSocket, written plainly for tests: the handshake request, frames masked as a
/// client must mask them (or broken on purpose: unmasked, reserved bits, reserved opcodes, long lengths),
/// and a reader for the frames a server sends.
///
/// Self-contained on purpose (the standard library only, nothing from PairsWeb), so it checks the server's
/// codec rather than agreeing with it by sharing code, and so end-to-end tests can reuse it over a real
/// socket: send `handshakeRequest()`, check the response with `isAcceptingHandshake(_:)`, then write
/// `encode(_:)` frames and read replies with `ServerFrameReader`.
public enum WebSocketTestClient {
    /// The sample nonce of RFC 6455 §1.3, and the accept value the RFC gives for it: a server that answers
    /// this key with this value computed the handshake right, without the test computing SHA-1 itself.
    public static let sampleKey = "dGhlIHNhbXBsZSBub25jZQ=="
    public static let sampleAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    /// The opening handshake as a browser sends it, with `sampleKey`.
    public static func handshakeRequest(path: String = "/ws", host: String = "127.0.0.1", extraHeaders: [String] = []) -> [UInt8] {
        let lines = ["GET \(path) HTTP/1.1", "Host: \(host)", "Upgrade: websocket", "Connection: Upgrade",
                     "Sec-WebSocket-Key: \(sampleKey)", "Sec-WebSocket-Version: 13", "Origin: http://\(host)"] + extraHeaders
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// Whether `responseHead` (the bytes up to the empty line) is a 101 accepting `sampleKey`.
    public static func isAcceptingHandshake(_ responseHead: String) -> Bool {
        let lines = responseHead.split(separator: "\r\n", omittingEmptySubsequences: true)
        guard lines.first == "HTTP/1.1 101 Switching Protocols" else { return false }
        let fields = lines.dropFirst().map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (parts[0].lowercased(), parts.count > 1 ? String(parts[1].drop { $0 == " " }) : "")
        }
        return fields.contains { $0 == ("upgrade", "websocket") }
            && fields.contains { $0.0 == "connection" && $0.1.lowercased() == "upgrade" }
            && fields.contains { $0 == ("sec-websocket-accept", sampleAccept) }
    }

    /// How a frame writes its payload length.
    public enum LengthForm: Sendable, Hashable {
        /// The shortest form that fits, as RFC 6455 requires.
        case minimal
        /// The 16-bit form whatever the length (invalid below 126).
        case sixteenBit
        /// The 64-bit form whatever the length (invalid up to 65535).
        case sixtyFourBit
        /// The 64-bit form claiming `length` bytes, whatever the payload holds: for huge declared lengths
        /// without sending them.
        case declared(UInt64)
    }

    /// One frame as a client writes it, every field settable, including to values a server must refuse.
    public struct Frame: Sendable, Hashable {
        public var fin = true
        /// RSV1-3, as the three bits 0b100, 0b010, 0b001.
        public var rsv: UInt8 = 0
        /// The raw opcode, 0-15, so reserved ones can be sent.
        public var opcode: UInt8
        public var payload: [UInt8]
        /// The masking key, or nil for an unmasked frame (which a server must refuse).
        public var mask: [UInt8]? = [0x37, 0xFA, 0x21, 0x3D]
        public var lengthForm = LengthForm.minimal

        public init(fin: Bool = true, rsv: UInt8 = 0, opcode: UInt8, payload: [UInt8], mask: [UInt8]? = [0x37, 0xFA, 0x21, 0x3D],
                    lengthForm: LengthForm = .minimal) {
            self.fin = fin
            self.rsv = rsv
            self.opcode = opcode
            self.payload = payload
            self.mask = mask
            self.lengthForm = lengthForm
        }

        public static func text(_ text: String, fin: Bool = true) -> Frame {
            Frame(fin: fin, opcode: 0x1, payload: Array(text.utf8))
        }

        public static func text(bytes: [UInt8], fin: Bool = true) -> Frame {
            Frame(fin: fin, opcode: 0x1, payload: bytes)
        }

        public static func continuation(_ text: String, fin: Bool = true) -> Frame {
            Frame(fin: fin, opcode: 0x0, payload: Array(text.utf8))
        }

        public static func continuation(bytes: [UInt8], fin: Bool = true) -> Frame {
            Frame(fin: fin, opcode: 0x0, payload: bytes)
        }

        public static func binary(_ bytes: [UInt8], fin: Bool = true) -> Frame {
            Frame(fin: fin, opcode: 0x2, payload: bytes)
        }

        public static func ping(_ bytes: [UInt8] = []) -> Frame {
            Frame(opcode: 0x9, payload: bytes)
        }

        public static func pong(_ bytes: [UInt8] = []) -> Frame {
            Frame(opcode: 0xA, payload: bytes)
        }

        /// A close frame with a code and a reason, or with no payload at all when `code` is nil.
        public static func close(code: UInt16? = nil, reason: [UInt8] = []) -> Frame {
            let payload = code.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] + reason } ?? []
            return Frame(opcode: 0x8, payload: payload)
        }
    }

    /// The bytes of `frame` on the wire.
    public static func encode(_ frame: Frame) -> [UInt8] {
        var bytes: [UInt8] = [(frame.fin ? 0x80 : 0) | (frame.rsv & 0x7) << 4 | (frame.opcode & 0xF)]
        let maskBit: UInt8 = frame.mask == nil ? 0 : 0x80
        let count = UInt64(frame.payload.count)
        switch frame.lengthForm {
        case .minimal where count < 126:
            bytes.append(maskBit | UInt8(count))
        case .minimal where count <= 0xFFFF, .sixteenBit:
            bytes.append(maskBit | 126)
            bytes += [UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
        case .minimal, .sixtyFourBit:
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8(count >> (8 * UInt64($0)) & 0xFF) }
        case .declared(let length):
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8(length >> (8 * UInt64($0)) & 0xFF) }
        }
        if let mask = frame.mask {
            bytes += mask
            bytes += frame.payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        } else {
            bytes += frame.payload
        }
        return bytes
    }

    /// The bytes of several frames, one after the other.
    public static func encode(_ frames: [Frame]) -> [UInt8] {
        frames.flatMap(encode)
    }

    /// A frame as a server sent it.
    public struct ServerFrame: Sendable, Hashable, CustomStringConvertible {
        public var fin: Bool
        public var rsv: UInt8
        public var opcode: UInt8
        public var isMasked: Bool
        public var payload: [UInt8]

        public init(fin: Bool, rsv: UInt8, opcode: UInt8, isMasked: Bool, payload: [UInt8]) {
            self.fin = fin
            self.rsv = rsv
            self.opcode = opcode
            self.isMasked = isMasked
            self.payload = payload
        }

        /// The code of a close frame, if it has one.
        public var closeCode: UInt16? {
            opcode == 0x8 && payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
        }

        public var text: String {
            String(decoding: opcode == 0x8 ? Array(payload.dropFirst(2)) : payload, as: UTF8.self)
        }

        public var description: String {
            "frame(opcode \(opcode), fin \(fin), rsv \(rsv), masked \(isMasked), \(payload.count) bytes: \(text.debugDescription))"
        }
    }

    /// Reads server frames from bytes that arrive in pieces.
    public struct ServerFrameReader {
        private var buffer: [UInt8] = []

        public init() {}

        /// Adds bytes and returns every frame they complete.
        public mutating func append(_ bytes: [UInt8]) -> [ServerFrame] {
            buffer += bytes
            var frames: [ServerFrame] = []
            while let (frame, length) = Self.frame(at: buffer) {
                frames.append(frame)
                buffer.removeFirst(length)
            }
            return frames
        }

        /// Bytes received that do not make a whole frame yet.
        public var pendingByteCount: Int {
            buffer.count
        }

        private static func frame(at bytes: [UInt8]) -> (ServerFrame, Int)? {
            guard bytes.count >= 2 else { return nil }
            let isMasked = bytes[1] & 0x80 != 0
            var length = UInt64(bytes[1] & 0x7F)
            var offset = 2
            let extendedBytes = length == 126 ? 2 : length == 127 ? 8 : 0
            if extendedBytes > 0 {
                guard bytes.count >= offset + extendedBytes else { return nil }
                length = bytes[offset..<(offset + extendedBytes)].reduce(0) { $0 << 8 | UInt64($1) }
                offset += extendedBytes
            }
            let maskBytes = isMasked ? 4 : 0
            guard UInt64(bytes.count) >= UInt64(offset + maskBytes) + length else { return nil }
            let mask = Array(bytes[offset..<(offset + maskBytes)])
            offset += maskBytes
            let payload = bytes[offset..<(offset + Int(length))].enumerated().map { isMasked ? $0.element ^ mask[$0.offset % 4] : $0.element }
            let frame = ServerFrame(fin: bytes[0] & 0x80 != 0, rsv: bytes[0] >> 4 & 0x7, opcode: bytes[0] & 0xF,
                                    isMasked: isMasked, payload: payload)
            return (frame, offset + Int(length))
        }
    }
}
