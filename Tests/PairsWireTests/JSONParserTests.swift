import Foundation
import PairsRules
import PairsWire
import Testing

/// The parser's outcome as a value, so a table of inputs can be checked with one `#expect` each.
private func outcome(_ bytes: [UInt8], limits: JSONParser.Limits = .default) -> Result<JSONValue, JSONError> {
    Result { () throws(JSONError) in try JSONParser.parse(bytes, limits: limits) }
}

private func outcome(_ text: String, limits: JSONParser.Limits = .default) -> Result<JSONValue, JSONError> {
    outcome(Array(text.utf8), limits: limits)
}

private func nestedArrays(depth: Int) -> String {
    String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
}

/// An input and what parsing it must give, shown readably when a case fails.
struct ParserSample: Sendable, CustomTestStringConvertible {
    let bytes: [UInt8]
    let expected: Result<JSONValue, JSONError>

    init(_ text: String, _ value: JSONValue) {
        bytes = Array(text.utf8)
        expected = .success(value)
    }

    init(_ text: String, _ error: JSONError) {
        bytes = Array(text.utf8)
        expected = .failure(error)
    }

    init(_ bytes: [UInt8], _ error: JSONError) {
        self.bytes = bytes
        expected = .failure(error)
    }

    var testDescription: String {
        let shown = bytes.map { byte in
            (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
        }
        return shown.joined()
    }
}

// MARK: - Valid documents

private let validSamples: [ParserSample] = [
    ParserSample("null", .null),
    ParserSample("true", true),
    ParserSample("false", false),
    ParserSample("0", 0),
    ParserSample("-0", 0),
    ParserSample("7", 7),
    ParserSample("-123", -123),
    ParserSample("9223372036854775807", .number(.integer(.max))),
    ParserSample("-9223372036854775808", .number(.integer(.min))),
    ParserSample("9223372036854775808", .number(.double(9.223372036854775808e18))),
    ParserSample("-9223372036854775809", .number(.double(-9.223372036854775809e18))),
    ParserSample("99999999999999999999999", .number(.double(1e23))),
    ParserSample("1.5", 1.5),
    ParserSample("-0.25", -0.25),
    ParserSample("0.0", 0.0),
    ParserSample("1.0", 1.0),
    ParserSample("1e3", 1000.0),
    ParserSample("1E+3", 1000.0),
    ParserSample("25e-2", 0.25),
    ParserSample("-1.25E-1", -0.125),
    ParserSample("1e-400", 0.0),
    ParserSample("1.7976931348623157e308", .number(.double(.greatestFiniteMagnitude))),
    ParserSample(#""""#, ""),
    ParserSample(#""abc""#, "abc"),
    ParserSample(#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
    ParserSample(#""\u0041\u00e9\u4E2D""#, "Aé中"),
    ParserSample(#""\uD83D\uDE00""#, "😀"),
    ParserSample(#""\ud83d\ude00 and \u2603""#, "😀 and ☃"),
    ParserSample(#""\u0000""#, "\u{0}"),
    ParserSample(#""\uFFFF""#, "\u{FFFF}"),
    ParserSample(#""a\nb and a long tail past the small-string size""#, "a\nb and a long tail past the small-string size"),
    ParserSample("\"héllo 中文 😀 \u{7F}\"", "héllo 中文 😀 \u{7F}"),
    ParserSample("\"\u{10FFFF}\"", "\u{10FFFF}"),
    ParserSample("[]", []),
    ParserSample("[ ]", []),
    ParserSample("[1,2,3]", [1, 2, 3]),
    ParserSample("[[],[[]],{}]", [[], [[]], [:]]),
    ParserSample("{}", [:]),
    ParserSample("{ }", [:]),
    ParserSample(
        #"{"type":"flip","card":3,"flags":[true,false,null],"nested":{"k":"v"}}"#,
        ["type": "flip", "card": 3, "flags": [true, false, nil], "nested": ["k": "v"]]),
    ParserSample(" \t\r\n{ \"a\" : 1 , \"b\" : [ 2 , 3 ] } \r\n\t", ["a": 1, "b": [2, 3]]),
    ParserSample(#"{"a":{"a":{"a":1}}}"#, ["a": ["a": ["a": 1]]]),
    ParserSample(#"{"":0}"#, ["": 0]),
]

@Test("every kind of valid JSON value parses to the expected value", arguments: validSamples)
func validDocumentsParse(sample: ParserSample) {
    #expect(outcome(sample.bytes) == sample.expected)
}

@Test("object members keep the order they were written in")
func objectMembersKeepTheirOrder() throws {
    let value = try JSONParser.parse(#"{"z":1,"a":2,"m":3}"#)
    #expect(value.objectValue?.keys == ["z", "a", "m"])
}

@Test("strings, arrays, slices and raw buffers of the same bytes parse alike")
func everyInputFormParsesAlike() throws {
    let text = #"{"a":[1,"x"]}"#
    let bytes = Array(text.utf8)
    let expected: JSONValue = ["a": [1, "x"]]
    #expect(try JSONParser.parse(text) == expected)
    #expect(try JSONParser.parse(bytes) == expected)
    #expect(try JSONParser.parse(bytes[...]) == expected)
    #expect(try JSONParser.parse(text.utf8) == expected)
    #expect(try bytes.withUnsafeBytes { buffer throws(JSONError) in try JSONParser.parse(buffer) } == expected)
    // A slice that does not start at index 0 and ignores bytes around it.
    let framed = Array("xx\(text)yy".utf8)
    #expect(try JSONParser.parse(framed[2..<(framed.count - 2)]) == expected)
}

// MARK: - Invalid documents

private let invalidSamples: [ParserSample] = [
    // Nothing there.
    ParserSample("", .empty),
    ParserSample(" \t\r\n ", .empty),
    // Structure.
    ParserSample("[1,]", .unexpectedByte(offset: 3)),
    ParserSample("[,1]", .unexpectedByte(offset: 1)),
    ParserSample("[1 2]", .unexpectedByte(offset: 3)),
    ParserSample(#"{"a":1,}"#, .unexpectedByte(offset: 7)),
    ParserSample(#"{"a" 1}"#, .unexpectedByte(offset: 5)),
    ParserSample(#"{"a":}"#, .unexpectedByte(offset: 5)),
    ParserSample(#"{"a":1 "b":2}"#, .unexpectedByte(offset: 7)),
    ParserSample("{1:2}", .unexpectedByte(offset: 1)),
    ParserSample("{a:1}", .unexpectedByte(offset: 1)),
    ParserSample("]", .unexpectedByte(offset: 0)),
    ParserSample("}", .unexpectedByte(offset: 0)),
    ParserSample("[}", .unexpectedByte(offset: 1)),
    ParserSample("{]", .unexpectedByte(offset: 1)),
    ParserSample("{'a':1}", .unexpectedByte(offset: 1)),
    ParserSample("['a']", .unexpectedByte(offset: 1)),
    ParserSample("// comment\n1", .unexpectedByte(offset: 0)),
    ParserSample("/* comment */ 1", .unexpectedByte(offset: 0)),
    ParserSample("[1] // comment", .trailingData(offset: 4)),
    ParserSample("\u{0B}1", .unexpectedByte(offset: 0)),
    ParserSample("\u{A0}1", .unexpectedByte(offset: 0)),
    // Literals.
    ParserSample("nul", .unexpectedEnd),
    ParserSample("nulL", .unexpectedByte(offset: 3)),
    ParserSample("True", .unexpectedByte(offset: 0)),
    ParserSample("falsey", .trailingData(offset: 5)),
    ParserSample("NaN", .unexpectedByte(offset: 0)),
    ParserSample("Infinity", .unexpectedByte(offset: 0)),
    ParserSample("undefined", .unexpectedByte(offset: 0)),
    // Numbers.
    ParserSample("-Infinity", .invalidNumber(offset: 0)),
    ParserSample("01", .invalidNumber(offset: 0)),
    ParserSample("00", .invalidNumber(offset: 0)),
    ParserSample("-01", .invalidNumber(offset: 0)),
    ParserSample("[007]", .invalidNumber(offset: 1)),
    ParserSample("+1", .invalidNumber(offset: 0)),
    ParserSample(".5", .invalidNumber(offset: 0)),
    ParserSample("1.", .invalidNumber(offset: 0)),
    ParserSample("1.e5", .invalidNumber(offset: 0)),
    ParserSample("1e", .invalidNumber(offset: 0)),
    ParserSample("1e+", .invalidNumber(offset: 0)),
    ParserSample("1e+-1", .invalidNumber(offset: 0)),
    ParserSample("-", .invalidNumber(offset: 0)),
    ParserSample("- 1", .invalidNumber(offset: 0)),
    ParserSample("--1", .invalidNumber(offset: 0)),
    ParserSample("0x10", .trailingData(offset: 1)),
    ParserSample("1 2", .trailingData(offset: 2)),
    ParserSample("1.5.2", .trailingData(offset: 3)),
    ParserSample("1e400", .numberOutOfRange(offset: 0)),
    ParserSample("-1e400", .numberOutOfRange(offset: 0)),
    ParserSample("[1e309]", .numberOutOfRange(offset: 1)),
    ParserSample("1.8e308", .numberOutOfRange(offset: 0)),
    ParserSample(String(repeating: "9", count: 400), .numberOutOfRange(offset: 0)),
    // Strings.
    ParserSample(#""abc"#, .unexpectedEnd),
    ParserSample("\"a\u{01}b\"", .controlCharacterInString(offset: 2)),
    ParserSample("\"a\tb\"", .controlCharacterInString(offset: 2)),
    ParserSample("\"a\nb\"", .controlCharacterInString(offset: 2)),
    ParserSample("\"\u{1B}[2J\"", .controlCharacterInString(offset: 1)),
    ParserSample("\"\u{1F}\"", .controlCharacterInString(offset: 1)),
    ParserSample(#""\x41""#, .invalidEscape(offset: 1)),
    ParserSample(#""\'""#, .invalidEscape(offset: 1)),
    ParserSample(#""\U0041""#, .invalidEscape(offset: 1)),
    ParserSample(#""\u12""#, .invalidEscape(offset: 1)),
    ParserSample(#""\u12G4""#, .invalidEscape(offset: 1)),
    ParserSample(#""ab\u 123""#, .invalidEscape(offset: 3)),
    ParserSample(#""\"#, .unexpectedEnd),
    ParserSample(#""\u00"#, .unexpectedEnd),
    ParserSample(#""\uD800""#, .unpairedSurrogate(offset: 1)),
    ParserSample(#""\uDC00""#, .unpairedSurrogate(offset: 1)),
    ParserSample(#""\uDFFF\uD800""#, .unpairedSurrogate(offset: 1)),
    ParserSample(#""\uD800\u0041""#, .unpairedSurrogate(offset: 1)),
    ParserSample(#""\uDBFF\uDBFF""#, .unpairedSurrogate(offset: 1)),
    ParserSample(#""\uD800\n""#, .unpairedSurrogate(offset: 1)),
    ParserSample(#""\uD800x""#, .unpairedSurrogate(offset: 1)),
    ParserSample(#""x\uD83D""#, .unpairedSurrogate(offset: 2)),
    ParserSample(#""\uD83D\uZZZZ""#, .invalidEscape(offset: 7)),
    ParserSample(#""\uD83D"#, .unexpectedEnd),
    // NUL, anywhere.
    ParserSample([0x00], .unexpectedByte(offset: 0)),
    ParserSample([0x20, 0x00], .unexpectedByte(offset: 1)),
    ParserSample([0x31, 0x00], .trailingData(offset: 1)),
    ParserSample([0x5B, 0x31, 0x2C, 0x00, 0x5D], .unexpectedByte(offset: 3)),
    ParserSample([0x22, 0x00, 0x22], .controlCharacterInString(offset: 1)),
    ParserSample([0x7B, 0x22, 0x61, 0x00, 0x22, 0x3A, 0x31, 0x7D], .controlCharacterInString(offset: 3)),
    // Invalid UTF-8, in strings.
    ParserSample([0x22, 0x80, 0x22], .invalidUTF8(offset: 1)),  // lone continuation byte
    ParserSample([0x22, 0xBF, 0x22], .invalidUTF8(offset: 1)),
    ParserSample([0x22, 0xC0, 0xAF, 0x22], .invalidUTF8(offset: 1)),  // overlong "/"
    ParserSample([0x22, 0xC1, 0xBF, 0x22], .invalidUTF8(offset: 1)),  // overlong DEL
    ParserSample([0x22, 0xC0, 0x80, 0x22], .invalidUTF8(offset: 1)),  // overlong NUL ("modified UTF-8")
    ParserSample([0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8(offset: 1)),  // overlong, 3 bytes
    ParserSample([0x22, 0xE0, 0x9F, 0xBF, 0x22], .invalidUTF8(offset: 1)),  // overlong U+07FF
    ParserSample([0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], .invalidUTF8(offset: 1)),  // overlong, 4 bytes
    ParserSample([0x22, 0xF0, 0x8F, 0xBF, 0xBF, 0x22], .invalidUTF8(offset: 1)),  // overlong U+FFFF
    ParserSample([0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8(offset: 1)),  // U+D800 encoded
    ParserSample([0x22, 0xED, 0xBF, 0xBF, 0x22], .invalidUTF8(offset: 1)),  // U+DFFF encoded
    ParserSample([0x22, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, 0x22], .invalidUTF8(offset: 1)),  // CESU-8 pair
    ParserSample([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8(offset: 1)),  // U+110000
    ParserSample([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], .invalidUTF8(offset: 1)),
    ParserSample([0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22], .invalidUTF8(offset: 1)),  // old 5-byte form
    ParserSample([0x22, 0xFE, 0x22], .invalidUTF8(offset: 1)),
    ParserSample([0x22, 0xFF, 0x22], .invalidUTF8(offset: 1)),
    ParserSample([0x22, 0xC3, 0x28, 0x22], .invalidUTF8(offset: 1)),  // continuation missing
    ParserSample([0x22, 0xE2, 0x82, 0x22], .invalidUTF8(offset: 1)),  // truncated euro sign
    ParserSample([0x22, 0xF0, 0x9F, 0x98, 0x28, 0x22], .invalidUTF8(offset: 1)),  // bad fourth byte
    ParserSample([0x22, 0x61, 0xC3], .invalidUTF8(offset: 2)),  // input ends mid-sequence
    ParserSample([0x22, 0xF0, 0x9F, 0x98], .invalidUTF8(offset: 1)),
    ParserSample([0x22, 0x5C, 0x6E, 0xC3, 0x22], .invalidUTF8(offset: 3)),  // after an escape
    ParserSample([0x7B, 0x22, 0xC0, 0x80, 0x22, 0x3A, 0x31, 0x7D], .invalidUTF8(offset: 2)),  // in a key
    // Invalid UTF-8, or any non-ASCII byte, outside strings.
    ParserSample([0xC3, 0xA9], .unexpectedByte(offset: 0)),
    ParserSample([0xEF, 0xBB, 0xBF, 0x31], .unexpectedByte(offset: 0)),  // byte order mark
    ParserSample([0x31, 0xFF], .trailingData(offset: 1)),
    // Duplicate keys.
    ParserSample(#"{"a":1,"a":2}"#, .duplicateKey("a")),
    ParserSample(#"{"a":1,"b":{"a":1,"b":2,"b":3}}"#, .duplicateKey("b")),
    ParserSample(#"{"\u0061":1,"a":2}"#, .duplicateKey("a")),
    // Canonically equivalent keys are the same key (see JSONParser): precomposed and decomposed é.
    ParserSample(#"{"\u00e9":1,"e\u0301":2}"#, .duplicateKey("é")),
    // Truncation.
    ParserSample("[", .unexpectedEnd),
    ParserSample("{", .unexpectedEnd),
    ParserSample(#"{"a""#, .unexpectedEnd),
    ParserSample(#"{"a":"#, .unexpectedEnd),
    ParserSample("[1", .unexpectedEnd),
    ParserSample("[1,", .unexpectedEnd),
    ParserSample("{\"a\":1", .unexpectedEnd),
    // Nesting one level past the default limit of 32.
    ParserSample(nestedArrays(depth: 33), .tooDeep(offset: 32)),
    ParserSample(String(repeating: #"{"a":"#, count: 33) + "1" + String(repeating: "}", count: 33), .tooDeep(offset: 160)),
    ParserSample(String(repeating: "[", count: 4096), .tooDeep(offset: 32)),
]

@Test("each kind of invalid input fails with its own error", arguments: invalidSamples)
func invalidDocumentsFail(sample: ParserSample) {
    #expect(outcome(sample.bytes) == sample.expected)
}

@Test("nesting exactly at the depth limit parses and one level more does not")
func depthLimitIsInclusive() {
    #expect(throws: Never.self) { try JSONParser.parse(nestedArrays(depth: 32)) }
    #expect(outcome(nestedArrays(depth: 33)) == .failure(.tooDeep(offset: 32)))

    let custom = JSONParser.Limits(maxDepth: 3)
    #expect(outcome("[[[1]]]", limits: custom) == .success([[[1]]]))
    #expect(outcome(#"[{"a":[1]}]"#, limits: custom) == .success([["a": [1]]]))
    #expect(outcome("[[[[1]]]]", limits: custom) == .failure(.tooDeep(offset: 3)))

    let scalarsOnly = JSONParser.Limits(maxDepth: 0)
    #expect(outcome("1", limits: scalarsOnly) == .success(1))
    #expect(outcome("[]", limits: scalarsOnly) == .failure(.tooDeep(offset: 0)))
}

@Test("the deepest supported nesting parses without exhausting the stack")
func deepestSupportedNestingParses() throws {
    let limits = JSONParser.Limits(maxDepth: JSONParser.Limits.maxSupportedDepth)
    let depth = JSONParser.Limits.maxSupportedDepth
    let objects = String(repeating: #"{"k":["#, count: depth / 2) + String(repeating: "]}", count: depth / 2)
    #expect(throws: Never.self) { try JSONParser.parse(objects, limits: limits) }
    #expect(outcome(nestedArrays(depth: depth + 1), limits: limits) == .failure(.tooDeep(offset: depth)))
}

@Test("a duplicate key is found among hundreds of keys, however many members precede it")
func duplicateKeysAreFoundInLargeObjects() {
    for count in [2, 15, 16, 17, 40, 800] {
        let members = (0..<count).map { #""k\#($0)":\#($0)"# }
        let unique = "{" + members.joined(separator: ",") + "}"
        #expect(outcome(unique).map { $0.objectValue?.count } == .success(count))
        for duplicate in [0, count / 2, count - 1] {
            let withDuplicate = "{" + members.joined(separator: ",") + #","k\#(duplicate)":null}"#
            #expect(outcome(withDuplicate) == .failure(.duplicateKey("k\(duplicate)")))
        }
    }
}

@Test("every strict prefix of a valid document is an error, not a crash")
func everyPrefixOfAValidDocumentFails() {
    let documents = [
        #"{"type":"hello","name":"Zoë 😀","protocol":1,"tags":[true,false,null,-1.5e-3,"\u00e9\ud83d\ude00\n"]}"#,
        #"[{"a":{"b":[[],{}]}},"x\\y\"z",12345678901234567890,0]"#,
        #""\ud83d\ude00 ☃ \u0041""#,
    ]
    for document in documents {
        let bytes = Array(document.utf8)
        #expect(throws: Never.self) { try JSONParser.parse(bytes) }
        for length in 0..<bytes.count {
            let result = outcome(Array(bytes[..<length]))
            // Cutting a multi-byte character leaves invalid UTF-8; anything else is simply unfinished.
            guard case .failure = result else {
                Issue.record("prefix of \(length) bytes parsed: \(result)")
                continue
            }
        }
    }
}

// MARK: - Reference parser

/// Whether `value` is what Foundation's parser produced for the same text.
private func matchesReference(_ value: JSONValue, _ reference: Any) -> Bool {
    let isReferenceBool = String(describing: type(of: reference)).contains("Boolean")
    switch value {
    case .null:
        return reference is NSNull
    case .bool(let bool):
        return isReferenceBool && (reference as? NSNumber)?.boolValue == bool
    case .number(.integer(let integer)):
        guard !isReferenceBool, let number = reference as? NSNumber else { return false }
        return number.int64Value == integer && number.doubleValue == Double(integer)
    case .number(.double(let double)):
        guard !isReferenceBool, let number = reference as? NSNumber else { return false }
        return number.doubleValue == double
    case .string(let string):
        // Compared by scalars: String's == would call canonically equivalent strings equal.
        guard let referenceString = reference as? String else { return false }
        return Array(referenceString.unicodeScalars) == Array(string.unicodeScalars)
    case .array(let elements):
        guard let referenceElements = reference as? [Any], referenceElements.count == elements.count else {
            return false
        }
        return zip(elements, referenceElements).allSatisfy { matchesReference($0, $1) }
    case .object(let object):
        guard let referenceObject = reference as? [String: Any], referenceObject.count == object.count else {
            return false
        }
        return object.members.allSatisfy { member in
            referenceObject[member.key].map { matchesReference(member.value, $0) } ?? false
        }
    }
}

private let referenceDocuments = [
    "null", "true", "false", "0", "-0", "42", "-42", "9223372036854775807", "-9223372036854775808",
    "0.5", "-2.75", "1e10", "1E-5", "6.02214076e23", "1.7976931348623157e308", "5e-324",
    #""""#, #""plain""#, #""\"\\\/\b\f\n\r\t""#, #""\u0041\u00E9\u4e2d\ud83d\ude00""#,
    "\"héllo 中文 😀\"", #""\u0000 and \u001f""#,
    "[]", "{}", "[1,[2,[3,[4]]]]", #"[{"a":[]},{"b":{}}]"#,
    #"{"type":"state","room":"lobby-1","board":{"rows":4,"columns":4,"cards":[null,"cat",null,"dog"]},"#
        + #""scores":[3,2],"turn":1,"over":false,"event":{"id":17,"kind":"match"}}"#,
    " \n\t{ \"spaced\" : [ 1 , 2 ] , \"x\" : { } } \r\n",
    #"{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"#
        + #""k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k18":18,"k19":19}"#,
]

@Test("valid documents parse to the same structure and values as Foundation's parser", arguments: referenceDocuments)
func parsesLikeFoundation(document: String) throws {
    let reference = try JSONSerialization.jsonObject(with: Data(document.utf8), options: [.fragmentsAllowed])
    let value = try JSONParser.parse(document)
    #expect(matchesReference(value, reference), "\(value) vs \(reference)")
}

// MARK: - Fuzzing

/// Bytes that make random input look enough like JSON to get past the first byte.
private let fuzzAlphabet: [UInt8] = Array(#"{}[]:,"\ -+.0123456789eEtrufalsn/bu"#.utf8)
    + [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]

private let fuzzSeeds = [
    #"{"a":[1,2.5e3,-0,"x\u00e9\ud83d\ude00"],"b":{"c":null,"d":true}}"#,
    #"[[[[{"k":"\"\\\/\b\f\n\r\t"}]]]]"#,
    "\"héllo 😀\"",
    "123456789012345678901234567890e-5",
]

@Test("twenty thousand random and mutated inputs never crash the parser")
func randomInputNeverCrashes() {
    var random = SplitMix64(seed: 0x5EED_0F_F022)
    var outcomes = (parsed: 0, failed: 0)
    for round in 0..<20_000 {
        var input: [UInt8]
        switch round % 3 {
        case 0:
            // Arbitrary bytes.
            input = (0..<random.next(below: 48)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        case 1:
            // JSON-ish bytes.
            input = (0..<random.next(below: 48)).map { _ in fuzzAlphabet[random.next(below: fuzzAlphabet.count)] }
        default:
            // A valid document with a few bytes changed, inserted or removed.
            input = Array(fuzzSeeds[random.next(below: fuzzSeeds.count)].utf8)
            for _ in 0...random.next(below: 3) {
                let position = random.next(below: input.count + 1)
                let byte = fuzzAlphabet[random.next(below: fuzzAlphabet.count)]
                switch random.next(below: 3) {
                case 0 where position < input.count: input[position] = byte
                case 1: input.insert(byte, at: position)
                default: if position < input.count { input.remove(at: position) }
                }
            }
        }
        switch outcome(input) {
        case .success: outcomes.parsed += 1
        case .failure: outcomes.failed += 1
        }
    }
    // Reaching here is the test; the counts show the inputs exercised both outcomes.
    #expect(outcomes.parsed > 0)
    #expect(outcomes.failed > 0)
}
