import PairsRules
import PairsWire

/// `pairs profile`'s report: the name, its totals, its standing on every ladder it played, and its last
/// games.
///
/// ```
/// ann (claimed)
/// 12 games: 7 won, 4 lost, 1 drawn · solo: 3 played, 2 cleared
///
/// ratings
///   ladder        rating  games  won  lost  drawn
///   classic game   1662?      1    1     0      0
///
/// last games
///   game  when              players        result   ended
///     12  2026-11-23 13:54  ann 2 - 0 bob  ann won  cleared
/// ```
public enum ProfileReport {
    public static func lines(_ profile: PlayerProfile) -> [String] {
        var lines = ["\(profile.name) (\(profile.claimed ? "claimed" : "not claimed"))", totals(profile.totals)]
        if !profile.ratings.isEmpty {
            var table = TextTable([.init("ladder"), .init("rating", .right), .init("games", .right), .init("won", .right),
                                   .init("lost", .right), .init("drawn", .right)])
            for rating in profile.ratings {
                table.append([ladderName(rating.variant)] + LeaderboardTable.cells(of: rating.standing).dropFirst())
            }
            lines += ["", "ratings"] + table.lines.map { "  " + $0 }
        }
        if !profile.solo.isEmpty {
            var table = TextTable([.init("ladder"), .init("played", .right), .init("cleared", .right),
                                   .init("best time", .right), .init("fewest flips", .right)])
            for record in profile.solo {
                table.append([ladderName(record.variant)] + LeaderboardTable.cells(of: record.standing).dropFirst())
            }
            lines += ["", "solo records"] + table.lines.map { "  " + $0 }
        }
        if !profile.games.isEmpty {
            lines += ["", "last games"] + HistoryTable.lines(profile.games).map { "  " + $0 }
        }
        return lines
    }

    /// "12 games: 7 won, 4 lost, 1 drawn · solo: 3 played, 2 cleared", each half only when there is one.
    public static func totals(_ totals: PlayerProfile.Totals) -> String {
        var parts: [String] = []
        if totals.games > 0 || totals.soloPlayed == 0 {
            parts.append("\(totals.games) game\(totals.games == 1 ? "" : "s"): \(totals.wins) won, \(totals.losses) lost, \(totals.draws) drawn")
        }
        if totals.soloPlayed > 0 { parts.append("solo: \(totals.soloPlayed) played, \(totals.soloCleared) cleared") }
        return parts.joined(separator: " · ")
    }

    /// "classic game", or what makes the ladder's variant another game ("solo, 3-card sets").
    static func ladderName(_ variant: Variant) -> String {
        let rules = RuleWords.summary(of: variant)
        return rules.isEmpty ? "classic game" : rules
    }
}

extension ProfileReport {
    /// The profile in a few lines, for the event area of `pairs play`: the name and its totals, then one
    /// line per ladder.
    ///
    /// ```
    /// ann (claimed): 12 games: 7 won, 4 lost, 1 drawn
    ///   classic game: 1662? (1 game: 1 won, 0 lost, 0 drawn)
    ///   solo: best 41.3 s, fewest flips 16 (3 played, 2 cleared)
    /// ```
    public static func summaryLines(_ profile: PlayerProfile) -> [String] {
        var lines = ["\(profile.name) (\(profile.claimed ? "claimed" : "not claimed")): \(totals(profile.totals))"]
        for rating in profile.ratings {
            let standing = rating.standing
            lines.append("  \(ladderName(rating.variant)): \(LeaderboardTable.rating(of: standing)) (\(standing.games) "
                         + "game\(standing.games == 1 ? "" : "s"): \(standing.wins) won, \(standing.losses) lost, \(standing.draws) drawn)")
        }
        for record in profile.solo {
            let standing = record.standing
            let best = standing.bestMilliseconds.map { "best \(LeaderboardTable.time(milliseconds: $0))" } ?? "not cleared yet"
            let flips = standing.fewestFlips.map { ", fewest flips \($0)" } ?? ""
            lines.append("  \(ladderName(record.variant)): \(best)\(flips) (\(standing.played) played, \(standing.cleared) cleared)")
        }
        return lines
    }
}
