@testable import PairsWire
import Testing

// The cursor under the state fast path: it must write what it is given and refuse, by stopping the process,
// to write one byte past the end of its buffer.

/// The bytes written by `body` to a cursor over a buffer of `capacity` bytes.
private func written(capacity: Int, _ body: (inout ByteCursor) -> Void) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        var cursor = ByteCursor(UnsafeMutableBufferPointer(rebasing: buffer[..<capacity]))
        body(&cursor)
        count = cursor.count
    }
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

@Test("a cursor stops the process rather than write one byte past its buffer", arguments: fiveByteWrites.keys.sorted())
func cursorTrapsOneByteOver(write: String) async {
    #expect(written(capacity: 5, fiveByteWrites[write]!).count == 5)
    await #expect(processExitsWith: .failure) { [write] in
        _ = written(capacity: 4, fiveByteWrites[write]!)
    }
}
