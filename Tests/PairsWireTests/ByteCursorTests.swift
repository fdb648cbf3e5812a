@testable import PairsWire
import Testing

// The cursor under the state fast path: it must write what it is given and refuse to write one byte past
// the end of its buffer, saying so (the encoder then stops the process).

/// The bytes written by `body` to a cursor over a buffer of `capacity` bytes, and whether it overflowed.
/// The buffer is one byte longer than the cursor is told, and that byte must stay as it was.
private func writing(capacity: Int, _ body: (inout ByteCursor) -> Void) -> (bytes: [UInt8], overflowed: Bool) {
    let guardByte: UInt8 = 0xA5
    var overflowed = false
    var guardIntact = false
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity + 1) { buffer, count in
        buffer[capacity] = guardByte
        var cursor = ByteCursor(UnsafeMutableBufferPointer(rebasing: buffer[..<capacity]))
        body(&cursor)
        overflowed = cursor.hasOverflowed
        guardIntact = buffer[capacity] == guardByte
        count = cursor.count
    }
    #expect(guardIntact, "the byte past the cursor's buffer was written")
    return (bytes, overflowed)
}

/// The bytes written by `body` to a cursor over a buffer of `capacity` bytes, which must not overflow.
private func written(capacity: Int, _ body: (inout ByteCursor) -> Void) -> [UInt8] {
    let (bytes, overflowed) = writing(capacity: capacity, body)
    #expect(!overflowed)
    return bytes
}

@Test("a cursor writes literals, numbers, seats and quoted text one after another")
func cursorWritesInOrder() {
    let bytes = written(capacity: 64) { out in
        out.append("[")
        out.appendDecimal(Int64.min)
        out.appendByte(UInt8(ascii: ","))
        out.appendSeat(.second)
        out.appendSeat(nil)
        out.appendQuoted("a\"\u{1}")
        out.append("]")
    }
    #expect(String(decoding: bytes, as: UTF8.self) == #"[-9223372036854775808,1null"a\"\u0001"]"#)
}

@Test("a cursor fills its buffer to the last byte")
func cursorFillsItsBuffer() {
    let text = #""a\"b""#
    let bytes = written(capacity: text.utf8.count) { out in out.appendQuoted(#"a"b"#) }
    #expect(bytes == Array(text.utf8))
}

/// Writes of exactly five bytes, each through a different path of the cursor.
private let fiveByteWrites: [String: @Sendable (inout ByteCursor) -> Void] = [
    "a literal": { $0.append("12345") },
    "a byte after a literal": { $0.append("1234"); $0.appendByte(UInt8(ascii: "5")) },
    "a number": { $0.appendDecimal(-1234) },
    "quoted text": { $0.appendQuoted("123") },
    "quoted text with an escape": { $0.appendQuoted("1\n") },
]

@Test("a cursor refuses to write one byte past its buffer and says it overflowed", arguments: fiveByteWrites.keys.sorted())
func cursorRefusesOneByteOver(write: String) {
    #expect(written(capacity: 5, fiveByteWrites[write]!).count == 5)
    let over = writing(capacity: 4, fiveByteWrites[write]!)
    #expect(over.overflowed)
    #expect(over.bytes.count <= 4)
}
