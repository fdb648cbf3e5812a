import PairsRules
import PairsWire
import Testing

// MARK: - Helpers

/// What decoding `bytes` gives, as a value a table can compare with one `#expect`.
private func decoded(_ bytes: [UInt8]) -> Result<Request?, RequestError> {
    Result { () throws(RequestError) in try RequestDecoder.decode(line: bytes) }
}

private func decoded(_ text: String) -> Result<Request?, RequestError> {
    decoded(Array(text.utf8))
}

/// Whether `text` holds anything a terminal could act on: C0 controls, DEL or C1 controls.
private func containsTerminalControls(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
}

/// The bytes of `text` shown with escapes for anything unprintable, so a failing case names its input.
private func shown(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }.joined()
}

/// A client line and the request it must decode to.
struct GoodLine: Sendable, CustomTestStringConvertible {
    let bytes: [UInt8]
    let expected: Request

    init(_ text: String, _ expected: Request) {
        bytes = Array(text.utf8)
        self.expected = expected
    }

    var testDescription: String { shown(bytes) }
}

/// Rule choices of the four rules a `join` could always carry.
private func choices(pairs: Int? = nil, turnSeconds: Int? = nil, revealMilliseconds: Int? = nil, againOnMatch: Bool? = nil) -> RuleChoices {
    var choices = RuleChoices()
    choices.pairs = pairs
    choices.turnSeconds = turnSeconds
    choices.revealMilliseconds = revealMilliseconds
    choices.againOnMatch = againOnMatch
    return choices
}

/// A client line and the error it must be answered with: the code, and the id when it could be read.
struct BadLine: Sendable, CustomTestStringConvertible {
    let bytes: [UInt8]
    let code: ErrorCode
    let id: RequestID?

    init(_ text: String, _ code: ErrorCode, id: RequestID? = nil) {
        bytes = Array(text.utf8)
        self.code = code
        self.id = id
    }

    init(_ bytes: [UInt8], _ code: ErrorCode, id: RequestID? = nil) {
        self.bytes = bytes
        self.code = code
        self.id = id
    }

    var testDescription: String { "\(shown(bytes)) -> \(code.rawValue)" }
}

// MARK: - Every message type

private let sixtyFourByteID = String(repeating: "😀", count: 16)

