/// Makes player-supplied text (names, chat) safe and tidy to show on other players' terminals.
///
/// Names and chat lines are echoed to every player in a room, many of them on raw terminals (netcat). Left
/// alone, a name could clear the screen or rewrite the title bar with escape sequences, or use bidirectional
/// overrides to display as someone else's name. Cleaning removes every character that controls a terminal
/// or the layout of text, turns whitespace into plain spaces, and bounds the length.
public enum TextCleaner {
    /// The longest player name, in characters (grapheme clusters): fits a scoreboard column.
    public static let maxNameCharacters = 24

    /// The longest player name in UTF-8 bytes. A single character can carry any number of combining marks,
    /// so the character limit alone would not bound what a name costs in every message that carries it.
    /// Roomy enough for 24 flags (8 bytes each) or most emoji sequences.
    public static let maxNameBytes = 256

    /// The longest chat message, in characters: a couple of terminal lines.
    public static let maxChatCharacters = 200

    /// The longest chat message in UTF-8 bytes, bounding combining-mark floods as for names; it also keeps
    /// a message well inside `LineFramer.maxLineBytes` once wrapped in JSON.
    public static let maxChatBytes = 1024

    /// `name` cleaned for display, or `nil` if nothing printable is left.
    ///
    /// Control and format characters are removed, whitespace runs become one space, leading and trailing
    /// whitespace is dropped, and the result is cut to `maxNameCharacters` and `maxNameBytes`.
    public static func cleanName(_ name: String) -> String? {
        clean(name, maxCharacters: maxNameCharacters, maxBytes: maxNameBytes)
    }

    /// `message` cleaned for display, or `nil` if nothing printable is left; as `cleanName(_:)` but cut to
    /// `maxChatCharacters` and `maxChatBytes`. Line breaks become spaces: a chat message is one line.
    public static func cleanChat(_ message: String) -> String? {
        clean(message, maxCharacters: maxChatCharacters, maxBytes: maxChatBytes)
    }

    /// Whether `scalar` is one that cleaning removes: it controls a terminal or the direction and layout of
    /// text instead of showing a glyph.
    ///
    /// That is every control character (C0 including ESC, DEL, C1) and every format character, such as the
    /// bidirectional marks, embeddings, overrides and isolates (U+200E, U+200F, U+202A...U+202E,
    /// U+2066...U+2069) and invisible ones like U+200B and U+FEFF. The exception is U+200D ZERO WIDTH JOINER,
    /// which is harmless and holds emoji sequences such as 👩‍💻 together.
    public static func isUnsafeForDisplay(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control: true
        case .format: scalar != zeroWidthJoiner
        default: false
        }
    }

    private static let zeroWidthJoiner: Unicode.Scalar = "\u{200D}"

    private static func clean(_ text: String, maxCharacters: Int, maxBytes: Int) -> String? {
        var cleaned = String.UnicodeScalarView()
        // A space is written only when something printable follows, which collapses runs of whitespace and
        // drops it at both ends in one pass.
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            // Whitespace is tested first: tab, newline and NEL are control characters, but mean a space.
            if scalar.properties.isWhitespace {
                pendingSpace = !cleaned.isEmpty
            } else if !isUnsafeForDisplay(scalar) {
                if pendingSpace {
                    cleaned.append(" ")
                    pendingSpace = false
                }
                cleaned.append(scalar)
            }
        }
        let truncated = truncate(String(cleaned), maxCharacters: maxCharacters, maxBytes: maxBytes)
        return truncated.isEmpty ? nil : truncated
    }

    /// The longest prefix of `text` within both limits, cut between characters, without a trailing space.
    private static func truncate(_ text: String, maxCharacters: Int, maxBytes: Int) -> String {
        var end = text.startIndex
        var characterCount = 0
        var byteCount = 0
        while end < text.endIndex, characterCount < maxCharacters {
            let next = text.index(after: end)
            byteCount += text.utf8.distance(from: end, to: next)
            guard byteCount <= maxBytes else { break }
            characterCount += 1
            end = next
        }
        var kept = text[..<end]
        // The cut may land just after a space that separated two words.
        while kept.last == " " { kept.removeLast() }
        return String(kept)
    }
}
