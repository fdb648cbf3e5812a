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
        guard let (number, body, result) = gameLineParts(line) else { return nil }
        let words = body.split(separator: " ")
        guard words.count == 5, words[2] == "-", let score = Int(words[1]), let opponentScore = Int(words[3]) else { return nil }
        self.number = number
        self.name = String(words[0])
        self.score = score
        self.opponentScore = opponentScore
        self.opponent = String(words[4])
        self.result = result
    }
}

/// `game N: BODY (RESULT)` cut into its number, body and result; nil for any other line.
private func gameLineParts(_ line: String) -> (number: Int, body: Substring, result: String)? {
    guard line.hasPrefix("game "), let colon = line.firstIndex(of: ":"),
          let number = Int(line[line.index(line.startIndex, offsetBy: 5)..<colon]),
          let open = line.lastIndex(of: "("), line.hasSuffix(")"), open > colon else { return nil }
    var body = line[line.index(after: colon)..<open]
    while body.first == " " { body.removeFirst() }
    while body.last == " " { body.removeLast() }
    return (number, body, String(line[line.index(after: open)..<line.index(before: line.endIndex)]))
}

/// A line `pairs bot` (or the Python bot) prints per solo game:
/// `game 3: bot-memory cleared the board, 12 points (won)`, `game 4: bot-memory did not clear the board,
/// time's up, 8 points (lost)`.
struct SoloLine: Equatable {
    var number: Int
    var name: String
    /// What happened: "cleared the board", "did not clear the board, time's up", ...
    var how: String
    var points: Int
    var result: String

    /// Reads a solo game line; nil for any other line.
    init?(_ line: String) {
        guard let (number, body, result) = gameLineParts(line), let comma = body.lastIndex(of: ",") else { return nil }
        let head = body[..<comma]
        let tail = body[body.index(after: comma)...].split(separator: " ")
        guard tail.count == 2, tail[1].hasPrefix("point"), let points = Int(tail[0]), let space = head.firstIndex(of: " ") else { return nil }
        self.number = number
        self.name = String(head[..<space])
        self.how = String(head[head.index(after: space)...])
        self.points = points
        self.result = result
    }
}

/// What does not add up between the lines two players printed for the same series of `games` games on a
/// board of `pairs` sets: the count, the numbering, the names, scores that do not cover the board (when
/// `pairs` is given: with classic scoring a point is a set) or do not mirror each other, results that do
/// not mirror. Empty when everything agrees.
func seriesDisagreements(_ mine: [GameLine], _ theirs: [GameLine], names: (mine: String, theirs: String),
                         games: Int, pairs: Int?) -> [String] {
    var problems: [String] = []
    if mine.count != games || theirs.count != games { problems.append("\(mine.count) and \(theirs.count) games, not \(games)") }
    if mine.map(\.number) != Array(1..<(mine.count + 1)) { problems.append("games numbered \(mine.map(\.number))") }
    let opposite = ["won": "lost", "lost": "won", "draw": "draw"]
    for (a, b) in zip(mine, theirs) {
        if a.name != names.mine || a.opponent != names.theirs { problems.append("\(a.name) against \(a.opponent)") }
        if let pairs, a.score + a.opponentScore != pairs {
            problems.append("game \(a.number): \(a.score) + \(a.opponentScore) pairs of \(pairs)")
        }
        if a.score != b.opponentScore || a.opponentScore != b.score { problems.append("game \(a.number): \(a) against \(b)") }
        let result = a.result.split(separator: ",").first.map(String.init)
        if opposite[result ?? ""] != b.result.split(separator: ",").first.map(String.init) {
            problems.append("game \(a.number): \(a.result) against \(b.result)")
        }
    }
    return problems
}
