/// A seat of a finished game: the name the room knew, whether that name was claimed (proved with its
/// password), and the final score (negative scores exist with Matchismo scoring). The lobby makes it when a
/// game ends, the store keeps it, and `history` and `replay` carry it: one record, whoever holds it.
public struct FinishedPlayer: Sendable, Hashable {
    public var name: String
    public var claimed: Bool
    public var score: Int

    public init(name: String, claimed: Bool, score: Int) {
        self.name = name
        self.claimed = claimed
        self.score = score
    }
}
