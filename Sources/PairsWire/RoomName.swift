/// The rules for room names, which players type to meet each other and which appear in commands and logs.
///
/// Names are restricted to ASCII letters, digits, `-` and `_` so they can be typed on any keyboard, read
/// back unambiguously (no look-alike characters, no spaces) and used in text commands without quoting.
public enum RoomName {
    /// The longest room name, in characters; short enough to type and to fit a status line.
    public static let maxLength = 32

    /// Whether `name` is 1 to `maxLength` characters from `A`-`Z`, `a`-`z`, `0`-`9`, `-` and `_`.
    public static func isValid(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard (1...maxLength).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default:
                false
            }
        }
    }
}
