import PairsRecords
import PairsRules

/// The `tournament` and `tournaments` messages as protocol.md's "Tournaments" gives them: written for the
/// server, read back for clients.
enum TournamentJSON {
    static func write(_ view: TournamentView, to w: inout JSONWriter) {
        w.key("type"); w.string("tournament")
        w.key("name"); w.string(view.name)
        w.key("format"); w.string(view.format.wireName)
        w.key("status"); w.string(view.status.wireName)
        w.key("creator"); w.string(view.creator)
        w.key("rules"); RulesJSON.write(view.rules, to: &w)
        w.key("round"); optional(view.round, to: &w)
        w.key("rounds"); optional(view.rounds, to: &w)
        w.key("ms_left"); optional(view.millisecondsLeft, to: &w)
        w.key("entrants"); w.integer(view.entrants)
        w.key("standings"); w.beginArray()
        for row in view.standings {
            w.beginObject()
            w.key("rank"); w.integer(row.rank)
            w.key("name"); w.string(row.name)
            w.key("score"); write(row.score, to: &w)
            w.key("games"); w.integer(row.games)
            if let buchholz = row.buchholz { w.key("buchholz"); write(buchholz, to: &w) }
            if let sonnebornBerger = row.sonnebornBerger { w.key("sonneborn_berger"); write(sonnebornBerger, to: &w) }
            w.key("streak"); w.integer(row.streak)
            w.key("active"); w.bool(row.active)
            w.endObject()
        }
        w.endArray()
        w.key("pairings"); w.beginArray()
        for board in view.pairings {
            w.beginObject()
            w.key("room"); w.string(board.room)
            w.key("players"); w.beginArray()
            for player in board.players { w.string(player) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        if let bye = view.bye { w.key("bye"); w.string(bye) }
    }

    static func write(_ list: TournamentList, to w: inout JSONWriter) {
        w.key("type"); w.string("tournaments")
        w.key("tournaments"); w.beginArray()
        for summary in list.tournaments {
            w.beginObject()
            w.key("name"); w.string(summary.name)
            w.key("format"); w.string(summary.length.kind.wireName)
            switch summary.length {
            case .rounds(let rounds): w.key("rounds"); optional(rounds, to: &w)
            case .milliseconds(let milliseconds): w.key("minutes"); writeMinutes(milliseconds, to: &w)
            }
            w.key("status"); w.string(summary.status.wireName)
            w.key("creator"); w.string(summary.creator)
            w.key("entrants"); w.integer(summary.entrants)
            w.key("rules"); RulesJSON.write(summary.rules, to: &w)
            w.key("start")
            switch summary.start {
            case .manual: w.string("manual")
            case .players(let count): w.integer(count)
            }
            w.key("claimed_only"); w.bool(summary.claimedOnly)
            w.endObject()
        }
        w.endArray()
    }

    private static func write(_ points: QuarterPoints, to w: inout JSONWriter) {
        w.raw(points.description.utf8)
    }

    private static func optional(_ value: (some BinaryInteger)?, to w: inout JSONWriter) {
        if let value { w.integer(value) } else { w.null() }
    }
}
