#if canImport(Glibc)
import Glibc
#endif

/// Splits the byte stream of one connection into lines ending in `\n` (a `\r` before the `\n` is dropped too,
/// so `\r\n` from netcat or telnet works).
///
/// Built for many mostly idle connections and a few hostile ones:
/// - Memory is bounded: at most `maxLineBytes + 1` bytes are buffered, whatever a client sends; a longer line
///   is reported as `.tooLong` once and skipped up to its `\n` without being stored.
/// - An idle framer owns no heap storage: the buffer exists only while a line is split across chunks, and is
///   released as soon as that line completes.
/// - Lines that arrive whole, the usual case, are handed over as slices of the caller's chunk, not copied.
/// - Newlines are found with `memchr`, which compares a word or a vector at a time. Looking at one byte at a
///   time was the single most expensive function in a profile of `pairs load`, which frames every state
///   twice (both seats receive it), some 800 bytes each, tens of thousands a second.
///
/// ```swift
/// framer.append(chunk) { frame in
///     switch frame {
///     case .line(let bytes): handle(bytes)
///     case .tooLong: reply(error: "line too long")
///     }
/// }
/// ```
public struct LineFramer: Sendable {
    /// The protocol's limit on a line, in bytes, excluding its terminator (protocol.md).
    ///
    /// It bounds the memory a connection can make the server hold and the work one message can cost; every
    /// legitimate message is far smaller.
    public static let maxLineBytes = 4096

    /// The longest line accepted by this framer, in bytes, excluding the terminator.
    public let maxLineBytes: Int

    /// The start of a line whose end has not arrived yet. Empty, and without storage, between lines.
    ///
    /// It may hold `maxLineBytes + 1` bytes when the last one is a `\r` that may turn out to be half of the
    /// line's terminator.
    private var partialLine: [UInt8] = []

    /// Whether the rest of a line already reported as too long is being skipped.
    private var isSkippingLongLine = false

    public init(maxLineBytes: Int = LineFramer.maxLineBytes) {
        precondition(maxLineBytes >= 0, "maxLineBytes cannot be negative")
        self.maxLineBytes = maxLineBytes
    }

    /// Whether bytes of an unfinished line have been received, buffered or being skipped: a connection
    /// closing now would cut a line short.
    public var hasPartialLine: Bool {
        !partialLine.isEmpty || isSkippingLongLine
    }

    /// How many bytes of an unfinished line are held, at most `maxLineBytes + 1`.
    public var bufferedByteCount: Int {
        partialLine.count
    }

    /// The heap storage held for unfinished lines, in bytes, so tests can check it is released.
    var bufferCapacity: Int {
        partialLine.capacity
    }

    /// Feeds the next bytes of the stream, calling `body` with each line or `.tooLong` they complete, in
    /// stream order.
    ///
    /// Lines are passed as views of `chunk` or of the framer's buffer, valid only during the call of `body`.
    public mutating func append(_ chunk: UnsafeRawBufferPointer, _ body: (Frame) -> Void) {
        var start = 0
        while start < chunk.count {
            if isSkippingLongLine {
                guard let newline = Self.firstNewline(in: chunk, from: start) else { return }
                isSkippingLongLine = false
                start = newline + 1
                continue
            }
            guard let newline = Self.firstNewline(in: chunk, from: start) else {
                bufferPartialLine(UnsafeRawBufferPointer(rebasing: chunk[start...]), body)
                return
            }
            let tail = UnsafeRawBufferPointer(rebasing: chunk[start..<newline])
            if partialLine.isEmpty {
                yieldLine(tail, body)
            } else {
                completePartialLine(with: tail, body)
            }
            start = newline + 1
        }
    }

    /// Feeds the next bytes of the stream; see `append(_:_:)`.
    public mutating func append(_ chunk: [UInt8], _ body: (Frame) -> Void) {
        chunk.withUnsafeBytes { append($0, body) }
    }

    // MARK: - Private

    /// Hands a whole line, still including a final `\r`, to `body`.
    private func yieldLine(_ line: UnsafeRawBufferPointer, _ body: (Frame) -> Void) {
        let length = line.last == ASCII.carriageReturn ? line.count - 1 : line.count
        if length > maxLineBytes {
            body(.tooLong)
        } else {
            body(.line(UnsafeRawBufferPointer(rebasing: line[..<length])))
        }
    }

    /// Ends the buffered line with `tail`, the bytes before its `\n`, and releases the buffer.
    private mutating func completePartialLine(with tail: UnsafeRawBufferPointer, _ body: (Frame) -> Void) {
        let lastByte = tail.last ?? partialLine.last
        let length = partialLine.count + tail.count - (lastByte == ASCII.carriageReturn ? 1 : 0)
        if length > maxLineBytes {
            body(.tooLong)
        } else {
            partialLine.append(contentsOf: tail)
            partialLine.withUnsafeBytes { body(.line(UnsafeRawBufferPointer(rebasing: $0[..<length]))) }
        }
        // Released rather than kept for the next split line: most connections are idle most of the time,
        // and an idle connection should cost no buffer at all.
        partialLine = []
    }

    /// Keeps `rest`, the start of a line, for the next chunk, unless that makes the line too long.
    private mutating func bufferPartialLine(_ rest: UnsafeRawBufferPointer, _ body: (Frame) -> Void) {
        let total = partialLine.count + rest.count
        // One byte over the limit is still fine if it is a `\r`: the `\n` may be next.
        let mayStillFit = total <= maxLineBytes || (total == maxLineBytes + 1 && rest.last == ASCII.carriageReturn)
        if mayStillFit {
            partialLine.append(contentsOf: rest)
        } else {
            body(.tooLong)
            partialLine = []
            isSkippingLongLine = true
        }
    }

    @inline(__always)
    private static func firstNewline(in chunk: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < chunk.count, let base = chunk.baseAddress,
              let found = memchr(base + start, Int32(ASCII.newline), chunk.count - start) else { return nil }
        return base.distance(to: found)
    }
}
