import PairsWire

/// `pairs history`'s table: one line per finished game, newest first, under a title line.
///
/// ```
/// game  when              players        result   ended
///   12  2026-11-23 13:54  ann 2 - 0 bob  ann won  cleared
///   11  2026-11-23 13:50  sol 3          sol cleared the board  cleared  solo
/// ```
///
/// The rules column is there only when a game was not of the classic game, and says what made it another.
public enum HistoryTable {
    /// The table's lines; a sentence instead when there are no games.
    public static func lines(_ games: [FinishedGameSummary]) -> [String] {
        guard !games.isEmpty else { return ["no finished games yet"] }
        let showsRules = games.contains { !FinishedGameWords.rules(of: $0).isEmpty }
        var columns = [TextTable.Column("game", .right), TextTable.Column("when"), TextTable.Column("players"),
                       TextTable.Column("result"), TextTable.Column("ended")]
        if showsRules { columns.append(TextTable.Column("rules")) }
        var table = TextTable(columns)
        for game in games {
            table.append([String(game.game), FinishedGameWords.when(game.started), FinishedGameWords.players(of: game),
                          FinishedGameWords.result(of: game), FinishedGameWords.ending(of: game), FinishedGameWords.rules(of: game)])
        }
        return table.lines
    }
}
