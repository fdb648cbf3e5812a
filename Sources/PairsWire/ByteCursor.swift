import PairsRules

/// A write position in a buffer of fixed size that never writes past its end.
///
/// The state fast path (`StateLineEncoder`) sizes its buffer from a bound computed beforehand and writes
/// through a pointer. Every write here checks the room left first: a write that does not fit is not made,
/// and the cursor remembers it (`hasOverflowed`), so a bound that a future field or an input nobody thought
/// of outgrows is caught by the encoder's `precondition` instead of corrupting the heap. The check is one
/// compare per write, and a write is a whole piece (a literal, a run of text, a number), not a byte.
///
/// Refusing rather than trapping here is what lets the tests show one byte over is caught without
/// stopping a process: Swift Testing's exit tests wait on child processes in a way that spins when
/// another test's child is left unreaped.
struct ByteCursor {
    private let start: UnsafeMutablePointer<UInt8>
    private let end: UnsafeMutablePointer<UInt8>
    private var position: UnsafeMutablePointer<UInt8>

    /// A cursor at the start of `buffer`, which must have an address (a buffer of size 0 may have none).
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        start = buffer.baseAddress!
        end = start + buffer.count
        position = start
    }

    /// The bytes written so far, from the start of the buffer.
    var count: Int { position - start }

    /// Whether a write did not fit and was left out: what was written is then not the whole message.
    private(set) var hasOverflowed = false

    /// Claims the next `length` bytes and returns where they start, or nil (and the cursor has overflowed)
    /// if the buffer does not have them.
    @inline(__always)
    private mutating func claim(_ length: Int) -> UnsafeMutablePointer<UInt8>? {
        guard length <= end - position else {
            hasOverflowed = true
            return nil
        }
        defer { position += length }
        return position
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        claim(text.utf8CodeUnitCount)?.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let target = claim(bytes.count) else { return }
        UnsafeMutableRawPointer(target).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
    }

    @inline(__always)
    mutating func appendByte(_ byte: UInt8) {
        claim(1)?.pointee = byte
    }

    /// `0` or `1` for a seat, `null` for none, as `JSONWriter` writes a seat's index.
    mutating func appendSeat(_ seat: Seat?) {
        switch seat {
        case .first?: appendByte(ASCII.zero)
        case .second?: appendByte(ASCII.one)
        case nil: append("null")
        }
    }

    /// `value` in decimal; any 64-bit integer takes at most `StateLineEncoder.FieldBytes.integer` bytes.
    mutating func appendDecimal(_ value: some BinaryInteger) {
        var magnitude = UInt64(value.magnitude)
        if value < 0 { appendByte(ASCII.minus) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // scratch for up to 20 digits, written backwards
        withUnsafeMutableBytes(of: &digits) { scratch in
            var index = scratch.count
            repeat {
                index -= 1
                scratch[index] = ASCII.zero + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            append(UnsafeRawBufferPointer(rebasing: scratch[index...]))
        }
    }

    /// `text` as a JSON string, escaped exactly as `JSONWriter` escapes it; at most
    /// `JSONEscape.maxQuotedBytes(text)` bytes.
    mutating func appendQuoted(_ text: String) {
        appendByte(ASCII.quote)
        JSONEscape.forEachPiece(of: text) { append($0) }
        appendByte(ASCII.quote)
    }
}
