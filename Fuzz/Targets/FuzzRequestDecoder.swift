@testable import PairsWire

// Fuzz target: one line from a client, as the framer hands it to the request decoder (any bytes, JSON or a
// text command). The decoder must answer every line with a request, a typed error or nothing, never trap,
// and what it decodes must survive a client's encoding unchanged.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let line = UnsafeRawBufferPointer(start: data, count: size)
    let result = Result { () throws(RequestError) in try RequestDecoder.decode(line: line) }
    switch result {
    case .success(let request?):
        checkDecodedRequest(request, line: line)
    case .success(nil):
        check(line.allSatisfy { $0 == ASCII.space || $0 == ASCII.tab }, "\(shown(line)): decoded to nothing, but is not blank")
    case .failure(let error):
        checkDecodingError(error, line: line)
    }
    // The other entry point, for bytes in a collection, answers the same.
    let fromArray = Result { () throws(RequestError) in try RequestDecoder.decode(line: Array(line)) }
    check(fromArray == result, "\(shown(line)): \(result) from a buffer, \(fromArray) from an array")
    // The flip fast path either gives up or agrees with the general JSON path.
    if let fast = FlipFastPath.decode(line) {
        let general = Result { () throws(RequestError) in try RequestDecoder.decodeJSON(line) }
        check(general == .success(fast), "\(shown(line)): the fast path decodes \(fast), the general one \(general)")
    }
    return 0
}
