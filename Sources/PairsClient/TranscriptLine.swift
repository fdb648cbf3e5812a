/// One line of what `pairs play` tells the player, sorted by kind so the screen can put each where it
/// belongs and plain output can prefix it.
public struct TranscriptLine: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// Something that happened in the game: "bob flipped 7: cat".
        case event
        /// Whose turn it is now: "your turn".
        case turn
        /// A chat message.
        case chat
        /// An answer to what the player typed, or a hint of what to type next.
        case notice
        /// The server's answer to a question the player asked (`/list`, `/who`, `/stats`).
        case answer
        /// A request refused, by the server or before it was sent.
        case error
        /// News about the connection itself.
        case connection
        /// A moment when the whole board is worth seeing (every card face up for the peek): plain output
        /// prints the board after it; the screen always shows the board anyway.
        case board
    }

    public var kind: Kind
    public var text: String

    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    /// The line as plain output prints it: errors are marked, everything else is said as it is.
    public var description: String {
        kind == .error ? "error: \(text)" : text
    }
}
