@testable import PairsWire

// Fuzz target: a connection's byte stream through the line framer, cut into chunks where the fuzzer says.
// However the stream is cut, the framer must give the same lines and the same too-long reports as a simple
// reference splitter that sees the whole stream at once, and never hold more than a line and its `\r`.

/// A line or a too-long report, copied out of the framer's callback so that runs can be compared.
private enum Framed: Equatable {
    case line([UInt8])
    case tooLong
}

/// The framer's limit from the input's parameter byte: small limits reach every path of the framer in short
/// inputs; the protocol's limit is kept in play.
private func maxLineBytes(_ parameter: UInt8) -> Int {
    parameter < 0xF0 ? Int(parameter % 48) : LineFramer.maxLineBytes
}

/// What the framer must report for `stream`: each line ended by `\n`, without it and one `\r` before it, or
/// `.tooLong` in its place; then `.tooLong` for an unfinished last line already longer than a line can be.
private func referenceFrames(of stream: [UInt8], maxLineBytes: Int) -> [Framed] {
    var lines = stream.split(separator: ASCII.newline, omittingEmptySubsequences: false)
    let unfinished = lines.removeLast()
    var frames: [Framed] = lines.map { line in
        let content = line.last == ASCII.carriageReturn ? line.dropLast() : line
        return content.count > maxLineBytes ? .tooLong : .line(Array(content))
    }
    let content = unfinished.last == ASCII.carriageReturn ? unfinished.dropLast() : unfinished
    if content.count > maxLineBytes { frames.append(.tooLong) }
    return frames
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLineFramer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = ChunkedInput(UnsafeBufferPointer(start: data, count: size))
    let limit = size >= 2 ? maxLineBytes(input.parameter) : LineFramer.maxLineBytes
    var framer = LineFramer(maxLineBytes: limit)
    var frames: [Framed] = []
    var bytesSinceNewline = 0
    let described = { "limit \(limit), cuts \(input.cuts), stream \(shown(input.stream))" }
    for chunk in input.chunks {
        chunk.withUnsafeBytes { bytes in
            framer.append(bytes) { frame in
                switch frame {
                case .line(let line): frames.append(.line(Array(line)))
                case .tooLong: frames.append(.tooLong)
                }
            }
        }
        if let newline = chunk.lastIndex(of: ASCII.newline) {
            bytesSinceNewline = chunk.endIndex - newline - 1
        } else {
            bytesSinceNewline += chunk.count
        }
        check(framer.bufferedByteCount <= limit + 1, "\(described()): \(framer.bufferedByteCount) bytes buffered")
        check(framer.hasPartialLine == (bytesSinceNewline > 0), "\(described()): hasPartialLine is \(framer.hasPartialLine)")
        check(framer.bufferedByteCount > 0 || framer.bufferCapacity == 0, "\(described()): holds storage with nothing buffered")
    }
    let expected = referenceFrames(of: input.stream, maxLineBytes: limit)
    check(frames == expected, "\(described()): the framer gives \(frames), the reference \(expected)")
    return 0
}
