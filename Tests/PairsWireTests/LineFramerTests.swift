@testable import PairsWire
import PairsRules
import Testing

/// A frame with its bytes copied out, so frames can be collected and compared.
private enum Piece: Equatable, CustomStringConvertible {
    case line(String)
    case tooLong

    init(_ frame: LineFramer.Frame) {
        switch frame {
        case .line(let bytes): self = .line(String(decoding: bytes, as: UTF8.self))
        case .tooLong: self = .tooLong
        }
    }

    var description: String {
        switch self {
        case .line(let text): "line(\(text.debugDescription))"
        case .tooLong: "tooLong"
        }
    }
}

/// The pieces `stream` holds, worked out the obvious way on the whole stream at once.
///
/// A final unterminated part counts only once it can no longer fit: longer than the limit plus a
/// `\r` that might be half of the terminator.
private func referencePieces(_ stream: [UInt8], maxLineBytes: Int) -> [Piece] {
    var parts = stream.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let unterminated = parts.removeLast()
    var pieces: [Piece] = parts.map { part in
        let line = part.last == UInt8(ascii: "\r") ? part.dropLast() : part
        return line.count > maxLineBytes ? .tooLong : .line(String(decoding: line, as: UTF8.self))
    }
    let mayStillFit = unterminated.count <= maxLineBytes
        || (unterminated.count == maxLineBytes + 1 && unterminated.last == UInt8(ascii: "\r"))
    if !mayStillFit { pieces.append(.tooLong) }
    return pieces
}

/// The pieces a framer yields for `stream` cut into chunks of `chunkSize` bytes.
private func framedPieces(_ stream: [UInt8], chunkSize: Int, maxLineBytes: Int) -> [Piece] {
    var framer = LineFramer(maxLineBytes: maxLineBytes)
    var pieces: [Piece] = []
    var start = 0
    while start < stream.count {
        let end = min(start + chunkSize, stream.count)
        framer.append(Array(stream[start..<end])) { pieces.append(Piece($0)) }
        #expect(framer.bufferedByteCount <= maxLineBytes + 1)
        start = end
    }
    return pieces
}

private let smallLimit = 8

private let fixtureStreams: [String] = [
    "hello\nworld\n",
    "a\r\nb\r\n",
    "\n\n\n",
    "\r\n",
    "\r\r\n",
    "12345678\n123456789\nok\n",
    "12345678\r\n",
    "123456789\r\n",
    "1234567\r\r\n",
    "12345678\rx\n",
    "abc\rdef\n",
    "partial",
    "12345678\r",
    "12345678\r\r",
    "123456789012345",
    "x\n" + String(repeating: "y", count: 30) + "\nz\n",
    String(repeating: "long line one\n", count: 3) + "short\n" + String(repeating: "q", count: 20),
    "é😀\n中文字\n😀😀😀\n",
    "mixed\r\nendings\nand \r in \r middle\r\n\r\n\n",
]

@Test("fixture streams frame the same in every chunk size as on the whole stream", arguments: fixtureStreams)
func everyChunkSizeFramesAlike(stream: String) {
    let bytes = Array(stream.utf8)
    let expected = referencePieces(bytes, maxLineBytes: smallLimit)
    for chunkSize in 1...max(bytes.count, 1) {
        #expect(framedPieces(bytes, chunkSize: chunkSize, maxLineBytes: smallLimit) == expected, "chunk size \(chunkSize)")
    }
}

@Test("random streams cut at random places frame the same as on the whole stream")
func randomStreamsFrameAlike() {
    var random = SplitMix64(seed: 42)
    let alphabet = Array("ab\r\n\n".utf8)
    for _ in 0..<500 {
        let stream = (0..<random.next(below: 80)).map { _ in alphabet[random.next(below: alphabet.count)] }
        var framer = LineFramer(maxLineBytes: smallLimit)
        var pieces: [Piece] = []
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + 1 + random.next(below: 12))
            framer.append(Array(stream[start..<end])) { pieces.append(Piece($0)) }
            start = end
        }
        #expect(pieces == referencePieces(stream, maxLineBytes: smallLimit))
    }
}

@Test("carriage return line feed ends a line like a line feed, and only right before it is a CR dropped")
func carriageReturnHandling() {
    #expect(framedPieces(Array("one\r\ntwo\nthree\r\n".utf8), chunkSize: 100, maxLineBytes: 64)
        == [.line("one"), .line("two"), .line("three")])
    #expect(framedPieces(Array("a\rb\r\r\n\r".utf8), chunkSize: 100, maxLineBytes: 64) == [.line("a\rb\r")])
}

