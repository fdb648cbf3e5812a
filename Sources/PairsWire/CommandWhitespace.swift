/// The whitespace of typed commands, the netcat ones the server reads (`TextCommand`) and the ones people type
/// into `pairs play`: a space or a tab, nothing else.
///
/// Decision on `\r`: it is not whitespace here. `LineFramer` removes the `\r` of a `\r\n` line end for every
/// line, JSON or typed, in one place; a `\r` anywhere else is not a space someone meant, so a command that
/// holds one is refused rather than guessed at (the server's tests pin that a stray `\r` is never read as
/// a command). JSON lines differ only because JSON's own grammar counts `\r` as whitespace.
extension Character {
    /// Whether this separates the words of a typed command: a space or a tab.
    package var isCommandWhitespace: Bool {
        self == " " || self == "\t"
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (`Character.isCommandWhitespace`).
    package func trimmingWhitespace() -> Substring {
        guard let first = firstIndex(where: { !$0.isCommandWhitespace }),
              let last = lastIndex(where: { !$0.isCommandWhitespace }) else {
            return Substring()
        }
        return Substring(self[first...last])
    }
}

extension Substring {
    /// A typed command's first word, up to the first space or tab, and the rest after it without its
    /// surrounding whitespace (`"say  hi there "` is `say` and `hi there`).
    package func splittingCommandWord() -> (word: Substring, rest: Substring) {
        guard let space = firstIndex(where: \.isCommandWhitespace) else { return (self, "") }
        return (self[..<space], self[space...].trimmingWhitespace())
    }
}
