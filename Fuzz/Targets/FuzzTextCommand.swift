@testable import PairsWire

// Fuzz target: a text command as a person types it into netcat (`join kitchen`, `flip 3`, `say hi`). The
// parser must answer every line with a request, a typed error or nothing, never trap, agree with the
// decoder that hands it non-JSON lines, and what it parses must survive a client's encoding unchanged.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTextCommand(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let line = Array(text.utf8)
    let result = Result { () throws(RequestError) in try TextCommand.parse(text) }
    switch result {
    case .success(let request?):
        checkDecodedRequest(request, line: line)
    case .success(nil):
        check(text.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" }, "\(shown(line)): parsed to nothing, but is not blank")
    case .failure(let error):
        checkDecodingError(error, line: line)
    }
    // A line whose first non-blank byte is not `{` is a text command to the decoder too.
    if line.first(where: { $0 != ASCII.space && $0 != ASCII.tab }) != ASCII.leftBrace {
        let decoded = Result { () throws(RequestError) in try RequestDecoder.decode(line: line) }
        check(decoded == result, "\(shown(line)): the parser gives \(result), the decoder \(decoded)")
    }
    return 0
}
