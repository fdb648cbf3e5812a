/// How text is written inside a JSON string by the module's encoders.
///
/// `JSONWriter` and the state fast path (`ByteCursor`) both go through this, so the two write exactly the
/// same bytes for the same text and the fast path's size bound can rely on `maxBytesPerByte`.
enum JSONEscape {
    /// The most bytes one byte of text can become: a control character written as `\u00XX`.
    static let maxBytesPerByte = 6

    /// The most bytes `text` can take as a JSON string, quotes included.
    @inline(__always)
    static func maxQuotedBytes(_ text: String) -> Int {
        text.utf8.count * maxBytesPerByte + 2
    }

    /// Whether `byte` is escaped: `"` and `\` must be, and so must control characters (RFC 8259); DEL is too,
    /// so that no raw control byte reaches a terminal printing the line.
    @inline(__always)
    static func isNeeded(for byte: UInt8) -> Bool {
        byte < ASCII.space || byte == ASCII.quote || byte == ASCII.backslash || byte == ASCII.delete
    }

    /// Calls `body` with `text` escaped for a JSON string, without its quotes, piece by piece in order: runs
    /// of bytes that need no escaping (copied whole, the common case is one run) and escape sequences.
    /// Never calls `body` with an empty piece.
    @inline(__always)
    static func forEachPiece(of text: String, _ body: (UnsafeRawBufferPointer) -> Void) {
        var text = text
        // Native strings are already contiguous UTF-8, so this neither copies nor allocates.
        text.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            var runStart = 0
            for index in bytes.indices where isNeeded(for: bytes[index]) {
                if runStart < index { body(UnsafeRawBufferPointer(rebasing: bytes[runStart..<index])) }
                withSequence(for: bytes[index], body)
                runStart = index + 1
            }
            if runStart < bytes.count { body(UnsafeRawBufferPointer(rebasing: bytes[runStart...])) }
        }
    }

    /// Calls `body` with the escape sequence of `byte`, one that `isNeeded(for:)` accepts: the short forms
    /// `\"`, `\\`, `\n`, `\r`, `\t`, `\b` and `\f`, else `\u00XX` (only bytes below 0x80 get here).
    private static func withSequence(for byte: UInt8, _ body: (UnsafeRawBufferPointer) -> Void) {
        let shortForm: UInt8? =
            switch byte {
            case ASCII.quote: ASCII.quote
            case ASCII.backslash: ASCII.backslash
            case ASCII.newline: ASCII.lowerN
            case ASCII.carriageReturn: ASCII.lowerR
            case ASCII.tab: ASCII.lowerT
            case 0x08: ASCII.lowerB
            case 0x0C: ASCII.lowerF
            default: nil
            }
        var sequence: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (ASCII.backslash, 0, 0, 0, 0, 0)
        let count: Int
        if let shortForm {
            sequence.1 = shortForm
            count = 2
        } else {
            let hexDigits: StaticString = "0123456789abcdef"
            sequence.1 = ASCII.lowerU
            sequence.2 = ASCII.zero
            sequence.3 = ASCII.zero
            hexDigits.withUTF8Buffer { digits in
                sequence.4 = digits[Int(byte >> 4)]
                sequence.5 = digits[Int(byte & 0x0F)]
            }
            count = maxBytesPerByte
        }
        withUnsafeBytes(of: &sequence) { body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
}
