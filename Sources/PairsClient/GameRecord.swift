import PairsRules
import PairsWire

/// One finished game, as a player saw it: the line `pairs bot` prints for it.
public struct GameRecord: Sendable, Hashable, CustomStringConvertible {
    /// How the game ended for the player.
    public enum Result: String, Sendable, Hashable {
        case won, lost, draw
    }

    /// Games this player finished so far, this one included (1 for the first).
    public var number: Int
    /// The room's game number.
    public var game: Int
    public var name: String
    public var score: Int
    public var opponentName: String
    public var opponentScore: Int
    public var result: Result
    /// The name of the player who forfeited, when the board was not cleared.
    public var forfeitedBy: String?

    public init(number: Int, game: Int, name: String, score: Int, opponentName: String, opponentScore: Int,
                result: Result, forfeitedBy: String? = nil) {
        self.number = number
        self.game = game
        self.name = name
        self.score = score
        self.opponentName = opponentName
        self.opponentScore = opponentScore
        self.result = result
        self.forfeitedBy = forfeitedBy
    }

    /// The record of the game that ended in `state`, from `seat`'s side; nil unless the game is over.
    public init?(number: Int, state: WireState, seat: Seat) {
        guard state.phase == .over, let outcome = state.outcome else { return nil }
        guard state.players.indices.contains(seat.index) else { return nil }
        let me = state.players[seat.index]
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
        if state.event.kind == .forfeit, let loser = state.event.seat ?? outcome.winner?.opponent {
            forfeitedBy = state.players[loser.index]?.name ?? "seat \(loser.index + 1)"
        }
        self.init(number: number, game: state.game, name: me?.name ?? "seat \(seat.index + 1)", score: me?.score ?? 0,
                  opponentName: opponent?.name ?? "nobody", opponentScore: opponent?.score ?? 0,
                  result: result, forfeitedBy: forfeitedBy)
    }

    /// `game 3: bot-memory 5 - 3 ann (won)`, with the forfeit named when there was one.
    public var description: String {
        let how = forfeitedBy.map { "\(result.rawValue), \($0) forfeited" } ?? result.rawValue
        return "game \(number): \(name) \(score) - \(opponentScore) \(opponentName) (\(how))"
    }
}