private let goodLines: [GoodLine] = [
    // hello
    GoodLine(#"{"type":"hello","name":"ann"}"#, Request(.hello(name: "ann"))),
    GoodLine(#"{"type":"hello","name":"  ann \t  lee  ","protocol":1,"id":1}"#,
             Request(id: .integer(1), .hello(name: "ann lee"))),
    GoodLine(#"{"type":"hello","name":"\u00c9va \ud83d\ude00","protocol":null}"#, Request(.hello(name: "Éva 😀"))),
    GoodLine(#"{"type":"hello","name":"\u001b[31mred\u001b[0m"}"#, Request(.hello(name: "[31mred[0m"))),
    // join, from quick match to every option at both ends of its range
    GoodLine(#"{"type":"join"}"#, Request(.join(JoinRequest()))),
    GoodLine(#"{"type":"join","room":null,"id":"q"}"#, Request(id: .string("q"), .join(JoinRequest()))),
    GoodLine(#"{"type":"join","room":"kitchen"}"#, Request(.join(JoinRequest(room: "kitchen")))),
    GoodLine(
        #"{"type":"join","room":"Kitchen_2-b","pairs":12,"turn_seconds":45,"reveal_ms":1500,"again_on_match":false,"id":7}"#,
        Request(id: .integer(7), .join(JoinRequest(
            room: "Kitchen_2-b", rules: choices(pairs: 12, turnSeconds: 45, revealMilliseconds: 1500, againOnMatch: false))))),
    GoodLine(#"{"type":"join","room":"a","pairs":2,"turn_seconds":0,"reveal_ms":0,"again_on_match":true}"#,
             Request(.join(JoinRequest(room: "a", rules: choices(pairs: 2, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true))))),
    GoodLine(#"{"type":"join","room":"\#(String(repeating: "z", count: 32))","pairs":32,"turn_seconds":3600,"reveal_ms":60000}"#,
             Request(.join(JoinRequest(room: String(repeating: "z", count: 32),
                                       rules: choices(pairs: 32, turnSeconds: 3600, revealMilliseconds: 60_000))))),
    GoodLine(#"{"type":"join","pairs":null,"turn_seconds":null,"reveal_ms":null,"again_on_match":null}"#,
             Request(.join(JoinRequest()))),
    // flip
    GoodLine(#"{"type":"flip","card":0}"#, Request(.flip(card: 0))),
    GoodLine(#"{"type":"flip","card":63,"id":"f-63"}"#, Request(id: .string("f-63"), .flip(card: 63))),
    GoodLine(#"{"card":5,"id":3,"type":"flip"}"#, Request(id: .integer(3), .flip(card: 5))),
    // the commands without arguments
    GoodLine(#"{"type":"leave"}"#, Request(.leave)),
    GoodLine(#"{"type":"rematch","id":2}"#, Request(id: .integer(2), .rematch)),
    GoodLine(#"{"type":"list"}"#, Request(.list)),
    GoodLine(#"{"type":"ping","id":"p"}"#, Request(id: .string("p"), .ping)),
    GoodLine(#"{"type":"stats"}"#, Request(.stats)),
    GoodLine(#"{"type":"help"}"#, Request(.help)),
    GoodLine(#"{"type":"quit"}"#, Request(.quit)),
    // say, watch, resume
    GoodLine(#"{"type":"say","text":"good game!"}"#, Request(.say(text: "good game!"))),
    GoodLine(#"{"type":"say","text":"quote \" and \\ back\nslash \u00e9 ☃ 👩‍💻"}"#,
             Request(.say(text: "quote \" and \\ back slash é ☃ 👩‍💻"))),
    GoodLine(#"{"type":"watch","room":"kitchen","id":9}"#, Request(id: .integer(9), .watch(room: "kitchen"))),
    GoodLine(#"{"type":"resume","token":"0123456789abcdef"}"#, Request(.resume(token: "0123456789abcdef"))),
    // ids at their limits
    GoodLine(#"{"type":"ping","id":0}"#, Request(id: .integer(0), .ping)),
    GoodLine(#"{"type":"ping","id":-5}"#, Request(id: .integer(-5), .ping)),
    GoodLine(#"{"type":"ping","id":9223372036854775807}"#, Request(id: .integer(.max), .ping)),
    GoodLine(#"{"type":"ping","id":-9223372036854775808}"#, Request(id: .integer(.min), .ping)),
    GoodLine(#"{"type":"ping","id":""}"#, Request(id: .string(""), .ping)),
    GoodLine(#"{"type":"ping","id":"\#(String(repeating: "x", count: 64))"}"#,
             Request(id: .string(String(repeating: "x", count: 64)), .ping)),
    GoodLine(#"{"type":"ping","id":"\#(sixtyFourByteID)"}"#, Request(id: .string(sixtyFourByteID), .ping)),
    GoodLine(#"{"type":"ping","id":null}"#, Request(.ping)),
    // unknown fields are ignored, whatever they hold; whitespace around and inside is fine
    GoodLine(#"{"type":"ping","extra":[1,{"a":null}],"version":2.5,"flag":true}"#, Request(.ping)),
    GoodLine(#"{"type":"flip","card":4,"seat":1,"face":"cat"}"#, Request(.flip(card: 4))),
    GoodLine(" \t { \"type\" : \"flip\" ,\n \"card\" : 2 } \t ", Request(.flip(card: 2))),
    GoodLine("{\"type\":\"ping\"}\r", Request(.ping)),
]

@Test("every client message type written as JSON decodes to its request, with the id echoed",
      arguments: goodLines)
func jsonLinesDecode(line: GoodLine) {
    #expect(decoded(line.bytes) == .success(line.expected))
}

// MARK: - Errors

private let deeplyNested = #"{"type":"ping","x":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"

private let badLines: [BadLine] = [
    // not JSON, or JSON that is not one request object
    BadLine("{bad", .badJSON),
    BadLine("{", .badJSON),
    BadLine(#"{"type":"ping""#, .badJSON),
    BadLine(#"{"type":"ping",}"#, .badJSON),
    BadLine(#"{"type":"ping"} trailing"#, .badJSON),
    BadLine(#"{"type":"ping"}{"type":"quit"}"#, .badJSON),
    BadLine(#"{'type':'ping'}"#, .badJSON),
    BadLine(deeplyNested, .badJSON),
    BadLine(#"{"type":"ping","type":"quit"}"#, .badJSON),
    BadLine(#"{"type":"flip","card":1,"card":2,"id":1}"#, .badJSON),
    BadLine(#"{"\u001b[2J":1,"\u001b[2J":2}"#, .badJSON),
    BadLine(#"{"type":"say","text":"\ud800"}"#, .badJSON),
    BadLine(Array(#"{"type":"ping"}"#.utf8) + [0], .badJSON),
    BadLine(Array(#"{"type":"say","text":"a"#.utf8) + [0] + Array(#"b"}"#.utf8), .badJSON),
    BadLine(Array(#"{"type":"say","text":""#.utf8) + [0xFF] + Array(#""}"#.utf8), .badJSON),
    BadLine(Array(#"{"type":"say","text":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8), .badJSON),
    BadLine([0x73, 0x61, 0x79, 0x20, 0xFF, 0xFE], .badJSON),
    BadLine([0x66, 0x6C, 0x69, 0x70, 0x20, 0xE2, 0x82], .badJSON),
    // the type
    BadLine("{}", .badField),
    BadLine(#" {"type":1}"#, .badField),
    BadLine(#"{"type":null,"id":1}"#, .badField, id: .integer(1)),
    BadLine(#"{"type":["ping"],"id":"t"}"#, .badField, id: .string("t")),
    BadLine(#"{"id":2}"#, .badField, id: .integer(2)),
    BadLine(#"{"type":"dance","id":4}"#, .unknownType, id: .integer(4)),
    BadLine(#"{"type":"FLIP","card":1}"#, .unknownType),
    BadLine(#"{"type":""}"#, .unknownType),
    // ids that would drive another player's terminal: they are echoed in events the whole room receives
    BadLine(#"{"type":"flip","card":1,"id":"\u009b2J"}"#, .badField),
    BadLine("{\"type\":\"flip\",\"card\":1,\"id\":\"\u{9B}2J\"}", .badField),
    BadLine(#"{"type":"say","text":"hi","id":"\u202eevil"}"#, .badField),
    BadLine(#"{"type":"ping","id":"\u001b[2J"}"#, .badField),
    BadLine(#"{"type":"ping","id":"a\u200bb"}"#, .badField),
    // flip's card
    BadLine(#"{"type":"flip","card":"3","id":9}"#, .badField, id: .integer(9)),
    BadLine(#"{"type":"flip","card":3.0,"id":9}"#, .badField, id: .integer(9)),
    BadLine(#"{"type":"flip","card":3.5,"id":9}"#, .badField, id: .integer(9)),
    BadLine(#"{"type":"flip","card":3e0,"id":9}"#, .badField, id: .integer(9)),
    BadLine(#"{"type":"flip","id":"no-card"}"#, .badField, id: .string("no-card")),
    BadLine(#"{"type":"flip","card":null,"id":9}"#, .badField, id: .integer(9)),
    BadLine(#"{"type":"flip","card":true,"id":9}"#, .badField, id: .integer(9)),
    BadLine(#"{"type":"flip","card":[3],"id":9}"#, .badField, id: .integer(9)),
    BadLine(#"{"type":"flip","card":99999999999999999999,"id":9}"#, .badField, id: .integer(9)),
    BadLine(#"{"type":"flip","card":-99999999999999999999,"id":9}"#, .badField, id: .integer(9)),
    BadLine(#"{"type":"flip","card":1e400,"id":9}"#, .badJSON),
    BadLine(#"{"type":"flip","card":-1e400}"#, .badJSON),
    BadLine(#"{"type":"flip","card":03}"#, .badJSON),
    BadLine(#"{"type":"flip","card":NaN}"#, .badJSON),
    // the id itself
    BadLine(#"{"type":"ping","id":1.5}"#, .badField),
    BadLine(#"{"type":"ping","id":1e2}"#, .badField),
    BadLine(#"{"type":"ping","id":99999999999999999999}"#, .badField),
    BadLine(#"{"type":"ping","id":{}}"#, .badField),
    BadLine(#"{"type":"ping","id":{"n":1}}"#, .badField),
    BadLine(#"{"type":"ping","id":[1]}"#, .badField),
    BadLine(#"{"type":"ping","id":true}"#, .badField),
    BadLine(#"{"type":"ping","id":false}"#, .badField),
    BadLine(#"{"type":"ping","id":"\#(String(repeating: "x", count: 65))"}"#, .badField),
    BadLine(#"{"type":"ping","id":"\#(sixtyFourByteID)x"}"#, .badField),
    BadLine(#"{"type":"dance","id":true}"#, .badField),
    // join's room and options
    BadLine(#"{"type":"join","room":"a b","id":5}"#, .badRoom, id: .integer(5)),
    BadLine(#"{"type":"join","room":"\#(String(repeating: "z", count: 33))","id":5}"#, .badRoom, id: .integer(5)),
    BadLine(#"{"type":"join","room":"","id":5}"#, .badRoom, id: .integer(5)),
    BadLine(#"{"type":"join","room":"caf\u00e9"}"#, .badRoom),
    BadLine(#"{"type":"join","room":"a\u001bb"}"#, .badRoom),
    BadLine(#"{"type":"join","room":"a/b"}"#, .badRoom),
    BadLine(#"{"type":"join","room":7,"id":5}"#, .badField, id: .integer(5)),
    BadLine(#"{"type":"join","pairs":1,"id":"o"}"#, .badField, id: .string("o")),
    BadLine(#"{"type":"join","pairs":33,"id":"o"}"#, .badField, id: .string("o")),
    BadLine(#"{"type":"join","pairs":-8}"#, .badField),
    BadLine(#"{"type":"join","pairs":"8"}"#, .badField),
    BadLine(#"{"type":"join","pairs":8.0}"#, .badField),
    BadLine(#"{"type":"join","pairs":9223372036854775807}"#, .badField),
    BadLine(#"{"type":"join","turn_seconds":-1,"id":"o"}"#, .badField, id: .string("o")),
    BadLine(#"{"type":"join","turn_seconds":3601}"#, .badField),
    BadLine(#"{"type":"join","reveal_ms":60001,"id":"o"}"#, .badField, id: .string("o")),
    BadLine(#"{"type":"join","reveal_ms":-1}"#, .badField),
    BadLine(#"{"type":"join","again_on_match":"yes","id":"o"}"#, .badField, id: .string("o")),
    BadLine(#"{"type":"join","again_on_match":1}"#, .badField),
    // hello
    BadLine(#"{"type":"hello","name":"ann","protocol":2,"id":6}"#, .unsupportedProtocol, id: .integer(6)),
    BadLine(#"{"type":"hello","name":"ann","protocol":0}"#, .unsupportedProtocol),
    BadLine(#"{"type":"hello","protocol":2}"#, .unsupportedProtocol),
    BadLine(#"{"type":"hello","name":"ann","protocol":"1","id":6}"#, .badField, id: .integer(6)),
    BadLine(#"{"type":"hello","name":"ann","protocol":1.0}"#, .badField),
    BadLine(#"{"type":"hello","id":6}"#, .badField, id: .integer(6)),
    BadLine(#"{"type":"hello","name":null}"#, .badField),
    BadLine(#"{"type":"hello","name":42}"#, .badField),
    BadLine(#"{"type":"hello","name":"\u0001\u001b\u007f\u009b","id":6}"#, .badField, id: .integer(6)),
    BadLine(#"{"type":"hello","name":"  \t\n "}"#, .badField),
    BadLine(#"{"type":"hello","name":"\u202e\u200b\ufeff"}"#, .badField),
    BadLine(#"{"type":"hello","name":""}"#, .badField),
    // say, watch, resume
    BadLine(#"{"type":"say","id":8}"#, .badField, id: .integer(8)),
    BadLine(#"{"type":"say","text":"\u0007\u001b"}"#, .badField),
    BadLine(#"{"type":"say","text":["hi"]}"#, .badField),
    BadLine(#"{"type":"watch","id":8}"#, .badField, id: .integer(8)),
    BadLine(#"{"type":"watch","room":"no way","id":8}"#, .badRoom, id: .integer(8)),
    BadLine(#"{"type":"resume","id":8}"#, .badField, id: .integer(8)),
    BadLine(#"{"type":"resume","token":12345}"#, .badField),
]

@Test("bad lines are answered with the right error code, echoing the id whenever it could be read",
      arguments: badLines)
func badLinesAreRefused(line: BadLine) throws {
    let result = decoded(line.bytes)
    guard case .failure(let error) = result else {
        Issue.record("decoded to \(result)")
        return
    }
    #expect(error.code == line.code, "\(error.message)")
    #expect(error.id == line.id)
    #expect(!error.message.isEmpty)
    #expect(!containsTerminalControls(error.message), "\(error.message)")
}

// MARK: - Blank lines, cleaning, robustness

@Test("blank and whitespace-only lines decode to nothing", arguments: ["", " ", "\t", "  \t \t  "])
func blankLinesAreIgnored(line: String) {
    #expect(decoded(line) == .success(nil))
}

@Test("an empty buffer decodes to nothing")
func emptyBufferIsIgnored() throws {
    let request = try [UInt8]().withUnsafeBytes { buffer throws(RequestError) in try RequestDecoder.decode(line: buffer) }
    #expect(request == nil)
}

@Test("chat with terminal escape sequences arrives without a single control character")
func chatIsCleaned() throws {
    let line = #"{"type":"say","text":"\u001b[2J\u001b]0;owned\u0007hi\u009b31m\u0085there\u0000\u007f!\u202e"}"#
    let request = try #require(try RequestDecoder.decode(line: Array(line.utf8)))
    guard case .say(let text) = request.message else {
        Issue.record("decoded to \(request)")
        return
    }
    #expect(!containsTerminalControls(text))
    #expect(!text.unicodeScalars.contains("\u{202E}"))
    #expect(text == "[2J]0;ownedhi31m there!")
}

@Test("a name is cleaned and cut to the name limit")
func namesAreCleanedAndCut() throws {
    let long = String(repeating: "é", count: 40)
    let request = try #require(try RequestDecoder.decode(line: Array(#"{"type":"hello","name":"\#(long)"}"#.utf8)))
    #expect(request.message == .hello(name: String(repeating: "é", count: TextCleaner.maxNameCharacters)))
}

@Test("an unknown type is named in the error without its control characters")
func unknownTypeIsShownClean() throws {
    let result = decoded(#"{"type":"\u001b[2Jboom\u0007","id":1}"#)
    guard case .failure(let error) = result else {
        Issue.record("decoded to \(result)")
        return
    }
    #expect(error.code == .unknownType)
    #expect(error.id == .integer(1))
    #expect(error.message.contains("[2Jboom"))
    #expect(!containsTerminalControls(error.message))
}

@Test("an unknown type of any length gives a short error message")
func longUnknownTypeGivesShortMessage() throws {
    let result = decoded(#"{"type":"\#(String(repeating: "x", count: 3000))"}"#)
    guard case .failure(let error) = result else {
        Issue.record("decoded to \(result)")
        return
    }
    #expect(error.code == .unknownType)
    #expect(error.message.utf8.count < 400)
}

@Test("random corruptions of valid lines never crash the decoder and always give a request, an error or nothing")
func corruptedLinesNeverCrash() {
    var state: UInt64 = 0x5EED
    func next(_ bound: Int) -> Int {
        // SplitMix64, inline: the wire tests do not reach into the rules' internals.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
    let interesting: [UInt8] = Array(#"{}[]":,\0123456789.eE+-tfnu "#.utf8) + [0, 0x1B, 0x7F, 0x80, 0xC3, 0xFF]
    var outcomes = [0, 0, 0]
    for round in 0..<3000 {
        var bytes = goodLines[round % goodLines.count].bytes
        for _ in 0..<(1 + next(4)) {
            let position = next(bytes.count + 1)
            switch next(3) {
            case 0 where position < bytes.count: bytes.remove(at: position)
            case 1 where position < bytes.count: bytes[position] = interesting[next(interesting.count)]
            default: bytes.insert(interesting[next(interesting.count)], at: position)
            }
        }
        switch decoded(bytes) {
        case .success(nil): outcomes[0] += 1
        case .success: outcomes[1] += 1
        case .failure(let error):
            outcomes[2] += 1
            if containsTerminalControls(error.message) {
                Issue.record("control characters in the message for \(shown(bytes)): \(error.message)")
            }
        }
    }
    #expect(outcomes[2] > 0)
}
