/// Rows of words in aligned columns, for the tables the commands print (`pairs history`, `pairs
/// leaderboard`): each column as wide as its widest cell, numbers to the right, words to the left, two
/// spaces between columns, no trailing spaces.
public struct TextTable: Sendable, Hashable {
    /// How a column's cells line up.
    public enum Alignment: Sendable, Hashable {
        case left, right
    }

    public struct Column: Sendable, Hashable {
        public var title: String
        public var alignment: Alignment

        public init(_ title: String, _ alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    public var columns: [Column]
    /// One cell per column in each row; a missing cell is blank.
    public var rows: [[String]] = []

    public init(_ columns: [Column]) {
        self.columns = columns
    }

    public mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The title line and one line per row.
    public var lines: [String] {
        let all = [columns.map(\.title)] + rows
        let widths = columns.indices.map { index in all.map { cell(index, of: $0).count }.max() ?? 0 }
        return all.map { row in
            var line = columns.indices.map { index in
                let text = cell(index, of: row)
                let padding = String(repeating: " ", count: widths[index] - text.count)
                return columns[index].alignment == .right ? padding + text : text + padding
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    private func cell(_ index: Int, of row: [String]) -> String {
        row.indices.contains(index) ? row[index] : ""
    }
}
