import PairsWire

/// A tournament as `pairs tournament` prints it: a heading, the standings as a table, the games in
/// progress with their rooms (to watch), and the list of a server's tournaments. The connection has
/// cleaned every string already (`NetworkText`).
public enum TournamentReport {
    /// "cup: swiss, running, round 2 of 3, 8 entrants", then the standings and the pairings.
    public static func lines(_ view: TournamentView) -> [String] {
        var progress = [view.format.rawValue, view.status.rawValue]
        if let round = view.round, view.status != .open { progress.append("round \(round)" + (view.rounds.map { " of \($0)" } ?? "")) }
        if let left = view.millisecondsLeft, view.status == .running { progress.append("\(seconds(left)) left") }
        progress.append("\(view.entrants) entrant\(view.entrants == 1 ? "" : "s")")
        var lines = ["\(view.name): \(progress.joined(separator: ", "))"]
        guard !view.standings.isEmpty else { return lines }
        let isSwiss = view.format == .swiss
        var table = TextTable([TextTable.Column("#", .right), TextTable.Column("name"), TextTable.Column("score", .right),
                               TextTable.Column("games", .right)]
                              + (isSwiss ? [TextTable.Column("buchholz", .right), TextTable.Column("s-b", .right)]
                                         : [TextTable.Column("streak", .right)]))
        for row in view.standings {
            let name = row.name + (row.active ? "" : (isSwiss ? " (withdrawn)" : " (paused)"))
            table.append(["\(row.rank)", name, row.score.description, "\(row.games)"]
                         + (isSwiss ? [row.buchholz?.description ?? "", row.sonnebornBerger?.description ?? ""] : ["\(row.streak)"]))
        }
        lines += table.lines
        for board in view.pairings {
            lines.append("\(board.room): \(board.players.joined(separator: " - "))")
        }
        if let bye = view.bye { lines.append("bye: \(bye)") }
        return lines
    }

    /// One line per tournament: name, format and length, status, entrants, creator.
    public static func lines(_ list: TournamentList) -> [String] {
        guard !list.tournaments.isEmpty else { return ["no tournaments"] }
        var table = TextTable([TextTable.Column("name"), TextTable.Column("format"), TextTable.Column("status"),
                               TextTable.Column("entrants", .right), TextTable.Column("creator")])
        for summary in list.tournaments {
            let format: String = switch summary.length {
            case .rounds(let rounds?): "swiss, \(rounds) rounds"
            case .rounds(nil): "swiss"
            case .milliseconds(let milliseconds): "arena, \(seconds(milliseconds))"
            }
            table.append([summary.name, format, summary.status.rawValue, "\(summary.entrants)",
                          summary.creator])
        }
        return table.lines
    }

    /// "90 s" or "12 min".
    static func seconds(_ milliseconds: Int64) -> String {
        milliseconds >= 120_000 ? "\(milliseconds / 60_000) min" : "\((milliseconds + 999) / 1000) s"
    }
}
