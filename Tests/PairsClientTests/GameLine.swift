/// A line `pairs bot` (or the Python bot) prints per game: `game 3: bot-memory 5 - 3 ann (won)`.
struct GameLine: Equatable {
    var number: Int
    var name: String
    var score: Int
    var opponentScore: Int
    var opponent: String
    var result: String

    /// Reads a game line; nil for any other line.
    init?(_ line: String) {
        guard line.hasPrefix("game "), let colon = line.firstIndex(of: ":"),
              let number = Int(line[line.index(line.startIndex, offsetBy: 5)..<colon]),
              let open = line.lastIndex(of: "("), line.hasSuffix(")") else { return nil }
        let words = line[line.index(after: colon)..<open].split(separator: " ")
        guard words.count == 5, words[2] == "-", let score = Int(words[1]), let opponentScore = Int(words[3]) else { return nil }
        self.number = number
        self.name = String(words[0])
        self.score = score
        self.opponentScore = opponentScore
        self.opponent = String(words[4])
        self.result = String(line[line.index(after: open)..<line.index(before: line.endIndex)])
    }
}
