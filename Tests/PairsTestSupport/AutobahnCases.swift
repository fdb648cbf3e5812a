import PairsWeb

private typealias Frame = WebSocketTestClient.Frame

/// The line protocol's limit, which the server passes to the decoder as the largest message.
public let messageLimit = 4096

/// A decoder event with its bytes copied out, so events can be collected and compared.
public enum Received: Equatable, Sendable, CustomStringConvertible {
    case text([UInt8])
    case ping([UInt8])
    case pong([UInt8])
    case close(UInt16?, String)
    case failure(WebSocketFrameError)

    public static func text(_ string: String) -> Received {
        .text(Array(string.utf8))
    }

    public init(_ event: WebSocketFrameDecoder.Event) {
        switch event {
        case .text(let bytes): self = .text(Array(bytes))
        case .ping(let bytes): self = .ping(Array(bytes))
        case .pong(let bytes): self = .pong(Array(bytes))
        case .close(let code, let reason): self = .close(code?.rawValue, reason)
        case .failure(let error): self = .failure(error)
        }
    }

    public var description: String {
        switch self {
        case .text(let bytes) where bytes.count > 40: "text(\(bytes.count) bytes)"
        case .text(let bytes): "text(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
        case .ping(let bytes): "ping(\(bytes.count) bytes)"
        case .pong(let bytes): "pong(\(bytes.count) bytes)"
        case .close(let code, let reason): "close(\(code.map(String.init) ?? "none"), \(reason.debugDescription))"
        case .failure(let error): "failure(\(error), \(error.closeCode.rawValue))"
        }
    }
}

/// A case of the Autobahn test suite (crossbario/autobahn-testsuite) that applies to a server of text
/// messages, as the frames its fuzzing client sends and the events the server's decoder must give. Where
/// Autobahn's server echoes messages, the decoder hands them over; where Autobahn expects the connection
/// failed, the decoder reports the failure and nothing after it.
public struct AutobahnCase: Sendable, CustomStringConvertible {
    public var id: String
    public var frames: [WebSocketTestClient.Frame]
    public var expected: [Received]

    public var description: String { id }
}

private func bytes(_ count: Int, _ byte: UInt8 = UInt8(ascii: "*")) -> [UInt8] {
    [UInt8](repeating: byte, count: count)
}

private func closeReason(_ code: UInt16, _ reason: [UInt8]) -> Frame {
    .close(code: code, reason: reason)
}

/// "κόσμε", the Greek word the UTF-8 cases are built on.
private let kosme: [UInt8] = [0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5]

/// Section 1: framing of text messages (1.1) and binary messages (1.2, refused: the protocol is text).
private let framingCases: [AutobahnCase] = [0, 125, 126, 127, 128, 4096, 65535, 65536].map { length in
    let payload = bytes(length)
    return AutobahnCase(id: "1.1 text message of \(length) bytes", frames: [.text(bytes: payload)],
                        expected: length <= messageLimit ? [.text(payload)] : [.failure(.messageTooLong(limit: messageLimit))])
} + [0, 125, 65536].map { length in
    AutobahnCase(id: "1.2 binary message of \(length) bytes", frames: [.binary(bytes(length, 0xFE))], expected: [.failure(.binaryMessage)])
}

/// Section 2: pings and pongs.
private let pingCases: [AutobahnCase] = [
    AutobahnCase(id: "2.1 ping without payload", frames: [.ping()], expected: [.ping([])]),
    AutobahnCase(id: "2.2 ping with a text payload", frames: [.ping(Array("Hello, world!".utf8))], expected: [.ping(Array("Hello, world!".utf8))]),
    AutobahnCase(id: "2.3 ping with a binary payload", frames: [.ping([0x00, 0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0x00, 0xFF])],
                 expected: [.ping([0x00, 0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0x00, 0xFF])]),
    AutobahnCase(id: "2.4 ping of 125 bytes", frames: [.ping(bytes(125, 0xFE))], expected: [.ping(bytes(125, 0xFE))]),
    AutobahnCase(id: "2.5 ping of 126 bytes", frames: [.ping(bytes(126, 0xFE))], expected: [.failure(.controlFrameTooLong)]),
    AutobahnCase(id: "2.7 unsolicited pong without payload", frames: [.pong()], expected: [.pong([])]),
    AutobahnCase(id: "2.8 unsolicited pong with payload", frames: [.pong(Array("unsolicited pong payload".utf8))],
                 expected: [.pong(Array("unsolicited pong payload".utf8))]),
    AutobahnCase(id: "2.9 unsolicited pong, then ping", frames: [.pong(Array("unsolicited pong payload".utf8)), .ping(Array("ping payload".utf8))],
                 expected: [.pong(Array("unsolicited pong payload".utf8)), .ping(Array("ping payload".utf8))]),
    AutobahnCase(id: "2.10 ten pings", frames: (0..<10).map { .ping(Array("payload-\($0)".utf8)) },
                 expected: (0..<10).map { .ping(Array("payload-\($0)".utf8)) }),
]

