/// Checks UTF-8 one byte at a time, so a text message split over frames and reads can be refused at its
/// first bad byte instead of once it is complete (RFC 6455 §8.1, Autobahn's "fail fast" cases 6.4).
///
/// Well-formed means RFC 3629's table: no overlong forms, no surrogates (U+D800-DFFF), nothing above
/// U+10FFFF. Non-characters such as U+FFFE are well-formed and pass.
struct UTF8Validator: Sendable, Hashable {
    /// Where the validator is in the byte stream.
    private enum State: Sendable, Hashable {
        /// Between characters.
        case atBoundary
        /// Inside a multi-byte character: `remaining` continuation bytes to come, the next one in `next`.
        case inSequence(remaining: Int, next: ClosedRange<UInt8>)
    }

    private var state = State.atBoundary

    /// The range of every continuation byte but the restricted second byte of some sequences.
    private static let continuation: ClosedRange<UInt8> = 0x80...0xBF

    /// Whether the bytes so far end between characters: a message may end here.
    var isAtBoundary: Bool {
        state == .atBoundary
    }

    /// Takes the next byte; false if it cannot continue well-formed UTF-8, after which the state is
    /// meaningless.
    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
        switch state {
        case .atBoundary:
            if byte < 0x80 { return true }
            // The lead byte sets how many bytes follow and, for the edges of the table, the range of the
            // second one: E0 and F0 exclude overlong forms, ED surrogates, F4 what lies above U+10FFFF.
            switch byte {
            case 0xC2...0xDF: state = .inSequence(remaining: 1, next: Self.continuation)
            case 0xE0: state = .inSequence(remaining: 2, next: 0xA0...0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: state = .inSequence(remaining: 2, next: Self.continuation)
            case 0xED: state = .inSequence(remaining: 2, next: 0x80...0x9F)
            case 0xF0: state = .inSequence(remaining: 3, next: 0x90...0xBF)
            case 0xF1...0xF3: state = .inSequence(remaining: 3, next: Self.continuation)
            case 0xF4: state = .inSequence(remaining: 3, next: 0x80...0x8F)
            default: return false
            }
            return true
        case .inSequence(let remaining, let next):
            guard next.contains(byte) else { return false }
            state = remaining == 1 ? .atBoundary : .inSequence(remaining: remaining - 1, next: Self.continuation)
            return true
        }
    }

    /// Takes every byte of `bytes`; false at the first that cannot continue well-formed UTF-8.
    mutating func consume(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.allSatisfy { consume($0) }
    }

    /// Takes every byte of `bytes`; false at the first that cannot continue well-formed UTF-8. Between
    /// characters, runs of ASCII are passed eight bytes at a time: the messages are JSON, nearly all ASCII,
    /// and `pairs load` reads every state of a WebSocket run through this.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let asciiMask: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index < bytes.count {
            if isAtBoundary {
                while index + 8 <= bytes.count, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & asciiMask == 0 {
                    index += 8
                }
                guard index < bytes.count else { break }
            }
            guard consume(bytes[index]) else { return false }
            index += 1
        }
        return true
    }
}
