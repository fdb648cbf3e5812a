import PairsClient
import PairsWire
import Testing

/// Every character a terminal acts on instead of showing, by class.
enum ControlClasses {
    /// C0 controls other than whitespace: ESC, BEL, BS, NUL... and DEL.
    static let c0: [Unicode.Scalar] = (0x00...0x1F).compactMap(Unicode.Scalar.init).filter { !$0.properties.isWhitespace } + ["\u{7F}"]
    /// C1 controls other than NEL: U+009B is CSI, U+009D OSC, U+0090 DCS on terminals that take 8-bit controls.
    static let c1: [Unicode.Scalar] = (0x80...0x9F).compactMap(Unicode.Scalar.init).filter { $0 != "\u{85}" }
    /// Whitespace that moves the cursor or breaks the line: tab, LF, VT, FF, CR, NEL, the line and paragraph
    /// separators.
    static let breaking: [Unicode.Scalar] = ["\t", "\n", "\u{0B}", "\u{0C}", "\r", "\u{85}", "\u{2028}", "\u{2029}"]
    /// Format characters: bidirectional marks, embeddings, overrides and isolates, invisible ones, tags.
    static let format: [Unicode.Scalar] = ["\u{AD}", "\u{61C}", "\u{200B}", "\u{200C}", "\u{200E}", "\u{200F}", "\u{202A}",
                                           "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2060}", "\u{2066}", "\u{2067}",
                                           "\u{2068}", "\u{2069}", "\u{FEFF}", "\u{FFF9}", "\u{E0001}", "\u{E0041}"]
}

@Suite("Text from the network, cleaned before it can reach a terminal")
struct NetworkTextTests {
    @Test("every C0 control, DEL, every C1 control and every format character is removed; whitespace that moves the cursor becomes a space")
    func everyControlClass() {
        for scalar in ControlClasses.c0 + ControlClasses.c1 + ControlClasses.format {
            #expect(NetworkText.clean("a\(String(scalar))b") == "ab", "U+\(String(scalar.value, radix: 16))")
        }
        for scalar in ControlClasses.breaking {
            #expect(NetworkText.clean("a\(String(scalar))b") == "a b", "U+\(String(scalar.value, radix: 16))")
        }
    }

    @Test("the attacks seen in the wild come out as harmless text: OSC 52, OSC 0, ESC[2J, ESC[6n, C1 CSI, U+202E, NEL, CR")
    func theAttacks() {
        let cleaned = NetworkText.clean(HostileText.payload)
        #expect(cleaned == HostileText.cleanedPayload)
        #expect(!cleaned.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
    }

    @Test("ordinary text is left exactly as it is: spaces, emoji sequences held by U+200D, combining marks, wide characters")
    func ordinaryText() {
        for text in ["bob", "two  spaces", " edge ", "👩‍💻 Zoë", "🇫🇷 e\u{301}", "中文名字", "K♠ 10♥", "it's \"quoted\" \\ too", ""] {
            #expect(NetworkText.clean(text) == text)
        }
    }

    @Test("a parsed line is cleaned everywhere: strings at any depth, array elements and the names of members")
    func wholeValue() throws {
        let value = try JSONParser.parse(Array(#"{"type":"x\u001b","a":[{"b\u009b":"c\u202ed"},"e\rf",1,true,null]}"#.utf8))
        let expected = try JSONParser.parse(Array(#"{"type":"x","a":[{"b":"cd"},"e f",1,true,null]}"#.utf8))
        #expect(NetworkText.clean(value) == expected)
    }

    @Test("a line printed as it came has every unsafe character as a JSON escape, and still parses to the same value")
    func printableLine() throws {
        let original = JSONValue.object(JSONObject([(key: "name", value: .string(HostileText.payload + "\u{E0001}")),
                                                    (key: "n\u{202E}", value: 1)]))
        // A server may send C1 and format characters raw (they are valid in a JSON string), and CR or tab
        // between tokens.
        var line = Array("{\r\t".utf8)
        line += JSONWriter.encode(original).dropFirst()
        let raw = String(decoding: line, as: UTF8.self)
        #expect(raw.unicodeScalars.contains("\u{9B}") && raw.unicodeScalars.contains("\u{202E}"))
        let printable = NetworkText.printable(line: line)
        #expect(!printable.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.properties.generalCategory == .format })
        #expect(printable.contains(#"\u009b"#) && printable.contains(#"\u202e"#) && printable.contains(#"\udb40\udc01"#))
        #expect(try JSONParser.parse(Array(printable.utf8)) == original)
        #expect(NetworkText.printable(line: Array(#"{"type":"pong"}"#.utf8)) == #"{"type":"pong"}"#)
    }
}