/// Section 3: reserved bits, which no extension gives a meaning here.
private let reservedBitCases: [AutobahnCase] = [
    AutobahnCase(id: "3.1 text with RSV 1", frames: [Frame(rsv: 0b001, opcode: 1, payload: Array("Hello, world!".utf8))],
                 expected: [.failure(.reservedBitsSet)]),
    AutobahnCase(id: "3.2 text, text with RSV 2, ping", frames: [.text("small"), Frame(rsv: 0b010, opcode: 1, payload: Array("small".utf8)), .ping()],
                 expected: [.text("small"), .failure(.reservedBitsSet)]),
    AutobahnCase(id: "3.3 text, text with RSV 3, ping", frames: [.text("small"), Frame(rsv: 0b011, opcode: 1, payload: Array("small".utf8)), .ping()],
                 expected: [.text("small"), .failure(.reservedBitsSet)]),
    AutobahnCase(id: "3.4 text, text with RSV 4, ping", frames: [.text("small"), Frame(rsv: 0b100, opcode: 1, payload: Array("small".utf8)), .ping()],
                 expected: [.text("small"), .failure(.reservedBitsSet)]),
    AutobahnCase(id: "3.5 binary with RSV 5", frames: [Frame(rsv: 0b101, opcode: 2, payload: bytes(8, 0xFF))], expected: [.failure(.reservedBitsSet)]),
    AutobahnCase(id: "3.6 ping with RSV 6", frames: [Frame(rsv: 0b110, opcode: 9, payload: Array("ping".utf8))], expected: [.failure(.reservedBitsSet)]),
    AutobahnCase(id: "3.7 close with RSV 7", frames: [Frame(rsv: 0b111, opcode: 8, payload: [])], expected: [.failure(.reservedBitsSet)]),
]

/// Section 4: reserved opcodes, data (3-7) and control (11-15).
private let opcodeCases: [AutobahnCase] = [3, 4, 5, 6, 7, 11, 12, 13, 14, 15].flatMap { opcode in [
    AutobahnCase(id: "4.\(opcode < 8 ? 1 : 2) reserved opcode \(opcode)", frames: [Frame(opcode: opcode, payload: [])],
                 expected: [.failure(.reservedOpcode(opcode))]),
    AutobahnCase(id: "4.\(opcode < 8 ? 1 : 2) text, reserved opcode \(opcode) with payload, ping",
                 frames: [.text("Hello, world!"), Frame(opcode: opcode, payload: Array("reserved opcode payload".utf8)), .ping()],
                 expected: [.text("Hello, world!"), .failure(.reservedOpcode(opcode))]),
] }

