import PairsWire
import Testing

// Text commands are what people type into netcat. They reach `TextCommand.parse` through
// `RequestDecoder.decode(line:)`, which is how the server calls it, so most tests go through the decoder.

private func decoded(_ text: String) -> Result<Request?, RequestError> {
    Result { () throws(RequestError) in try RequestDecoder.decode(line: Array(text.utf8)) }
}

private func containsTerminalControls(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
}

/// A typed line and the message it must give. Text commands never carry an id.
struct TypedLine: Sendable, CustomTestStringConvertible {
    let text: String
    let expected: ClientMessage

    init(_ text: String, _ expected: ClientMessage) {
        self.text = text
        self.expected = expected
    }

    var testDescription: String { text.debugDescription }
}

/// A typed line and the error code it must be answered with.
struct MistypedLine: Sendable, CustomTestStringConvertible {
    let text: String
    let code: ErrorCode

    init(_ text: String, _ code: ErrorCode) {
        self.text = text
        self.code = code
    }

    var testDescription: String { "\(text.debugDescription) -> \(code.rawValue)" }
}

private let typedLines: [TypedLine] = [
    TypedLine("join", .join(JoinRequest())),
    TypedLine("join kitchen", .join(JoinRequest(room: "kitchen"))),
    TypedLine("JOIN Kitchen_2-b", .join(JoinRequest(room: "Kitchen_2-b"))),
    TypedLine("  join \t  kitchen \t ", .join(JoinRequest(room: "kitchen"))),
    TypedLine("flip 3", .flip(card: 3)),
    TypedLine("FLIP 2", .flip(card: 2)),
    TypedLine("Flip\t7", .flip(card: 7)),
    TypedLine("flip    12   ", .flip(card: 12)),
    TypedLine("3", .flip(card: 3)),
    TypedLine("0", .flip(card: 0)),
    TypedLine("  \t63 \t", .flip(card: 63)),
    TypedLine("say hello world", .say(text: "hello world")),
    TypedLine("SAY   hello    world  ", .say(text: "hello world")),
    TypedLine("say \"quoted\" \\ and 😀", .say(text: "\"quoted\" \\ and 😀")),
    TypedLine("say \u{1B}[2Jgotcha\u{07}", .say(text: "[2Jgotcha")),
    TypedLine("name ann", .hello(name: "ann")),
    TypedLine("Name  Ann   Lee", .hello(name: "Ann Lee")),
    TypedLine("watch x", .watch(room: "x")),
    TypedLine("WATCH kitchen", .watch(room: "kitchen")),
    TypedLine("resume TOKEN", .resume(token: "TOKEN")),
    TypedLine("resume 0123456789abcdef0123456789abcdef", .resume(token: "0123456789abcdef0123456789abcdef")),
    TypedLine("leave", .leave),
    TypedLine("LEAVE", .leave),
    TypedLine("rematch", .rematch),
    TypedLine("list", .list),
    TypedLine("List", .list),
    TypedLine("ping", .ping),
    TypedLine("stats", .stats),
    TypedLine("help", .help),
    TypedLine("HELP", .help),
    TypedLine("quit", .quit),
    TypedLine("exit", .quit),
    TypedLine("Exit", .quit),
    TypedLine("\tping\t", .ping),
]

@Test("every text command decodes to its message, case-insensitively and without an id", arguments: typedLines)
func textCommandsDecode(line: TypedLine) {
    #expect(decoded(line.text) == .success(Request(line.expected)))
    // Called directly, the parser agrees with the decoder.
    #expect(Result { () throws(RequestError) in try TextCommand.parse(line.text) } == .success(Request(line.expected)))
}

