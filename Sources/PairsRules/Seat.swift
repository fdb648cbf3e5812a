/// One of the two places at a board. Seat 0 (`first`) moves first in a room's first game.
public enum Seat: Int, Sendable, Hashable, CaseIterable {
    case first = 0
    case second = 1

    /// The seat across the board.
    public var opponent: Seat { self == .first ? .second : .first }

    /// The seat with this wire index (0 or 1), or nil for any other number.
    public init?(index: Int) {
        self.init(rawValue: index)
    }

    /// The wire index of the seat: 0 or 1.
    public var index: Int { rawValue }
}
