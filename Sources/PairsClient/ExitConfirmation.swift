/// A way out that would give up a game in progress, waiting for the player to say yes.
///
/// During a game, Ctrl-C, Ctrl-D, `/quit` and `/leave` ask first instead of forfeiting at once: a stray
/// Ctrl-C or a habit from another program should not cost a game. Outside a game they act at once.
public enum ExitConfirmation: Sendable, Hashable {
    /// Leave the room and exit the program (`/quit`, Ctrl-C, Ctrl-D).
    case quit
    /// Leave the room and stay connected, in the lobby (`/leave`).
    case leave

    /// The question, with how to answer it, short enough for the narrowest screen (the footer says the rest).
    public var question: String {
        switch self {
        case .quit: "leave and forfeit? Ctrl-C again or y"
        case .leave: "leave and forfeit? y + Enter"
        }
    }

    /// Whether a typed line says yes.
    public static func isYes(_ line: String) -> Bool {
        ["y", "yes"].contains(line.trimmingWhitespace().lowercased())
    }
}