private let mistypedLines: [MistypedLine] = [
    // commands that take no arguments
    MistypedLine("leave now", .badField),
    MistypedLine("rematch please", .badField),
    MistypedLine("list all", .badField),
    MistypedLine("ping 1", .badField),
    MistypedLine("stats x", .badField),
    MistypedLine("help flip", .badField),
    MistypedLine("quit now", .badField),
    MistypedLine("exit 0", .badField),
    // flip needs one card number
    MistypedLine("flip", .badField),
    MistypedLine("flip x", .badField),
    MistypedLine("flip 3 4", .badField),
    MistypedLine("flip 3.5", .badField),
    MistypedLine("flip three", .badField),
    MistypedLine("flip 99999999999999999999", .badField),
    // a bare number with something after it, or too big for a card, is not a flip
    MistypedLine("3 4", .unknownType),
    MistypedLine("99999999999999999999", .unknownType),
    // rooms must be valid room names
    MistypedLine("join a b", .badRoom),
    MistypedLine("join \(String(repeating: "z", count: 33))", .badRoom),
    MistypedLine("join café", .badRoom),
    MistypedLine("watch", .badRoom),
    MistypedLine("watch no way", .badRoom),
    // text that must have something printable in it
    MistypedLine("say", .badField),
    MistypedLine("say \u{1B}\u{07}", .badField),
    MistypedLine("name", .badField),
    MistypedLine("name \u{1B}\u{202E}", .badField),
    MistypedLine("resume", .badField),
    MistypedLine("resume   ", .badField),
    // words the server does not know
    MistypedLine("dance", .unknownType),
    MistypedLine("fliip 3", .unknownType),
    MistypedLine("[1,2]", .unknownType),
    MistypedLine("\"type\":\"ping\"", .unknownType),
    MistypedLine("\u{1B}[2J\u{1B}]0;evil\u{07}", .unknownType),
    MistypedLine("\u{0}", .unknownType),
    MistypedLine("\u{9B}31m", .unknownType),
]

@Test("mistyped commands are refused with the right code and a message free of control characters",
      arguments: mistypedLines)
func mistypedCommandsAreRefused(line: MistypedLine) {
    guard case .failure(let error) = decoded(line.text) else {
        Issue.record("decoded to \(decoded(line.text))")
        return
    }
    #expect(error.code == line.code, "\(error.message)")
    #expect(error.id == nil)
    #expect(!error.message.isEmpty)
    #expect(!containsTerminalControls(error.message), "\(error.message.debugDescription)")
}

@Test("an unknown word is named in the error without its escape codes, cut to a name's length")
func unknownWordIsShownClean() {
    guard case .failure(let error) = decoded("\u{1B}[2Jdance\u{1B}[0m now") else {
        Issue.record("not refused")
        return
    }
    #expect(error.code == .unknownType)
    #expect(error.message.contains("\"[2Jdance[0m\""))
    guard case .failure(let long) = decoded(String(repeating: "w", count: 3000)) else {
        Issue.record("not refused")
        return
    }
    #expect(long.message.contains("\"\(String(repeating: "w", count: TextCleaner.maxNameCharacters))\""))
    #expect(long.message.utf8.count < 200)
}

@Test("the room name in a text command keeps its case while the command word does not matter")
func roomNamesKeepTheirCase() {
    #expect(decoded("jOiN MiXeD") == .success(Request(.join(JoinRequest(room: "MiXeD")))))
}

@Test("text commands are parsed one per line: help's usage lists every command word")
func usageListsEveryCommand() {
    let words = ["join", "flip", "say", "name", "rematch", "leave", "watch", "list", "resume", "ping", "stats",
                 "help", "quit"]
    let usage = TextCommand.usage.joined(separator: "\n")
    for word in words {
        #expect(usage.contains(word), "\(word)")
    }
    for line in TextCommand.usage {
        #expect(!containsTerminalControls(line))
    }
}

// MARK: - Carriage returns

// Decision: removing the `\r` of a `\r\n` line end is the framer's job, done in one place for JSON and text
// alike; the decoder is handed lines without their terminator. These tests pin both halves of that.

@Test("lines typed with CRLF line ends decode once the framer has split them")
func crlfLinesDecodeThroughTheFramer() {
    var framer = LineFramer()
    var results: [Result<Request?, RequestError>] = []
    framer.append(Array("flip 3\r\nleave\r\nsay hi there\r\n\r\n{\"type\":\"ping\",\"id\":1}\r\n".utf8)) { frame in
        guard case .line(let line) = frame else {
            Issue.record("unexpected frame \(frame)")
            return
        }
        results.append(Result { () throws(RequestError) in try RequestDecoder.decode(line: line) })
    }
    #expect(results == [
        .success(Request(.flip(card: 3))),
        .success(Request(.leave)),
        .success(Request(.say(text: "hi there"))),
        .success(nil),
        .success(Request(id: .integer(1), .ping)),
    ])
}

@Test("a stray carriage return that reaches the decoder is refused, never read as another command")
func strayCarriageReturnIsRefused() {
    for text in ["flip 3\r", "leave\r", "\r", "3\r"] {
        guard case .failure(let error) = decoded(text) else {
            Issue.record("\(text.debugDescription) decoded to \(decoded(text))")
            continue
        }
        #expect([.badField, .unknownType].contains(error.code), "\(text.debugDescription)")
        #expect(!containsTerminalControls(error.message), "\(error.message.debugDescription)")
    }
    // JSON counts the carriage return as whitespace.
    #expect(decoded("{\"type\":\"ping\"}\r") == .success(Request(.ping)))
}
