import PairsWire

/// Text from the network made safe to print: every line a server sends passes through here before any of it
/// can reach a terminal.
///
/// A server, or anyone on the path (the line protocol has no TLS), can put control sequences in any string
/// it sends: OSC 52 writes the clipboard, OSC 0 the window title, `ESC[2J` wipes the screen, `ESC[6n` makes
/// the terminal type its answer into the client's input; C1 controls (U+009B is CSI) act the same on some
/// terminals, bidirectional overrides make text read backwards, and CR or NEL move the cursor over what was
/// written. `ClientConnection` cleans every string of every line it reads here, member names included, so
/// `pairs play`, `bot`, `history`, `profile`, `leaderboard` and `replay` (plain output or the full screen)
/// only ever print cleaned text, whatever field a server puts it in.
///
/// The rules are the server's for names and chat (`TextCleaner.isUnsafeForDisplay`), without their length
/// limits: a help line or an error message is longer than a name, and lines are bounded by the framer anyway.
public enum NetworkText {
    /// `text` with every character that controls a terminal or the layout of text removed, and every
    /// whitespace character but the space (tab, CR, LF, NEL, the line and paragraph separators) turned into a
    /// space, so it stays on one line. Nothing else changes: text a well-behaved server sends comes out as it
    /// went in.
    public static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsCleaning) else { return text }
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            // Whitespace is tested first: tab, CR, LF and NEL are control characters, but mean a space.
            if scalar.properties.isWhitespace {
                cleaned.append(" ")
            } else if !TextCleaner.isUnsafeForDisplay(scalar) {
                cleaned.append(scalar)
            }
        }
        return String(cleaned)
    }

    /// `value` with every string in it, and the name of every member of every object, cleaned by
    /// `clean(_:)`.
    public static func clean(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(clean(text))
        case .array(let elements): .array(elements.map(clean))
        case .object(let object): .object(JSONObject(object.members.map { (key: clean($0.key), value: clean($0.value)) }))
        case .null, .bool, .number: value
        }
    }

    /// A line as a server sent it, to print as it came (`--json`), with nothing in it that can drive a
    /// terminal: every character `clean(_:)` would touch is written as a JSON escape (`\u001b`, `\u202e`),
    /// except tab, CR and LF, which a JSON line can only hold as whitespace between its tokens and which
    /// become spaces. A line that is valid JSON stays valid and means the same.
    public static func printable(line: some Collection<UInt8>) -> String {
        let text = String(decoding: line, as: UTF8.self)
        guard text.unicodeScalars.contains(where: needsCleaning) else { return text }
        var printable = ""
        for scalar in text.unicodeScalars {
            guard needsCleaning(scalar) else {
                printable.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\t", "\r", "\n": printable += " "
            default:
                // Beyond the Basic Multilingual Plane (the tag characters), JSON escapes a UTF-16 pair.
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    printable += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            }
        }
        return printable
    }

    /// Whether `clean(_:)` changes `scalar`.
    private static func needsCleaning(_ scalar: Unicode.Scalar) -> Bool {
        scalar != " " && (scalar.properties.isWhitespace || TextCleaner.isUnsafeForDisplay(scalar))
    }
}