@Test("empty lines are passed on as empty lines")
func emptyLinesArePassedOn() {
    #expect(framedPieces(Array("\n\r\n\nx\n".utf8), chunkSize: 100, maxLineBytes: 64)
        == [.line(""), .line(""), .line(""), .line("x")])
}

@Test("a line of exactly the limit is accepted and one byte more is reported once, then framing recovers")
func limitIsInclusiveAndFramingRecovers() {
    let limit = LineFramer.maxLineBytes
    #expect(limit == 4096)
    let exact = String(repeating: "a", count: limit)
    let over = String(repeating: "b", count: limit + 1)
    let stream = Array("\(exact)\n\(over)\nnext\n\(exact)\r\n\(over)\r\nlast\n".utf8)
    for chunkSize in [1, 7, 4095, 4096, 4097, 4098, stream.count] {
        #expect(framedPieces(stream, chunkSize: chunkSize, maxLineBytes: limit)
            == [.line(exact), .tooLong, .line("next"), .line(exact), .tooLong, .line("last")])
    }
}

@Test("a megabyte without a newline is one tooLong, with nothing buffered, and the next line still works")
func megabyteWithoutNewline() {
    var framer = LineFramer()
    var pieces: [Piece] = []
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 4000)
    for _ in 0..<(1_048_576 / chunk.count + 1) {
        framer.append(chunk) { pieces.append(Piece($0)) }
        #expect(framer.bufferedByteCount <= LineFramer.maxLineBytes)
        #expect(framer.bufferCapacity <= 2 * LineFramer.maxLineBytes)
    }
    #expect(pieces == [.tooLong])
    #expect(framer.bufferedByteCount == 0)
    #expect(framer.bufferCapacity == 0)
    #expect(framer.hasPartialLine)
    framer.append(Array("end of the long line\n{\"type\":\"ping\"}\n".utf8)) { pieces.append(Piece($0)) }
    #expect(pieces == [.tooLong, .line(#"{"type":"ping"}"#)])
    #expect(!framer.hasPartialLine)
}

@Test("chunks of whole lines are framed without allocating a buffer")
func wholeLinesAllocateNoBuffer() {
    var framer = LineFramer()
    var count = 0
    for _ in 0..<100 {
        framer.append(Array("{\"type\":\"flip\",\"card\":3}\n\n{}\r\n".utf8)) { _ in count += 1 }
        #expect(framer.bufferCapacity == 0)
        #expect(!framer.hasPartialLine)
    }
    #expect(count == 300)
}

@Test("lines that arrive whole are handed over as views of the caller's chunk, not copies")
func wholeLinesAreNotCopied() {
    var framer = LineFramer()
    let chunk = Array("first\nsecond\n".utf8)
    chunk.withUnsafeBytes { buffer in
        let range = UInt(bitPattern: buffer.baseAddress)..<UInt(bitPattern: buffer.baseAddress! + buffer.count)
        framer.append(buffer) { frame in
            guard case .line(let line) = frame else {
                Issue.record("expected a line")
                return
            }
            #expect(range.contains(UInt(bitPattern: line.baseAddress)))
        }
    }
}

@Test("the buffer for a split line is released as soon as the line completes")
func bufferIsReleasedAfterASplitLine() {
    var framer = LineFramer()
    var pieces: [Piece] = []
    framer.append(Array(String(repeating: "s", count: 3000).utf8)) { pieces.append(Piece($0)) }
    #expect(framer.hasPartialLine)
    #expect(framer.bufferedByteCount == 3000)
    #expect(framer.bufferCapacity >= 3000)
    framer.append(Array("tail\nwhole\n".utf8)) { pieces.append(Piece($0)) }
    #expect(pieces == [.line(String(repeating: "s", count: 3000) + "tail"), .line("whole")])
    #expect(!framer.hasPartialLine)
    #expect(framer.bufferedByteCount == 0)
    #expect(framer.bufferCapacity == 0)
}

@Test("a pending carriage return is kept until the next byte shows whether it ends the line")
func pendingCarriageReturn() {
    var framer = LineFramer(maxLineBytes: 4)
    var pieces: [Piece] = []
    framer.append(Array("abcd\r".utf8)) { pieces.append(Piece($0)) }
    #expect(pieces.isEmpty)
    #expect(framer.bufferedByteCount == 5)
    framer.append(Array("\n".utf8)) { pieces.append(Piece($0)) }
    #expect(pieces == [.line("abcd")])
}
