/// Text measured and cut the way a terminal shows it: escape sequences take no room, most characters take
/// one column, East Asian wide characters and emoji take two.
///
/// A line wider than the terminal wraps, and a wrapped line pushes the whole `pairs play` screen down a
/// row (the prompt scrolls away, typed digits land in the wrong place). Every line the screen draws is
/// measured and cut here, so none can wrap whatever the names, faces and terminal size.
public enum TerminalText {
    /// What marks a line that was cut short.
    static let ellipsis: Character = "…"

    /// Columns `text` takes on a terminal, escape sequences not counted.
    public static func width(_ text: String) -> Int {
        var total = 0
        var inEscape = false
        for character in text {
            if skipsEscape(character, inEscape: &inEscape) { continue }
            total += width(of: character)
        }
        return total
    }

    /// `text` cut to at most `columns` columns, ending in "…" when something was cut. Escape sequences are
    /// kept, and the attributes are reset after a cut so a cut color does not run on.
    public static func fit(_ text: String, columns: Int) -> String {
        guard width(text) > columns else { return text }
        guard columns > 0 else { return "" }
        var result = ""
        var used = 0
        var inEscape = false
        var hasEscapes = false
        for character in text {
            if skipsEscape(character, inEscape: &inEscape) {
                result.append(character)
                hasEscapes = true
                continue
            }
            let next = width(of: character)
            // Room is left for the ellipsis.
            if used + next > columns - 1 { break }
            result.append(character)
            used += next
        }
        result.append(ellipsis)
        if hasEscapes { result += "\u{1B}[0m" }
        return result
    }

    /// `text` broken into lines of at most `columns` columns, at spaces where it can be; a word longer
    /// than a line is cut.
    public static func wrap(_ text: String, columns: Int) -> [String] {
        guard width(text) > columns, columns > 0 else { return [text] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if width(candidate) <= columns {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = width(String(word)) <= columns ? String(word) : fit(String(word), columns: columns)
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Columns one character takes: 2 for wide ones, 0 for marks that combine with the one before, else 1.
    static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation || $0 == "\u{FE0F}" }) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        return isWide(first.value) ? 2 : 1
    }

    /// The East Asian wide and fullwidth blocks (Hangul, CJK, kana, fullwidth forms), as wcwidth has them.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }

    /// Whether `character` belongs to an escape sequence (ESC, then up to the letter that ends a CSI
    /// sequence such as `ESC[1;31m`), tracking where one is open in `inEscape`.
    private static func skipsEscape(_ character: Character, inEscape: inout Bool) -> Bool {
        if character == "\u{1B}" {
            inEscape = true
            return true
        }
        guard inEscape else { return false }
        if character.isLetter { inEscape = false }
        return true
    }
}
