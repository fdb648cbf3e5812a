/// Why a move was refused. A refused move changes nothing.
public enum MoveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The other seat is on turn.
    case notYourTurn
    /// No flip is possible in this phase (waiting for an opponent, mismatch on show, game over).
    case notPlaying(Phase)
    /// The card index is not on the board.
    case cardOutOfRange(card: Int, cardCount: Int)
    /// The card is already face up or already matched.
    case cardNotFaceDown(card: Int)
    /// A rematch was asked for outside of a finished game.
    case gameNotOver(Phase)
    /// This seat already asked for a rematch of this game.
    case rematchAlreadyRequested
    /// Both seats are taken.
    case roomFull
    /// The seat has no player.
    case seatEmpty(Seat)

    public var description: String {
        switch self {
        case .notYourTurn:
            "it is not your turn"
        case .notPlaying(let phase):
            switch phase {
            case .waiting: "the game has not started: waiting for an opponent"
            case .peek: "wait: every face is on show until play starts"
            case .reveal: "wait: the mismatched cards are still on show"
            case .over: "the game is over: ask for a rematch"
            case .playing: "no flip is possible now"
            }
        case .cardOutOfRange(let card, let count):
            "card \(card) is not on the board (cards are 0 to \(count - 1))"
        case .cardNotFaceDown(let card):
            "card \(card) is not face down"
        case .gameNotOver:
            "a rematch can be asked for only when the game is over"
        case .rematchAlreadyRequested:
            "you already asked for a rematch: waiting for your opponent"
        case .roomFull:
            "both seats are taken"
        case .seatEmpty(let seat):
            "seat \(seat.index) is empty"
        }
    }
}
