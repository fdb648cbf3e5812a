/// Where a client gets the password of its name: none (the name is used unclaimed, and the player is asked
/// only if the server says it belongs to someone), a question before connecting (`--password`), or the
/// environment (`PAIRS_PASSWORD`, for scripts).
public enum PasswordSource: Sendable, Hashable, CustomStringConvertible {
    case none
    /// Ask for it before connecting: without echo on a terminal, or the first line of a pipe.
    case ask
    /// Given, from the environment: never asked again, and a refusal ends the program.
    case given(String)

    /// Never the password itself, so printing options cannot show it.
    public var description: String {
        switch self {
        case .none: "none"
        case .ask: "asked"
        case .given: "given"
        }
    }
}
