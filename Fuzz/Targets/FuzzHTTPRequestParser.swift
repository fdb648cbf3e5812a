@testable import PairsWeb

// Fuzz target: the bytes of a connection that turned out to speak HTTP, through the request parser, cut into
// chunks where the fuzzer says. However the stream is cut, the parser must reach the same outcome at the same
// byte of the stream as when it reads it in one piece; a request it accepts lies within the head's limit, has
// a target and fields of the allowed bytes only, and written out again parses to itself; once decided, it
// stays decided.

/// An outcome with where in the whole stream the head ended, so that runs cut differently can be compared.
private enum Parsed: Equatable {
    case needMoreBytes
    case request(HTTPRequest, headEnd: Int)
    case failure(HTTPRequestError)
}

/// Parses `chunks` until the parser decides; `start` is where the first chunk begins in the stream.
private func parse(_ chunks: [ArraySlice<UInt8>]) -> Parsed {
    var parser = HTTPRequestParser()
    for chunk in chunks {
        let outcome = chunk.withUnsafeBytes { parser.parse($0) }
        switch outcome {
        case .needMoreBytes:
            continue
        case .request(let request, let consumed):
            check(parser.parse([UInt8]("GET / HTTP/1.1\r\n".utf8)) == .request(request, bytesConsumed: 0),
                  "a decided parser read on")
            return .request(request, headEnd: chunk.startIndex + consumed)
        case .failure(let error):
            check(parser.parse([UInt8]("\r\n".utf8)) == .failure(error), "a refusing parser read on")
            return .failure(error)
        }
    }
    return .needMoreBytes
}

/// `request` written out as a client sends it.
private func head(of request: HTTPRequest) -> [UInt8] {
    var text = "\(request.method.rawValue) \(request.target) HTTP/1.\(request.version == .http1_0 ? "0" : "1")\r\n"
    for field in request.headers.fields {
        text += "\(field.name): \(field.value)\r\n"
    }
    return Array((text + "\r\n").utf8)
}

private func isTargetByte(_ byte: UInt8) -> Bool { (0x21...0x7E).contains(byte) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequestParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = ChunkedInput(UnsafeBufferPointer(start: data, count: size))
    let described = { "cuts \(input.cuts), stream \(shown(input.stream))" }

    let whole = parse([input.stream[...]])
    let cut = parse(input.chunks)
    check(cut == whole, "\(described()): cut, the parser gives \(cut); whole, \(whole)")

    guard case .request(let request, let headEnd) = whole else { return 0 }
    check(headEnd <= HTTPRequestParser.maxHeadBytes, "\(described()): a head of \(headEnd) bytes")
    check(input.stream[headEnd - 1] == UInt8(ascii: "\n"), "\(described()): the head ends at \(headEnd), not after a newline")
    check(request.target.first == "/" && request.target.utf8.allSatisfy(isTargetByte), "\(described()): target \(request.target)")
    for field in request.headers.fields {
        check(!field.name.isEmpty && !field.name.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: ":") || $0 >= 0x7F },
              "\(described()): field name \(field.name.debugDescription)")
        check(!field.value.utf8.contains { ($0 < 0x20 && $0 != UInt8(ascii: "\t")) || $0 == 0x7F },
              "\(described()): field value \(field.value.debugDescription)")
    }

    // Written out again it reads the same, where it still fits (a byte that was not UTF-8 is written back
    // as the three bytes of U+FFFD, so a head near the limit may no longer fit).
    let written = head(of: request)
    if written.count <= HTTPRequestParser.maxHeadBytes {
        let again = parse([written[...]])
        check(again == .request(request, headEnd: written.count), "\(described()): written out again, it reads \(again)")
    }
    return 0
}
