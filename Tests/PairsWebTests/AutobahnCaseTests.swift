@testable import PairsWeb
import PairsTestSupport
import Testing

extension AutobahnCase: CustomTestStringConvertible {
    public var testDescription: String { id }
}

@Test("Autobahn cases: the reference gives the expected events", arguments: autobahnCases)
func referenceMatchesAutobahn(testCase: AutobahnCase) {
    #expect(referenceEvents(testCase.frames) == testCase.expected)
}

@Test("Autobahn cases: the decoder gives the expected events in every piece size", arguments: autobahnCases)
func decoderMatchesAutobahn(testCase: AutobahnCase) {
    let stream = WebSocketTestClient.encode(testCase.frames)
    for size in Chunking.sizes(for: stream.count) {
        #expect(decodedEvents(stream, pieceSize: size) == testCase.expected, "piece size \(size)")
    }
}

@Test("every failure's close code is the one Autobahn expects: 1002 framing, 1003 binary, 1007 UTF-8, 1009 size")
func failureCloseCodes() {
    let codes = autobahnCases.flatMap(\.expected).compactMap { event -> (WebSocketFrameError, UInt16)? in
        guard case .failure(let error) = event else { return nil }
        return (error, error.closeCode.rawValue)
    }
    for (error, code) in codes {
        switch error {
        case .binaryMessage: #expect(code == 1003)
        case .invalidUTF8: #expect(code == 1007)
        case .messageTooLong: #expect(code == 1009)
        default: #expect(code == 1002, "\(error)")
        }
    }
    #expect(Set(codes.map(\.1)) == [1002, 1003, 1007, 1009])
}
