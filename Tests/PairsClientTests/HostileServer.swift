import PairsTestSupport
import PairsWire
import Synchronization

/// What a hostile server puts in every string it sends, and what a client may show of it.
enum HostileText {
    /// Every attack issue 19 saw come through raw, each followed by a word that marks it: OSC 52 (writes the
    /// clipboard), OSC 0 (the window title), `ESC[2J` (wipes the screen), `ESC[6n` (makes the terminal type
    /// into the client's input), C1 CSI (U+009B), a right-to-left override, NEL and CR.
    static let payload = "\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}]0;pwned-title\u{07}\u{1B}[2Jwiped\u{1B}[6n\u{9B}31mred\u{202E}desrever\u{85}nel\rcr"
    /// The payload as a cleaned string shows it: the words, without a control character.
    static let cleanedPayload = "]52;c;cHduZWQ=]0;pwned-title[2Jwiped[6n31mreddesrever nel cr"
    /// The word of the window-title attack: a pane whose title has it was reached.
    static let titleWord = "pwned-title"

    /// What in `text` a terminal would act on: every C0 control but LF, DEL, every C1 control (NEL and CSI
    /// among them) and the right-to-left override, each as `U+XXXX`; empty when there is none.
    static func controls(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            scalar != "\n" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{202E}")
        }.map { "U+" + String($0.value, radix: 16) }
    }

    /// The raw sequences of the payload, as bytes a terminal's output must never hold: the client's own
    /// escape sequences (colors, cursor moves, the alternate screen, the bell) never include these.
    static let rawSequences: [(what: String, bytes: [UInt8])] = [
        ("OSC", Array("\u{1B}]".utf8)), ("ESC[2J from the server", Array("\u{1B}[2Jwiped".utf8)),
        ("ESC[6n", Array("\u{1B}[6n".utf8)), ("C1 CSI", Array("\u{9B}".utf8)), ("U+202E", Array("\u{202E}".utf8)),
        ("NEL", Array("\u{85}".utf8)), ("CR from the server", Array("\rcr".utf8)),
    ]
}

/// A real server's lines with `HostileText.payload` added to every string a client shows (names, chat,
/// room names, faces, the server's name, hints, error messages, history times, help lines), a member whose
/// name is the payload in every message, and, now and then, a message whose type is the payload: what a
/// malicious server, or anyone on the path, sends a client. For `TCPProxy`, one per connection.
final class HostileServerLines {
    /// How many strings all rewriters poisoned, for a test to check it really did.
    final class Tally: Sendable {
        private let count = Atomic<Int>(0)
        var poisoned: Int { count.load(ordering: .relaxed) }
        fileprivate func add(_ strings: Int) { count.add(strings, ordering: .relaxed) }
    }

    /// Members whose string value a client shows or may show. The others are words a client must recognise
    /// (`type`, `code`, `phase`...), poisoned only to make the message unreadable, or the token it hands back.
    static let shownStrings: Set<String> = ["name", "from", "text", "room", "server", "session", "hint", "message", "face", "started", "ended"]
    /// Members whose array of strings a client shows: a room's players, a replay's deal, help lines.
    static let shownStringArrays: Set<String> = ["players", "deal", "commands"]

    private let tally: Tally
    private var lines = 0

    init(tally: Tally) {
        self.tally = tally
    }

    func rewrite(_ line: [UInt8]) -> [UInt8] {
        lines += 1
        guard case .object(let message)? = try? JSONParser.parse(line) else { return line + [UInt8(ascii: "\n")] }
        var poisoned = 0
        var object = poison(message, count: &poisoned)
        object.members.append((key: "x_" + HostileText.payload, value: .string(HostileText.payload)))
        tally.add(poisoned)
        var output = JSONWriter.encode(.object(object)) + [UInt8(ascii: "\n")]
        if lines % 4 == 0 {
            output += JSONWriter.encode(["type": .string("x_" + HostileText.payload), "text": .string(HostileText.payload)])
            output.append(UInt8(ascii: "\n"))
        }
        return output
    }

    private func poison(_ object: JSONObject, count: inout Int) -> JSONObject {
        JSONObject(object.members.map { member in
            switch member.value {
            case .string(let text) where Self.shownStrings.contains(member.key):
                count += 1
                return (member.key, .string(text + HostileText.payload))
            case .array(let elements):
                return (member.key, .array(elements.map { element in
                    switch element {
                    case .string(let text) where Self.shownStringArrays.contains(member.key):
                        count += 1
                        return .string(text + HostileText.payload)
                    case .object(let inner): return .object(poison(inner, count: &count))
                    default: return element
                    }
                }))
            case .object(let inner):
                return (member.key, .object(poison(inner, count: &count)))
            default:
                return member
            }
        })
    }
}
