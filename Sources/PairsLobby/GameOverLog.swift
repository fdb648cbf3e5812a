import PairsRules
import PairsWire

/// A game that has just ended, as the log tells it: who played, the scores, who won and how it ended.
public struct GameOverLog: Sendable, Hashable {
    public var room: String
    /// The game's number in its room.
    public var game: Int
    /// One per seat, in seat order: the name the room knew, whether it was claimed, the final score.
    public var players: [FinishedPlayer]
    public var outcome: Outcome
    public var end: GameEnd

    public init(room: String, game: Int, players: [FinishedPlayer], outcome: Outcome, end: GameEnd) {
        self.room = room
        self.game = game
        self.players = players
        self.outcome = outcome
        self.end = end
    }
}
