import PairsWire
import Testing

private func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}

@Test("commas and colons are placed automatically, however containers nest")
func commasAndColonsArePlaced() {
    var writer = JSONWriter()
    writer.beginObject()
    writer.key("type")
    writer.string("state")
    writer.key("scores")
    writer.beginArray()
    writer.integer(3)
    writer.integer(-2)
    writer.beginObject()
    writer.endObject()
    writer.beginArray()
    writer.endArray()
    writer.null()
    writer.endArray()
    writer.key("board")
    writer.beginObject()
    writer.key("over")
    writer.bool(false)
    writer.key("lucky")
    writer.bool(true)
    writer.endObject()
    writer.key("ratio")
    writer.double(0.5)
    writer.endObject()
    #expect(text(writer.bytes) == #"{"type":"state","scores":[3,-2,{},[],null],"board":{"over":false,"lucky":true},"ratio":0.5}"#)
}

@Test("values at the top level and in empty containers need no commas")
func topLevelAndEmptyContainers() {
    #expect(text(JSONWriter.encode(nil)) == "null")
    #expect(text(JSONWriter.encode(42)) == "42")
    #expect(text(JSONWriter.encode([])) == "[]")
    #expect(text(JSONWriter.encode([:])) == "{}")
    #expect(text(JSONWriter.encode([[], [[]], [:]])) == "[[],[[]],{}]")
}

@Test("integers are written exactly across the whole range of every width", arguments: [
    Int64.min, Int64.min + 1, -1_000_000_007, -10, -9, -1, 0, 1, 9, 10, 99, 100, 4096, 1_000_000_007,
    Int64.max - 1, Int64.max,
])
func integersAreWrittenExactly(value: Int64) {
    var writer = JSONWriter()
    writer.integer(value)
    #expect(text(writer.bytes) == String(value))
}

@Test("integers of other types, including ones wider than 64 bits, are written in decimal")
func otherIntegerTypes() {
    var writer = JSONWriter()
    writer.beginArray()
    writer.integer(UInt8(255))
    writer.integer(Int8(-128))
    writer.integer(UInt64.max)
    writer.integer(Int(-5))
    writer.integer(UInt64.max.multipliedFullWidth(by: 10).high)
    writer.integer(Int128(Int64.min) * 1000)
    writer.endArray()
    #expect(text(writer.bytes) == "[255,-128,18446744073709551615,-5,9,-9223372036854775808000]")
}

@Test("doubles are written so they read back as the same value, and non-finite ones as null")
func doublesRoundTrip() throws {
    for value in [0.1, -2.5, 1e300, .leastNonzeroMagnitude, 1.0, -0.0, 123456.789, .greatestFiniteMagnitude] {
        var writer = JSONWriter()
        writer.double(value)
        let parsed = try JSONParser.parse(writer.bytes)
        #expect(parsed.numberValue?.doubleValue == value)
    }
    for value in [Double.infinity, -.infinity, .nan] {
        var writer = JSONWriter()
        writer.double(value)
        #expect(text(writer.bytes) == "null")
    }
}

@Test("quotes, backslashes, control characters and DEL are escaped; all other text is written as is")
func stringsAreEscaped() {
    #expect(text(JSONWriter.encode(#"say "hi" \ bye"#)) == #""say \"hi\" \\ bye""#)
    #expect(text(JSONWriter.encode("\n\r\t\u{08}\u{0C}")) == #""\n\r\t\b\f""#)
    #expect(text(JSONWriter.encode("\u{0}\u{1}\u{1B}\u{1F}\u{7F}")) == #""\u0000\u0001\u001b\u001f\u007f""#)
    #expect(text(JSONWriter.encode("/ é 中 😀 \u{80} \u{202E}")) == "\"/ é 中 😀 \u{80} \u{202E}\"")
    // Keys go through the same escaping.
    var writer = JSONWriter()
    writer.beginObject()
    writer.key("a\"b\n")
    writer.integer(1)
    writer.endObject()
    #expect(text(writer.bytes) == #"{"a\"b\n":1}"#)
}

@Test("every byte of the output is printable ASCII or part of a multi-byte character")
func outputHasNoRawControls() {
    let all = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)
    let bytes = JSONWriter.encode(.string(all))
    #expect(!bytes.contains { $0 < 0x20 || $0 == 0x7F })
}

@Test("raw bytes are spliced in as one value, with commas around them")
func rawValuesAreSpliced() {
    let board = Array(#"{"rows":4}"#.utf8)
    var writer = JSONWriter()
    writer.beginArray()
    writer.integer(1)
    writer.raw(board)
    writer.raw(board[...])
    writer.endArray()
    #expect(text(writer.bytes) == #"[1,{"rows":4},{"rows":4}]"#)
}

private let roundTripValues: [JSONValue] = [
    nil, true, false, 0, -1, .number(.integer(.max)), .number(.integer(.min)), 0.5, -1e-7, 6.02e23,
    "", "plain", .string(String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)),
    #"quotes " and backslashes \ and \" and \\"#, "non-ASCII: é ß 中文 Ωμέγα", "emoji: 😀 👩‍💻 🇫🇷 e\u{301}",
    "\u{7F}\u{80}\u{9F}\u{200E}\u{FEFF}\u{10FFFF}", "\u{2028}\u{2029}",
    [], [:], [1, "two", [3.5, [nil]], ["four": [true]]],
    ["type": "state", "board": ["rows": 4, "cards": [nil, "cat", nil]], "": "", "\u{0}": "nul key"],
]

@Test("parsing what the writer encodes gives back the same value", arguments: roundTripValues)
func parseOfEncodeIsIdentity(value: JSONValue) throws {
    let encoded = JSONWriter.encode(value)
    #expect(try JSONParser.parse(encoded) == value)
}
