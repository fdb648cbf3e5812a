/// Why a line is not acceptable JSON.
///
/// Offsets count bytes from the start of the input, starting at 0, and point at the first byte that made the
/// input invalid. `description` is plain English because it is sent back verbatim to people typing JSON into
/// netcat, who need to find their mistake.
public enum JSONError: Error, Sendable, Hashable {
    /// The input was empty or only whitespace.
    case empty
    /// The input stopped in the middle of a value.
    case unexpectedEnd
    /// A byte that cannot start or continue a value here, such as a trailing comma, a quote of the wrong
    /// kind, a comment or a NUL.
    case unexpectedByte(offset: Int)
    /// Bytes that are not well-formed UTF-8 (overlong, surrogate, out of range or truncated sequences).
    case invalidUTF8(offset: Int)
    /// A raw control character (below U+0020) inside a string; it must be written as an escape.
    case controlCharacterInString(offset: Int)
    /// A backslash escape JSON does not define, or a `\u` not followed by four hex digits.
    case invalidEscape(offset: Int)
    /// A `\u` escape for half of a surrogate pair without its other half.
    case unpairedSurrogate(offset: Int)
    /// A number JSON does not allow: leading zeros, a leading `+`, a bare `.` or exponent marker.
    case invalidNumber(offset: Int)
    /// A number too large in magnitude for a finite `Double`, such as `1e400`.
    case numberOutOfRange(offset: Int)
    /// Arrays and objects nested more deeply than the parser's limit.
    case tooDeep(offset: Int)
    /// The same key twice in one object.
    case duplicateKey(String)
    /// Something after a complete value (only whitespace may follow).
    case trailingData(offset: Int)
}

extension JSONError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty:
            "there is no JSON value, only whitespace or nothing"
        case .unexpectedEnd:
            "the JSON ends in the middle of a value"
        case .unexpectedByte(let offset):
            "unexpected character at byte \(offset)"
        case .invalidUTF8(let offset):
            "invalid UTF-8 at byte \(offset)"
        case .controlCharacterInString(let offset):
            "control character in a string at byte \(offset); write it as an escape such as \\n or \\u001f"
        case .invalidEscape(let offset):
            "invalid escape sequence at byte \(offset)"
        case .unpairedSurrogate(let offset):
            "unpaired UTF-16 surrogate escape at byte \(offset)"
        case .invalidNumber(let offset):
            "malformed number at byte \(offset)"
        case .numberOutOfRange(let offset):
            "number too large at byte \(offset)"
        case .tooDeep(let offset):
            "arrays and objects are nested too deeply at byte \(offset)"
        case .duplicateKey(let key):
            "duplicate key \(Self.quotedForDisplay(key))"
        case .trailingData(let offset):
            "unexpected data after the JSON value at byte \(offset)"
        }
    }

    /// Longest key echoed in a message, in characters: the key is whatever the client sent, and a
    /// message should stay one readable line.
    private static let maxDisplayedKeyCharacters = 32

    /// The key in quotes, shortened, with anything that could drive a terminal written as `\u{...}`:
    /// the message goes back to a terminal, and a key is arbitrary client input.
    private static func quotedForDisplay(_ key: String) -> String {
        var shown = ""
        for (index, character) in key.enumerated() {
            if index == maxDisplayedKeyCharacters {
                shown += "..."
                break
            }
            for scalar in character.unicodeScalars {
                if TextCleaner.isUnsafeForDisplay(scalar) {
                    shown += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    shown.unicodeScalars.append(scalar)
                }
            }
        }
        return "\"\(shown)\""
    }
}
