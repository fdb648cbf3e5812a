#if canImport(Glibc)
import Glibc
#endif
import PairsWire

/// Splits one connection's byte stream into lines, finding each newline with `memchr`.
///
/// PairsWire's `LineFramer` does the same job for the server, where lines are short requests; it looks
/// at the bytes one at a time, and in a profile of `pairs load` that was its single most expensive
/// function: a load client reads every state twice (both seats receive it), some 800 bytes each, tens of
/// thousands a second. `memchr` compares a word or a vector at a time. Semantics are `LineFramer`'s:
/// `\n` ends a line, a `\r` before it is dropped, a line longer than the protocol's limit is reported
/// once and skipped up to its end, and a line that arrives whole is handed over without a copy.
struct LineSplitter {
    /// The protocol's longest line (protocol.md), which bounds what a connection buffers.
    static let maxLineBytes = LineFramer.maxLineBytes

    /// The start of a line whose end has not arrived; empty between lines.
    private var partial: [UInt8] = []
    private var isSkippingLongLine = false

    /// Calls `line` with every line `chunk` completes (valid only during the call), and `tooLong` for each
    /// line over the limit.
    @inline(__always)
    mutating func append(_ chunk: UnsafeRawBufferPointer, line: (UnsafeRawBufferPointer) -> Void, tooLong: () -> Void) {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return }
        var start = 0
        if isSkippingLongLine {
            guard let newline = Self.newline(in: base, from: 0, to: chunk.count) else { return }
            isSkippingLongLine = false
            start = newline + 1
        } else if !partial.isEmpty {
            guard let newline = Self.newline(in: base, from: 0, to: chunk.count) else {
                keep(UnsafeRawBufferPointer(start: base, count: chunk.count), tooLong: tooLong)
                return
            }
            if partial.count + newline > Self.maxLineBytes + 1 {
                tooLong()
            } else {
                partial.append(contentsOf: UnsafeRawBufferPointer(start: base, count: newline))
                partial.withUnsafeBytes { Self.deliver($0, line: line, tooLong: tooLong) }
            }
            partial = []
            start = newline + 1
        }
        while start < chunk.count {
            guard let newline = Self.newline(in: base, from: start, to: chunk.count) else {
                keep(UnsafeRawBufferPointer(start: base + start, count: chunk.count - start), tooLong: tooLong)
                return
            }
            Self.deliver(UnsafeRawBufferPointer(start: base + start, count: newline - start), line: line, tooLong: tooLong)
            start = newline + 1
        }
    }

    /// Hands over a line without its `\r`, or reports it as too long.
    @inline(__always)
    private static func deliver(_ bytes: UnsafeRawBufferPointer, line: (UnsafeRawBufferPointer) -> Void, tooLong: () -> Void) {
        var count = bytes.count
        if count > 0, bytes[count - 1] == ASCII.carriageReturn { count -= 1 }
        if count > maxLineBytes {
            tooLong()
        } else {
            line(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
        }
    }

    /// Keeps the start of an unfinished line, unless it is already too long.
    private mutating func keep(_ rest: UnsafeRawBufferPointer, tooLong: () -> Void) {
        // One byte over the limit may still be the `\r` of a `\r\n`.
        if partial.count + rest.count > Self.maxLineBytes + 1 {
            tooLong()
            partial = []
            isSkippingLongLine = true
        } else {
            partial.append(contentsOf: rest)
        }
    }

    @inline(__always)
    private static func newline(in base: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        guard let found = memchr(base + start, Int32(ASCII.newline), end - start) else { return nil }
        return base.distance(to: found)
    }
}
