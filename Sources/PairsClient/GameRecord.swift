import PairsRules
import PairsWire

/// One finished game, as a player saw it: the line `pairs bot` prints for it.
public struct GameRecord: Sendable, Hashable, CustomStringConvertible {
    /// How the game ended for the player.
    public enum Result: String, Sendable, Hashable {
        case won, lost, draw
    }

    /// How a solo game ended: the board cleared (won), or not, and why.
    public enum SoloEnding: Sendable, Hashable {
        case cleared
        /// The game clock ran out.
        case timeUp
        /// No set was left among the cards face down (a deck of playing cards).
        case exhausted
        /// The player gave up (left, or let the turn clock run out three times).
        case forfeited
        /// The game ended for a reason this client does not know (a newer server's).
        case notCleared
    }

    /// Games this player finished so far, this one included (1 for the first).
    public var number: Int
    /// The room's game number.
    public var game: Int
    public var name: String
    public var score: Int
    /// The other player's name and score in a game of two; "nobody" and 0 in a solo game.
    public var opponentName: String
    public var opponentScore: Int
    public var result: Result
    /// The name of the player who forfeited, when the board was not cleared.
    public var forfeitedBy: String?
    /// How a solo game ended; nil in a game of two players.
    public var solo: SoloEnding?

    public init(number: Int, game: Int, name: String, score: Int, opponentName: String, opponentScore: Int,
                result: Result, forfeitedBy: String? = nil, solo: SoloEnding? = nil) {
        self.number = number
        self.game = game
        self.name = name
        self.score = score
        self.opponentName = opponentName
        self.opponentScore = opponentScore
        self.result = result
        self.forfeitedBy = forfeitedBy
        self.solo = solo
    }

    /// The record of the game that ended in `state`, from `seat`'s side; nil unless `state` ends the game.
    public init?(number: Int, state: WireState, seat: Seat) {
        guard state.endsGame, let outcome = state.outcome else { return nil }
        guard state.players.indices.contains(seat.index) else { return nil }
        let me = state.players[seat.index]
        let isSolo = state.players.count == 1
        // A solo game has nobody across the board.
        let opponent = state.players.indices.contains(seat.opponent.index) ? state.players[seat.opponent.index] : nil
        let result: Result =
            switch outcome {
            case .draw: .draw
            case .win(let winner): winner == seat ? .won : .lost
            case .loss: .lost
            }
        var forfeitedBy: String?
        // A server may leave out who forfeited; whoever it was lost.
        if !isSolo, state.event.kind == .forfeit, let loser = state.event.seat ?? outcome.winner?.opponent,
           state.players.indices.contains(loser.index) {
            forfeitedBy = state.players[loser.index]?.name ?? "seat \(loser.index + 1)"
        }
        var solo: SoloEnding?
        if isSolo {
            switch state.event.kind {
            case _ where result == .won: solo = .cleared
            case .timeUp: solo = .timeUp
            case .exhausted: solo = .exhausted
            case .forfeit: solo = .forfeited
            default: solo = .notCleared
            }
        }
        self.init(number: number, game: state.game, name: me?.name ?? "seat \(seat.index + 1)", score: me?.score ?? 0,
                  opponentName: opponent?.name ?? "nobody", opponentScore: opponent?.score ?? 0,
                  result: result, forfeitedBy: forfeitedBy, solo: solo)
    }

    /// `game 3: bot-memory 5 - 3 ann (won)`, with the forfeit named when there was one; for a solo game
    /// `game 3: bot-memory cleared the board, 12 points (won)` or
    /// `game 4: bot-memory did not clear the board, time's up, 8 points (lost)`.
    public var description: String {
        if let solo {
            let points = "\(score) point\(abs(score) == 1 ? "" : "s")"
            let how: String =
                switch solo {
                case .cleared: "cleared the board"
                case .timeUp: "did not clear the board, time's up"
                case .exhausted: "did not clear the board, no set left"
                case .forfeited: "forfeited"
                case .notCleared: "did not clear the board"
                }
            return "game \(number): \(name) \(how), \(points) (\(result.rawValue))"
        }
        let how = forfeitedBy.map { "\(result.rawValue), \($0) forfeited" } ?? result.rawValue
        return "game \(number): \(name) \(score) - \(opponentScore) \(opponentName) (\(how))"
    }
}
