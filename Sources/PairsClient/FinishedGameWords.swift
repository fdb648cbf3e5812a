#if canImport(Glibc)
import Glibc
#endif
import PairsRules
import PairsWire

/// A finished game in words, the parts `pairs history` puts in its columns and `pairs play` in its lines:
/// who played and what they scored, the result, how the game ended, when, and by which rules.
public enum FinishedGameWords {
    /// "ann 2 - 0 bob", or for a solo game "sol 8".
    public static func players(of game: FinishedGameSummary) -> String {
        let parts = game.players.map { "\($0.name) \($0.score)" }
        guard game.players.count == 2 else { return parts.joined(separator: ", ") }
        return "\(game.players[0].name) \(game.players[0].score) - \(game.players[1].score) \(game.players[1].name)"
    }

    /// "ann won", "draw"; for a solo game "sol cleared the board" or "sol did not clear the board".
    public static func result(of game: FinishedGameSummary) -> String {
        if game.players.count == 1 {
            let name = game.players[0].name
            return game.winner == nil ? "\(name) did not clear the board" : "\(name) cleared the board"
        }
        guard let winner = game.winner else { return "draw" }
        return "\(name(of: winner, in: game)) won"
    }

    /// "cleared", "bob left", "bob timed out 3 times", "bob was away too long", "time up", "no set left".
    public static func ending(of game: FinishedGameSummary) -> String {
        switch game.end {
        case .cleared: return "cleared"
        case .timeUp: return "time up"
        case .exhausted: return "no set left"
        case .forfeit(let reason):
            // The player who forfeited is the one who did not win: the other of two, or a solo player.
            let loser = game.players.count == 1 ? game.players[0].name : game.winner.map { name(of: $0.opponent, in: game) }
            guard let loser else { return "forfeit (\(reason.wireName))" }
            switch reason {
            case .left: return "\(loser) left"
            case .timeouts: return "\(loser) timed out \(Match.timeoutsToForfeit) times"
            case .away: return "\(loser) was away too long"
            }
        }
    }

    /// What makes the game's rules another game than the classic one ("solo, 3-card sets"); empty for the
    /// classic game.
    public static func rules(of game: FinishedGameSummary) -> String {
        RuleWords.summary(of: game.rules.variant)
    }

    /// An ISO 8601 UTC time from the server (`2026-11-23T12:54:06Z`) in the local time zone, to the minute:
    /// `2026-11-23 13:54`. A time in another form is shown as it came.
    public static func when(_ iso8601: String) -> String {
        // `YYYY-MM-DDTHH:MM:SS`, then the zone (`Z`) or a fraction of a second.
        let fields = iso8601.prefix(19).split(whereSeparator: { "-T:".contains($0) }).compactMap { Int32($0) }
        guard fields.count == 6, iso8601.count > 19, ["Z", "."].contains(iso8601.dropFirst(19).first) else { return iso8601 }
        var parts = tm()
        parts.tm_year = fields[0] - 1900
        parts.tm_mon = fields[1] - 1
        parts.tm_mday = fields[2]
        parts.tm_hour = fields[3]
        parts.tm_min = fields[4]
        parts.tm_sec = fields[5]
        var seconds = timegm(&parts)
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return iso8601 }
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &local)
        guard count > 0 else { return iso8601 }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func name(of seat: Seat, in game: FinishedGameSummary) -> String {
        game.players.indices.contains(seat.index) ? game.players[seat.index].name : "player \(seat.index + 1)"
    }
}