/// Section 5: fragmentation.
private let fragmentationCases: [AutobahnCase] = [
    AutobahnCase(id: "5.1 ping in two fragments", frames: [Frame(fin: false, opcode: 9, payload: Array("fragment1".utf8)), .continuation("fragment2")],
                 expected: [.failure(.fragmentedControlFrame)]),
    AutobahnCase(id: "5.2 pong in two fragments", frames: [Frame(fin: false, opcode: 10, payload: Array("fragment1".utf8)), .continuation("fragment2")],
                 expected: [.failure(.fragmentedControlFrame)]),
    AutobahnCase(id: "5.3 text in two fragments", frames: [.text("fragment1", fin: false), .continuation("fragment2")],
                 expected: [.text("fragment1fragment2")]),
    AutobahnCase(id: "5.6 text in two fragments, a ping between", frames: [.text("fragment1", fin: false), .ping(Array("ping".utf8)), .continuation("fragment2")],
                 expected: [.ping(Array("ping".utf8)), .text("fragment1fragment2")]),
    AutobahnCase(id: "5.9 final continuation with nothing to continue, then text",
                 frames: [.continuation("non-continuation payload"), .text("Hello, world!")], expected: [.failure(.unexpectedContinuation)]),
    AutobahnCase(id: "5.12 unfinished continuation with nothing to continue, then text",
                 frames: [.continuation("non-continuation payload", fin: false), .text("Hello, world!")], expected: [.failure(.unexpectedContinuation)]),
    AutobahnCase(id: "5.15 text in two fragments, then a continuation with nothing to continue",
                 frames: [.text("fragment1", fin: false), .continuation("fragment2"), .continuation("fragment3", fin: false), .text("fragment4")],
                 expected: [.text("fragment1fragment2"), .failure(.unexpectedContinuation)]),
    AutobahnCase(id: "5.16 unfinished continuation with nothing to continue, then a fragmented text",
                 frames: [.continuation("fragment1", fin: false), .text("fragment2", fin: false), .continuation("fragment3")],
                 expected: [.failure(.unexpectedContinuation)]),
    AutobahnCase(id: "5.17 final continuation with nothing to continue, then a fragmented text",
                 frames: [.continuation("fragment1"), .text("fragment2", fin: false), .continuation("fragment3")],
                 expected: [.failure(.unexpectedContinuation)]),
    AutobahnCase(id: "5.18 text in two fragments, both with the text opcode",
                 frames: [.text("fragment1", fin: false), .text("fragment2")], expected: [.failure(.dataFrameInsideFragmentedMessage)]),
    AutobahnCase(id: "5.18 binary frame inside a fragmented text",
                 frames: [.text("fragment1", fin: false), .binary([1])], expected: [.failure(.dataFrameInsideFragmentedMessage)]),
    AutobahnCase(id: "5.19 text in five fragments, two pings between",
                 frames: [.text("fragment1", fin: false), .continuation("fragment2", fin: false), .ping(Array("pongme 1!".utf8)),
                          .continuation("fragment3", fin: false), .ping(Array("pongme 2!".utf8)), .continuation("fragment4", fin: false),
                          .continuation("fragment5")],
                 expected: [.ping(Array("pongme 1!".utf8)), .ping(Array("pongme 2!".utf8)), .text("fragment1fragment2fragment3fragment4fragment5")]),
]

/// Section 6.1-6.4: empty messages, valid and invalid text across fragments, and failing fast.
private let textCases: [AutobahnCase] = [
    AutobahnCase(id: "6.1.1 empty text message", frames: [.text("")], expected: [.text("")]),
    AutobahnCase(id: "6.1.2 text of three empty fragments", frames: [.text("", fin: false), .continuation("", fin: false), .continuation("")],
                 expected: [.text("")]),
    AutobahnCase(id: "6.1.3 empty fragments around a payload", frames: [.text("", fin: false), .continuation("middle frame payload", fin: false), .continuation("")],
                 expected: [.text("middle frame payload")]),
    AutobahnCase(id: "6.2.1 valid UTF-8 in one fragment", frames: [.text("Hello-µ@ßöäüàá-UTF-8!!")], expected: [.text("Hello-µ@ßöäüàá-UTF-8!!")]),
    AutobahnCase(id: "6.2.2 valid UTF-8 in two fragments split at a code point", frames: [.text("Hello-µ@ßöä", fin: false), .continuation("üàá-UTF-8!!")],
                 expected: [.text("Hello-µ@ßöäüàá-UTF-8!!")]),
    AutobahnCase(id: "6.2.3 valid UTF-8 in one-byte fragments", frames: fragmented(Array("Hello-µ@ßöäüàá-UTF-8!!".utf8), size: 1),
                 expected: [.text("Hello-µ@ßöäüàá-UTF-8!!")]),
    AutobahnCase(id: "6.2.4 κόσμε in one-byte fragments", frames: fragmented(kosme, size: 1), expected: [.text(kosme)]),
    AutobahnCase(id: "6.3.1 invalid UTF-8 in one fragment", frames: [.text(bytes: kosme + [0xED, 0xA0, 0x80] + Array("edited".utf8))],
                 expected: [.failure(.invalidUTF8)]),
    AutobahnCase(id: "6.3.2 invalid UTF-8 in one-byte fragments, a ping after the bad byte",
                 frames: fragmented(kosme + [0xED, 0xA0], size: 1, last: false) + [.ping(), .continuation(bytes: [0x80] + Array("edited".utf8))],
                 expected: [.failure(.invalidUTF8)]),
    AutobahnCase(id: "6.4.1 fail fast: the second fragment is invalid, a ping and a third fragment follow",
                 frames: [.text(bytes: kosme, fin: false), .continuation(bytes: [0xF4, 0x90, 0x80, 0x80], fin: false), .ping(), .continuation("edited")],
                 expected: [.failure(.invalidUTF8)]),
    AutobahnCase(id: "6.4.2 fail fast: a lead byte ends the first fragment, its bad continuation starts the second",
                 frames: [.text(bytes: kosme + [0xF4], fin: false), .ping(), .continuation(bytes: [0x90, 0x80, 0x80] + Array("edited".utf8))],
                 expected: [.ping([]), .failure(.invalidUTF8)]),
    AutobahnCase(id: "6.4 a message ending inside a character", frames: [.text(bytes: kosme + [0xE1, 0xBD])], expected: [.failure(.invalidUTF8)]),
    AutobahnCase(id: "6.4 a fragmented message ending inside a character",
                 frames: [.text(bytes: kosme, fin: false), .continuation(bytes: [0xF0, 0x9F, 0x98])], expected: [.failure(.invalidUTF8)]),
]

