import PairsRules

/// How text on the terminal is dressed: ANSI attributes and colors, or nothing at all.
///
/// Color is never the only signal: every colored thing also has a mark or a word that reads the same in
/// black and white (`cat¹`, `YOUR TURN`), because `NO_COLOR`, a color-blind player or a log file all lose
/// the color.
public struct TextStyle: Sendable, Hashable {
    /// An ANSI attribute or foreground color.
    public enum Attribute: String, Sendable, Hashable {
        case bold = "1"
        case dim = "2"
        case reverse = "7"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
        case magenta = "35"

        var isColor: Bool {
            switch self {
            case .bold, .dim, .reverse: false
            default: true
            }
        }
    }

    /// Whether escape sequences are written at all (a terminal, not a file or pipe).
    public var usesEscapes: Bool
    /// Whether colors are written (a terminal without `NO_COLOR`). Bold, dim and reverse do not count as
    /// color, as https://no-color.org says.
    public var usesColor: Bool

    /// No escapes at all: for files and pipes.
    public static let plain = TextStyle(usesEscapes: false, usesColor: false)

    public init(usesEscapes: Bool, usesColor: Bool) {
        self.usesEscapes = usesEscapes
        self.usesColor = usesEscapes && usesColor
    }

    /// `text` wearing `attributes`, as far as this style allows.
    public func paint(_ text: String, _ attributes: Attribute...) -> String {
        paint(text, attributes)
    }

    /// `text` wearing `attributes`, as far as this style allows.
    public func paint(_ text: String, _ attributes: [Attribute]) -> String {
        let codes = attributes.filter { usesEscapes && (usesColor || !$0.isColor) }.map(\.rawValue)
        guard !codes.isEmpty, !text.isEmpty else { return text }
        return "\u{1B}[\(codes.joined(separator: ";"))m\(text)\u{1B}[0m"
    }

    /// The color of a seat's name and of the cards it took.
    public static func color(of seat: Seat) -> Attribute {
        seat == .first ? .cyan : .magenta
    }

    /// The mark that follows a seat's name and the cards it took: ¹ for the first player, ² for the second.
    public static func mark(of seat: Seat) -> String {
        seat == .first ? "¹" : "²"
    }
}
