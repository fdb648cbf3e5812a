@testable import PairsWire
import Testing

/// What the general path (the JSON parser and field checks) makes of `line`.
private func generalDecoding(_ line: [UInt8]) -> Result<Request, RequestError> {
    line.withUnsafeBytes { bytes in
        Result { () throws(RequestError) in try RequestDecoder.decodeJSON(bytes) }
    }
}

private func fastDecoding(_ line: [UInt8]) -> Request? {
    line.withUnsafeBytes { FlipFastPath.decode($0) }
}

private func compactFlip(card: String, id: String?) -> [UInt8] {
    Array((#"{"type":"flip","card":"# + card + (id.map { #","id":"# + $0 } ?? "") + "}").utf8)
}

@Suite("The flip fast path")
struct FlipFastPathTests {
    @Test("flips in the compact form bots send decode on the fast path to exactly what the general path gives")
    func compactFlipsMatchTheGeneralPath() throws {
        let numbers = ["0", "1", "9", "10", "15", "63", "64", "999", "123456789012345678"]
        for card in numbers {
            for id in [nil] + numbers {
                let line = compactFlip(card: card, id: id)
                let fast = try #require(fastDecoding(line), "\(String(decoding: line, as: UTF8.self))")
                #expect(generalDecoding(line) == .success(fast))
            }
        }
    }

    @Test("anything but the compact form is left to the general path", arguments: [
        #"{"type":"flip","card":01,"id":2}"#, #"{"type":"flip","card":1,"id":02}"#,
        #"{"type":"flip","card":-1,"id":2}"#, #"{"type":"flip","card":1,"id":-2}"#,
        #"{"type":"flip","card":1.0,"id":2}"#, #"{"type":"flip","card":1e2}"#,
        #"{"type":"flip","card":1234567890123456789}"#, #"{"type":"flip","card":1,"id":1234567890123456789}"#,
        #"{"type":"flip","card":"# + String(repeating: "9", count: 400) + "}",
        #"{"type":"flip","card":1,"id":"a"}"#, #"{"type":"flip","card":"1"}"#,
        #"{"type":"flip","card":}"#, #"{"type":"flip","card":1,"id":}"#, #"{"type":"flip","card":1"#,
        #"{"type":"flip","card":1,"id":2,"card":3}"#, #"{"type":"flip","card":1,"id":2,"x":3}"#,
        #"{"type":"flip","card":1,"id":2 }"#, #"{"type":"flip","card": 1}"#, #" {"type":"flip","card":1}"#,
        #"{"card":1,"type":"flip"}"#, #"{"type":"flip","id":2,"card":1}"#, #"{"type":"flipper","card":1}"#,
        #"{"type":"flip","card":1}}"#, #"{"type":"flip","card":1,"id":2}x}"#, "{\"type\":\"flip\",\"card\":1}\r",
    ])
    func otherFormsTakeTheGeneralPath(_ text: String) {
        #expect(fastDecoding(Array(text.utf8)) == nil)
    }

    @Test("changing any one byte of a compact flip never makes the fast path disagree with the general path")
    func everyOneByteChangeAgrees() {
        let original = compactFlip(card: "12", id: "3405")
        let replacements: [UInt8] = Array("0159-+.e\"{}, :x".utf8) + [0, 0x7F, 0xC3]
        for position in original.indices {
            for byte in replacements where byte != original[position] {
                var line = original
                line[position] = byte
                if let fast = fastDecoding(line) {
                    #expect(generalDecoding(line) == .success(fast), "\(String(decoding: line, as: UTF8.self))")
                }
            }
        }
    }
}