/// `payload` as a text message in fragments of `size` bytes; `last: false` leaves the message unfinished.
private func fragmented(_ payload: [UInt8], size: Int, last: Bool = true) -> [Frame] {
    let pieces = Chunking.pieces(of: payload, size: size)
    return pieces.enumerated().map { index, piece in
        let fin = last && index == pieces.count - 1
        return index == 0 ? .text(bytes: piece, fin: fin) : .continuation(bytes: piece, fin: fin)
    }
}

/// Section 6.5-6.23: Markus Kuhn's UTF-8 decoder test sequences, as Autobahn sends them, each with whether it
/// is well-formed.
public let utf8Sequences: [(bytes: [UInt8], isValid: Bool)] = [
    (Array("hello$world".utf8), true), ([0x68, 0xC2, 0xA2], true), ([0x68, 0xE2, 0x82, 0xAC], true), ([0x68, 0xF0, 0xA4, 0xAD, 0xA2], true),
    (kosme, true),
    // First and last possible sequence of each length.
    ([0x00], true), ([0xC2, 0x80], true), ([0xE0, 0xA0, 0x80], true), ([0xF0, 0x90, 0x80, 0x80], true),
    ([0xF8, 0x88, 0x80, 0x80, 0x80], false), ([0xFC, 0x84, 0x80, 0x80, 0x80, 0x80], false),
    ([0x7F], true), ([0xDF, 0xBF], true), ([0xEF, 0xBF, 0xBF], true), ([0xF4, 0x8F, 0xBF, 0xBF], true),
    ([0xF7, 0xBF, 0xBF, 0xBF], false), ([0xFB, 0xBF, 0xBF, 0xBF, 0xBF], false), ([0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF], false),
    // Other boundaries.
    ([0xED, 0x9F, 0xBF], true), ([0xEE, 0x80, 0x80], true), ([0xEF, 0xBF, 0xBD], true), ([0xF4, 0x90, 0x80, 0x80], false),
    // Unexpected continuation bytes, lonely start bytes, missing last continuation bytes.
    ([0x80], false), ([0xBF], false), ([0x80, 0xBF], false), ([0x80, 0xBF, 0x80, 0xBF, 0x80, 0xBF], false), (Array(UInt8(0x80)...0xBE), false),
    ((UInt8(0xC0)...0xDE).flatMap { [$0, 0x20] }, false), ((UInt8(0xE0)...0xEE).flatMap { [$0, 0x20] }, false),
    ((UInt8(0xF0)...0xF6).flatMap { [$0, 0x20] }, false), ((UInt8(0xF8)...0xFA).flatMap { [$0, 0x20] }, false), ([0xFC, 0x20], false),
    ([0xC0], false), ([0xE0, 0x80], false), ([0xF0, 0x80, 0x80], false), ([0xDF], false), ([0xEF, 0xBF], false), ([0xF7, 0xBF, 0xBF], false),
    ([0xC0, 0xE0, 0x80, 0xF0, 0x80, 0x80, 0xDF, 0xEF, 0xBF], false),
    // Impossible bytes.
    ([0xFE], false), ([0xFF], false), ([0xFE, 0xFE, 0xFF, 0xFF], false),
    // Overlong forms, the largest overlong forms, overlong NUL.
    ([0xC0, 0xAF], false), ([0xE0, 0x80, 0xAF], false), ([0xF0, 0x80, 0x80, 0xAF], false), ([0xF8, 0x80, 0x80, 0x80, 0xAF], false),
    ([0xC1, 0xBF], false), ([0xE0, 0x9F, 0xBF], false), ([0xF0, 0x8F, 0xBF, 0xBF], false),
    ([0xC0, 0x80], false), ([0xE0, 0x80, 0x80], false), ([0xF0, 0x80, 0x80, 0x80], false),
    // Single and paired UTF-16 surrogates.
    ([0xED, 0xA0, 0x80], false), ([0xED, 0xAD, 0xBF], false), ([0xED, 0xAE, 0x80], false), ([0xED, 0xAF, 0xBF], false),
    ([0xED, 0xB0, 0x80], false), ([0xED, 0xBE, 0x80], false), ([0xED, 0xBF, 0xBF], false),
    ([0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80], false), ([0xED, 0xAF, 0xBF, 0xED, 0xBF, 0xBF], false),
    // Non-characters and specials are well-formed.
    ([0xEF, 0xBF, 0xBE], true), ([0xEF, 0xBF, 0xBF], true), ([0xF0, 0x9F, 0xBF, 0xBE], true), ([0xF4, 0x8F, 0xBF, 0xBF], true),
    ([0xEF, 0xBF, 0xB9], true), ([0xEF, 0xBF, 0xBC], true),
]

