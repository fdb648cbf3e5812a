/// An answer of the storage requests put back together, line by line, as a client receives it: the
/// inverse of `LongAnswers.lines`.
///
/// The first line says what the answer is (`history`, `replay`, `leaderboard`, `profile`, or an `error`);
/// every later one must continue it (the same type, or `replay_moves` of the same game), and its lists are
/// appended in order. The answer is complete at the first line without `more`.
public struct LongAnswer: Sendable, Hashable {
    /// A line that cannot be part of the answer being put together.
    public enum Mismatch: Error, Sendable, Hashable, CustomStringConvertible {
        /// The first line is not one of the answers that may take several lines, nor an error.
        case notAnAnswer
        /// A line of another answer arrived before this one was complete.
        case unexpectedLine
        /// A line arrived after the answer was complete.
        case alreadyComplete

        public var description: String {
            switch self {
            case .notAnAnswer: "the server answered with something other than the answer asked for"
            case .unexpectedLine: "the server interrupted an answer with a line of another one"
            case .alreadyComplete: "the server went on with an answer that was complete"
            }
        }
    }

    /// The answer so far: its first line with every later line's lists appended. Nil before the first line.
    public private(set) var message: ServerMessage?
    /// Whether the last line said no more follow.
    public private(set) var isComplete = false

    public init() {}

    /// Takes the next line of the answer.
    public mutating func append(_ line: ServerMessage) throws(Mismatch) {
        guard !isComplete else { throw .alreadyComplete }
        guard let current = message else {
            switch line {
            case .history, .replay, .leaderboard, .profile, .tournament, .tournaments, .error: break
            default: throw .notAnAnswer
            }
            message = line
            isComplete = !line.continuesAnswer
            return
        }
        switch (current, line) {
        case (.history(var page), .history(let next)):
            page.games += next.games
            page.more = next.more
            message = .history(page)
        case (.replay(let replay), .replayMoves(let next)) where next.game == replay.summary.game:
            message = .replay(replay.appending(next))
        case (.leaderboard(var board), .leaderboard(let next)) where next.variant == board.variant:
            switch (board.places, next.places) {
            case (.rated(let places), .rated(let more)):
                board.places = .rated(places + more)
            case (.solo(let places, let by), .solo(let more, let nextBy)) where by == nextBy:
                board.places = .solo(places + more, by: by)
            default:
                throw .unexpectedLine
            }
            board.more = next.more
            message = .leaderboard(board)
        case (.profile(var profile), .profile(let next)) where next.name == profile.name:
            profile.ratings += next.ratings
            profile.solo += next.solo
            profile.games += next.games
            profile.more = next.more
            message = .profile(profile)
        case (.tournament(var view), .tournament(let next)) where next.name == view.name:
            view.standings += next.standings
            view.pairings += next.pairings
            view.more = next.more
            message = .tournament(view)
        case (.tournaments(var list), .tournaments(let next)):
            list.tournaments += next.tournaments
            list.more = next.more
            message = .tournaments(list)
        default:
            throw .unexpectedLine
        }
        isComplete = !line.continuesAnswer
    }
}

extension ServerMessage {
    /// Whether more lines of the same answer follow this one (it says `more`).
    public var continuesAnswer: Bool { answerLine?.more ?? false }

    /// The id of the request a line of a long answer, or an error, answers; nil for any other message.
    public var answerID: RequestID? { answerLine?.id }

    /// The id and `more` of a line of a long answer, or of an error (which is always a whole answer).
    private var answerLine: (id: RequestID?, more: Bool)? {
        switch self {
        case .history(let page): (page.id, page.more)
        case .replay(let replay): (replay.id, replay.more)
        case .replayMoves(let part): (part.id, part.more)
        case .leaderboard(let board): (board.id, board.more)
        case .profile(let profile): (profile.id, profile.more)
        case .tournament(let view): (view.id, view.more)
        case .tournaments(let list): (list.id, list.more)
        case .error(let error): (error.id, false)
        default: nil
        }
    }
}
