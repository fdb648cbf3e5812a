/// How the cards of a board are arranged: rows x columns, row-major, with nothing left over.
public struct BoardLayout: Sendable, Hashable {
    public let rows: Int
    public let columns: Int

    public var cardCount: Int { rows * columns }

    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    /// The layout of `cardCount` cards as close to square as possible: the most rows that divide the count
    /// without exceeding the number of columns (16 cards: 4x4; 12: 3x4; 6: 2x3).
    public init(cardCount: Int) {
        precondition(cardCount > 0, "a board has cards")
        var rows = 1
        var candidate = 1
        while candidate * candidate <= cardCount {
            if cardCount % candidate == 0 { rows = candidate }
            candidate += 1
        }
        self.init(rows: rows, columns: cardCount / rows)
    }
}
