import PairsWire
import Testing

/// Whether `text` holds anything a terminal could act on: C0 controls, DEL or C1 controls.
private func containsTerminalControls(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
}

@Test("terminal escape sequences lose their escape character and cannot reach a terminal")
func escapeSequencesAreDefused() throws {
    let cleaned = try #require(TextCleaner.cleanName("\u{1B}[2J\u{1B}]0;evil\u{07}bob"))
    #expect(!containsTerminalControls(cleaned))
    #expect(cleaned == "[2J]0;evilbob")
    // The 8-bit CSI (U+009B) and OSC (U+009D) forms, and the string terminator.
    let eightBit = try #require(TextCleaner.cleanChat("\u{9B}31mred\u{9D}0;title\u{9C}"))
    #expect(!containsTerminalControls(eightBit))
    #expect(eightBit == "31mred0;title")
}

@Test("every C0, DEL and C1 control character is removed except whitespace, which becomes a space")
func everyControlCharacterIsRemoved() {
    for value in Array(0x00...0x1F) + Array(0x7F...0x9F) {
        let control = String(Unicode.Scalar(UInt32(value))!)
        let cleaned = TextCleaner.cleanName("a\(control)b")
        #expect(cleaned == "ab" || cleaned == "a b", "U+\(String(value, radix: 16))")
        #expect(TextCleaner.cleanName(control) == nil)
    }
    #expect(TextCleaner.cleanName("a\tb\nc\rd\u{0B}e\u{0C}f\u{85}g") == "a b c d e f g")
}

@Test("bidirectional controls and invisible format characters are removed")
func bidiAndFormatCharactersAreRemoved() {
    let bidi: [Unicode.Scalar] = [
        "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
        "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{061C}",
        "\u{200B}", "\u{2060}", "\u{FEFF}", "\u{00AD}",
    ]
    for scalar in bidi {
        #expect(TextCleaner.cleanName("ad\(String(scalar))min") == "admin", "U+\(String(scalar.value, radix: 16))")
    }
    // The classic spoof: a right-to-left override making "txt.exe" display as "exe.txt".
    #expect(TextCleaner.cleanChat("see \u{202E}txt.exe") == "see txt.exe")
}

@Test("emoji joined with zero width joiners and other non-ASCII text survive cleaning")
func emojiAndNonASCIISurvive() {
    #expect(TextCleaner.cleanName("👩‍💻 Zoë") == "👩‍💻 Zoë")
    #expect(TextCleaner.cleanName("中文名字") == "中文名字")
    #expect(TextCleaner.cleanName("🇫🇷 e\u{301}") == "🇫🇷 e\u{301}")
}

@Test("whitespace is trimmed at both ends and each internal run becomes one space")
func whitespaceIsTrimmedAndCollapsed() {
    #expect(TextCleaner.cleanName("  bob  ") == "bob")
    #expect(TextCleaner.cleanName("bob \t\n  smith") == "bob smith")
    #expect(TextCleaner.cleanName("\u{3000}bob\u{A0}\u{2028}smith\u{2003}") == "bob smith")
    #expect(TextCleaner.cleanChat("  hello   there\r\n  you  ") == "hello there you")
    // Whitespace on either side of a removed control still collapses to one space.
    #expect(TextCleaner.cleanName("a \u{1B} b") == "a b")
}

@Test("text with nothing printable left is rejected", arguments: [
    "", " ", "   \t\n ", "\u{1B}", "\u{200E}\u{202E}", "\u{0}\u{0}", " \u{7F} \u{9B} ",
])
func nothingPrintableIsNil(text: String) {
    #expect(TextCleaner.cleanName(text) == nil)
    #expect(TextCleaner.cleanChat(text) == nil)
}

@Test("names are cut to 24 characters and chat messages to 200, counting grapheme clusters")
func lengthsAreCutInCharacters() {
    #expect(TextCleaner.maxNameCharacters == 24)
    #expect(TextCleaner.maxChatCharacters == 200)
    let exactName = String(repeating: "n", count: 24)
    #expect(TextCleaner.cleanName(exactName) == exactName)
    #expect(TextCleaner.cleanName(exactName + "x") == exactName)
    let exactChat = String(repeating: "c", count: 200)
    #expect(TextCleaner.cleanChat(exactChat) == exactChat)
    #expect(TextCleaner.cleanChat(exactChat + "xyz") == exactChat)

    // Characters, not bytes or scalars: each flag is two scalars and eight bytes, each é two scalars.
    let flags = String(repeating: "🇫🇷", count: 30)
    #expect(TextCleaner.cleanName(flags) == String(repeating: "🇫🇷", count: 24))
    let accents = String(repeating: "e\u{301}", count: 30)
    #expect(TextCleaner.cleanName(accents)?.count == 24)
}

@Test("a cut that lands after a space drops that space")
func cutDoesNotLeaveATrailingSpace() {
    let name = String(repeating: "a", count: 23) + " bcd"
    #expect(TextCleaner.cleanName(name) == String(repeating: "a", count: 23))
}

@Test("a flood of combining marks is bounded in bytes, not only in characters")
func combiningMarkFloodIsBounded() throws {
    let zalgo = String(repeating: "a" + String(repeating: "\u{301}", count: 30), count: 10)
    let name = try #require(TextCleaner.cleanName(zalgo))
    #expect(name.utf8.count <= TextCleaner.maxNameBytes)
    #expect(name.count >= 1)
    let chat = try #require(TextCleaner.cleanChat(String(repeating: zalgo, count: 20)))
    #expect(chat.utf8.count <= TextCleaner.maxChatBytes)
}
