import PairsWire
import Testing

private let everyError: [JSONError] = [
    .empty, .unexpectedEnd, .unexpectedByte(offset: 12), .invalidUTF8(offset: 12),
    .controlCharacterInString(offset: 12), .invalidEscape(offset: 12), .unpairedSurrogate(offset: 12),
    .invalidNumber(offset: 12), .numberOutOfRange(offset: 12), .tooDeep(offset: 12), .duplicateKey("name"),
    .trailingData(offset: 12),
]

@Test("every error describes itself in one line of plain text, with the offset where it has one", arguments: everyError)
func errorsDescribeThemselves(error: JSONError) {
    let description = error.description
    #expect(!description.isEmpty)
    #expect(!description.contains("\n"))
    #expect(!description.contains("JSONError"))
    switch error {
    case .empty, .unexpectedEnd: break
    case .duplicateKey: #expect(description.contains("\"name\""))
    default: #expect(description.contains("byte 12"))
    }
}

@Test("a duplicate key is echoed with terminal controls made visible and its length bounded")
func duplicateKeyIsEchoedSafely() {
    let description = JSONError.duplicateKey("\u{1B}[2J\u{202E}x\u{9B}").description
    #expect(!description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    #expect(description.contains(#"\u{1b}[2J\u{202e}x\u{9b}"#))

    let long = JSONError.duplicateKey(String(repeating: "k", count: 5000)).description
    #expect(long.count < 100)
    #expect(long.contains("..."))
}