private let utf8SequenceCases: [AutobahnCase] = utf8Sequences.enumerated().flatMap { index, sequence in
    let expected: [Received] = sequence.isValid ? [.text(sequence.bytes)] : [.failure(.invalidUTF8)]
    return [
        AutobahnCase(id: "6.x sequence \(index) in one frame", frames: [.text(bytes: sequence.bytes)], expected: expected),
        AutobahnCase(id: "6.x sequence \(index) in one-byte fragments", frames: fragmented(sequence.bytes, size: 1), expected: expected),
    ]
}

/// Section 7: close handling.
private let closeCases: [AutobahnCase] = [
    AutobahnCase(id: "7.1.1 text, then close", frames: [.text("Hello World!"), .close(code: 1000)], expected: [.text("Hello World!"), .close(1000, "")]),
    AutobahnCase(id: "7.1.2 close twice", frames: [.close(code: 1000), .close(code: 1000)], expected: [.close(1000, "")]),
    AutobahnCase(id: "7.1.3 ping after close", frames: [.close(code: 1000), .ping(Array("Hello World!".utf8))], expected: [.close(1000, "")]),
    AutobahnCase(id: "7.1.4 text after close", frames: [.close(code: 1000), .text("Hello World!")], expected: [.close(1000, "")]),
    AutobahnCase(id: "7.1.5 close inside a fragmented text", frames: [.text("fragment1", fin: false), .close(code: 1000), .continuation("fragment2")],
                 expected: [.close(1000, "")]),
    AutobahnCase(id: "7.1.6 a long text, close, ping", frames: [.text(bytes: bytes(messageLimit)), .close(code: 1000), .ping()],
                 expected: [.text(bytes(messageLimit)), .close(1000, "")]),
    AutobahnCase(id: "7.3.1 close without payload", frames: [.close()], expected: [.close(nil, "")]),
    AutobahnCase(id: "7.3.2 close with a payload of one byte", frames: [Frame(opcode: 8, payload: [0x03])], expected: [.failure(.closePayloadTooShort)]),
    AutobahnCase(id: "7.3.3 close with a code only", frames: [.close(code: 1000)], expected: [.close(1000, "")]),
    AutobahnCase(id: "7.3.4 close with a code and a reason", frames: [closeReason(1000, Array("Hello World!".utf8))], expected: [.close(1000, "Hello World!")]),
    AutobahnCase(id: "7.3.5 close with a reason of 123 bytes", frames: [closeReason(1000, bytes(123))],
                 expected: [.close(1000, String(repeating: "*", count: 123))]),
    AutobahnCase(id: "7.3.6 close with a reason of 124 bytes", frames: [closeReason(1000, bytes(124))], expected: [.failure(.controlFrameTooLong)]),
    AutobahnCase(id: "7.5.1 close with a reason that is not UTF-8", frames: [closeReason(1000, kosme + [0xED, 0xA0, 0x80] + Array("edited".utf8))],
                 expected: [.failure(.invalidCloseReason)]),
] + [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999].map { (code: UInt16) in
    AutobahnCase(id: "7.7 close with valid code \(code)", frames: [.close(code: code)], expected: [.close(code, "")])
} + [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535].map { (code: UInt16) in
    AutobahnCase(id: "7.9 close with invalid code \(code)", frames: [.close(code: code)], expected: [.failure(.invalidCloseCode(code))])
}

