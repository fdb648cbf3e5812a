import PairsRules
import PairsWire

/// `pairs leaderboard`'s table: which ladder it is, then one line per place, best first.
///
/// ```
/// the classic game's ladder
/// rank  name  rating  games  won  lost  drawn
///    1  ann    1662?      1    1     0      0
/// ```
///
/// A rating with a deviation above 110 is provisional: too few games to trust it, shown with a `?`. A solo
/// ladder has no ratings: the best time to clear the board and the fewest flips instead.
public enum LeaderboardTable {
    public static func lines(_ board: Leaderboard) -> [String] {
        var lines = [title(of: board.variant, places: board.places)]
        switch board.places {
        case .rated(let places):
            guard !places.isEmpty else { return lines + ["nobody is rated on this ladder yet"] }
            var table = TextTable([.init("rank", .right), .init("name"), .init("rating", .right), .init("games", .right),
                                   .init("won", .right), .init("lost", .right), .init("drawn", .right)])
            for place in places {
                table.append([String(place.rank)] + cells(of: place.standing))
            }
            lines += table.lines
        case .solo(let places, _):
            // Solo games under names nobody claimed are kept but not ranked: say so, or a player who just
            // cleared a board under such a name finds an empty ladder and no reason.
            guard !places.isEmpty else { return lines + Self.noClaimedSoloPlayer }
            var table = TextTable([.init("rank", .right), .init("name"), .init("played", .right), .init("cleared", .right),
                                   .init("best time", .right), .init("fewest flips", .right)])
            for place in places {
                table.append([String(place.rank)] + cells(of: place.standing))
            }
            lines += table.lines
        }
        return lines
    }

    /// What an empty solo ladder says: only claimed names are ranked, and how to claim one.
    static let noClaimedSoloPlayer = [
        "no claimed name has played on this ladder yet: only claimed names are ranked",
        "(claim yours with pairs play --name NAME --password)",
    ]

    /// "the classic game's ladder", "the ladder of solo, 3-card sets, by time".
    static func title(of variant: Variant, places: Leaderboard.Places) -> String {
        let rules = RuleWords.summary(of: variant)
        let name = rules.isEmpty ? "the classic game's ladder" : "the ladder of \(rules)"
        if case .solo(_, let by) = places { return name + (by == .time ? ", by time" : ", by flips") }
        return name
    }

    /// A rated standing's cells after its rank: name, rating (with `?` while provisional), games, won, lost,
    /// drawn.
    static func cells(of standing: LadderStanding) -> [String] {
        [standing.name, rating(of: standing), String(standing.games), String(standing.wins), String(standing.losses),
         String(standing.draws)]
    }

    /// A solo standing's cells after its rank: name, played, cleared, best time, fewest flips.
    static func cells(of standing: SoloStanding) -> [String] {
        [standing.name, String(standing.played), String(standing.cleared),
         standing.bestMilliseconds.map(time(milliseconds:)) ?? "-", standing.fewestFlips.map(String.init) ?? "-"]
    }

    /// "1662", or "1662?" while provisional.
    public static func rating(of standing: LadderStanding) -> String {
        "\(standing.rating)\(standing.provisional ? "?" : "")"
    }

    /// "41.3 s", "1:02.5": a best time to a tenth of a second (truncated, so a record is never rounded
    /// up past another).
    public static func time(milliseconds: Int) -> String {
        let tenths = max(0, milliseconds) / 100
        let seconds = tenths / 10
        guard seconds >= 60 else { return "\(seconds).\(tenths % 10) s" }
        return "\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60).\(tenths % 10)"
    }
}
