/// What the game screen says about itself when it shows no live game: `pairs replay` draws a stored game
/// with the screen of `pairs play`, and says which game and which move instead of the connection, and its
/// keys instead of the commands.
public struct ScreenLabels: Sendable, Hashable {
    /// The header's last part: "replay of game 12 · move 5 of 40".
    public var status: String
    /// The line below everything: the keys.
    public var hint: String
}
