import PairsWire

/// How text is written in the operator's log, where much of it comes from clients (names, rooms): nothing
/// in it may act on the terminal that shows the log, nor break a line in two to forge one.
///
/// A text line writes a value bare when that is unambiguous (`room=kitchen`); anything else, and every
/// string of a JSON line, is a JSON string literal in which `"`, `\` and every character that could
/// control a terminal or the layout of text are escaped: C0 and C1 controls (ESC, CSI, NEL...), DEL, the
/// bidirectional overrides and the other format characters (`TextCleaner.isUnsafeForDisplay`), and the
/// line and paragraph separators. One escaper for both formats, so a text line's quoted values read back
/// as JSON strings.
enum LogQuoting {
    /// Whether `text` can go into a text line without quotes: not empty, and no whitespace, `=`, `"`, `\`
    /// or character that needs escaping.
    static func isBare(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { !$0.properties.isWhitespace && $0 != "=" && !needsEscape($0) }
    }

    /// Appends `text` as a JSON string literal, quotes included, with everything `needsEscape` names escaped.
    static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(ASCII.quote)
        if text.utf8.allSatisfy(isPlainASCII) {
            // The common case (names, rooms, addresses): copied whole.
            bytes.append(contentsOf: text.utf8)
        } else {
            for scalar in text.unicodeScalars {
                if needsEscape(scalar) {
                    appendEscape(of: scalar, to: &bytes)
                } else {
                    UTF8.encode(scalar) { bytes.append($0) }
                }
            }
        }
        bytes.append(ASCII.quote)
    }

    /// Printable ASCII other than `"` and `\`: written as it is, in and out of quotes.
    private static func isPlainASCII(_ byte: UInt8) -> Bool {
        byte >= ASCII.space && byte < ASCII.delete && byte != ASCII.quote && byte != ASCII.backslash
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\"", "\\": return true
        default:
            let category = scalar.properties.generalCategory
            return TextCleaner.isUnsafeForDisplay(scalar) || category == .lineSeparator || category == .paragraphSeparator
        }
    }

    /// `\"`, `\\`, `\n`, `\r`, `\t`, else `\uXXXX` (a surrogate pair beyond the Basic Multilingual Plane).
    private static func appendEscape(of scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        switch scalar {
        case "\"": bytes += [ASCII.backslash, ASCII.quote]
        case "\\": bytes += [ASCII.backslash, ASCII.backslash]
        case "\n": bytes += [ASCII.backslash, ASCII.lowerN]
        case "\r": bytes += [ASCII.backslash, ASCII.lowerR]
        case "\t": bytes += [ASCII.backslash, ASCII.lowerT]
        default:
            for unit in UTF16.encode(scalar)! {
                bytes += [ASCII.backslash, ASCII.lowerU]
                for shift in stride(from: 12, through: 0, by: -4) {
                    bytes.append(hexDigits[Int((unit >> UInt16(shift)) & 0xF)])
                }
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