/// Section 9, scaled to this server's limit: Autobahn sends messages of 64 KiB to 16 MiB; here a message
/// is at most 4096 bytes, so the cases are at the limit and one byte over, whole and in fragments.
private let limitCases: [AutobahnCase] = [
    AutobahnCase(id: "9.1 text of exactly the limit", frames: [.text(bytes: bytes(messageLimit))], expected: [.text(bytes(messageLimit))]),
    AutobahnCase(id: "9.1 text one byte over the limit", frames: [.text(bytes: bytes(messageLimit + 1))],
                 expected: [.failure(.messageTooLong(limit: messageLimit))]),
    AutobahnCase(id: "9.1.6 text declaring 16 MiB, refused before any payload",
                 frames: [Frame(opcode: 1, payload: [], lengthForm: .declared(16 << 20))], expected: [.failure(.messageTooLong(limit: messageLimit))]),
    AutobahnCase(id: "9.3 text of exactly the limit in 64-byte fragments", frames: fragmented(bytes(messageLimit), size: 64),
                 expected: [.text(bytes(messageLimit))]),
    AutobahnCase(id: "9.3 text one byte over the limit in 64-byte fragments, refused at the last fragment's header",
                 frames: fragmented(bytes(messageLimit + 1), size: 64), expected: [.failure(.messageTooLong(limit: messageLimit))]),
    AutobahnCase(id: "9.3 control frames between fragments do not count against the limit",
                 frames: [.text(bytes: bytes(messageLimit - 1), fin: false), .ping(bytes(125)), .continuation(bytes: bytes(1))],
                 expected: [.ping(bytes(125)), .text(bytes(messageLimit))]),
]

/// Framing rules of RFC 6455 that Autobahn's server cases do not cover: masking and minimal lengths.
private let framingRuleCases: [AutobahnCase] = [
    AutobahnCase(id: "5.1 an unmasked text frame", frames: [Frame(opcode: 1, payload: Array("hi".utf8), mask: nil)], expected: [.failure(.unmaskedFrame)]),
    AutobahnCase(id: "5.1 an unmasked ping after a message", frames: [.text("hi"), Frame(opcode: 9, payload: [], mask: nil)],
                 expected: [.text("hi"), .failure(.unmaskedFrame)]),
    AutobahnCase(id: "5.2 a 16-bit length that fits in 7 bits", frames: [Frame(opcode: 1, payload: bytes(125), lengthForm: .sixteenBit)],
                 expected: [.failure(.invalidPayloadLength)]),
    AutobahnCase(id: "5.2 the smallest 16-bit length", frames: [Frame(opcode: 1, payload: bytes(126), lengthForm: .sixteenBit)],
                 expected: [.text(bytes(126))]),
    AutobahnCase(id: "5.2 a 64-bit length that fits in 16 bits", frames: [Frame(opcode: 1, payload: bytes(200), lengthForm: .sixtyFourBit)],
                 expected: [.failure(.invalidPayloadLength)]),
    AutobahnCase(id: "5.2 a 64-bit length with its top bit set", frames: [Frame(opcode: 1, payload: [], lengthForm: .declared(1 << 63 | 5))],
                 expected: [.failure(.invalidPayloadLength)]),
    AutobahnCase(id: "5.5 a ping with a 16-bit length", frames: [Frame(opcode: 9, payload: bytes(3), lengthForm: .sixteenBit)],
                 expected: [.failure(.controlFrameTooLong)]),
]

public let autobahnCases = framingCases + pingCases + reservedBitCases + opcodeCases + fragmentationCases + textCases
    + utf8SequenceCases + closeCases + limitCases + framingRuleCases
