import PairsWire

/// What a client does when the server refuses its name (`SessionEvent.nameRefused`): ask the person at the
/// terminal for the password and try again, a few times at most, or give up with the server's words and
/// what to do about them when nobody can be asked (a bot, a script, a password that came from
/// `PAIRS_PASSWORD`).
public struct PasswordDialog: Sendable {
    /// Questions asked at most before giving up, as `sudo` does: enough for typing mistakes, too few for
    /// guessing (the server slows guesses down too).
    public static let maxQuestions = 3

    /// What to do next.
    public enum Step: Sendable, Hashable {
        /// Ask for the password with this question, then say hello again with it.
        case ask(question: String)
        /// Stop, for this reason.
        case giveUp(reason: String)
    }

    public let name: String
    /// Whether a person can be asked: standard input is a terminal and the password did not come from the
    /// environment.
    public let canAsk: Bool
    private var questions = 0

    public init(name: String, canAsk: Bool) {
        self.name = name
        self.canAsk = canAsk
    }

    /// The first question, for a player who said `--password` before the server said anything.
    public mutating func firstQuestion() -> String {
        questions += 1
        return "password for \(name): "
    }

    /// What to do about the server's refusal `error`.
    public mutating func next(after error: RequestError) -> Step {
        switch error.code {
        case .nameTaken:
            guard canAsk, questions < Self.maxQuestions else {
                return .giveUp(reason: "\(error.message) (--password asks for it, or set PAIRS_PASSWORD)")
            }
            questions += 1
            return .ask(question: "the name \(name) belongs to someone; password for \(name): ")
        case .badPassword:
            guard canAsk, questions < Self.maxQuestions else { return .giveUp(reason: error.message) }
            questions += 1
            return .ask(question: "\(error.message); try again: ")
        default:
            return .giveUp(reason: error.message)
        }
    }
}
