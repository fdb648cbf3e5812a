import PairsRules
import PairsWire

/// The tournament `pairs play` follows (one the player entered or watches): its last `tournament` message,
/// put together from its lines, with when it came, so the screen between games can show the standings,
/// the player's next game and the time to the next round or to the end.
public struct FollowedTournament: Sendable, Hashable {
    /// The last whole message.
    public private(set) var view: TournamentView
    /// When it came, on the client's clock: an arena's time left and a Swiss's break count down from here.
    public private(set) var arrivedAt: Moment

    /// The break between a Swiss's rounds: the next starts this long after the last game of one ends
    /// (protocol.md, Tournaments).
    static let swissBreakMilliseconds: Int64 = 10_000

    public init(_ view: TournamentView, at now: Moment) {
        self.view = view
        arrivedAt = now
    }

    /// The player's game in progress, if the current pairings have one: its room and the other player.
    public func game(of name: String?) -> (room: String, opponent: String)? {
        guard let name else { return nil }
        for board in view.pairings {
            guard let seat = board.players.firstIndex(of: name) else { continue }
            return (board.room, board.players.indices.contains(1 - seat) ? board.players[1 - seat] : "?")
        }
        return nil
    }

    /// Whether `room` is one of this tournament's games now.
    public func isPlayed(in room: String) -> Bool {
        view.pairings.contains { $0.room == room }
    }

    /// Milliseconds until an arena's time is up, or until a Swiss's next round when every game of this one
    /// has ended; nil when nothing is counting down.
    public func millisecondsToNext(at now: Moment) -> Int64? {
        let elapsed = arrivedAt.milliseconds(until: now)
        switch view.format {
        case .arena:
            guard view.status == .running, let left = view.millisecondsLeft else { return nil }
            return max(0, left - elapsed)
        case .swiss:
            guard view.status == .running, view.pairings.isEmpty, let round = view.round, let rounds = view.rounds,
                  round < rounds else { return nil }
            return max(0, Self.swissBreakMilliseconds - elapsed)
        }
    }

    /// One line for the player `me` between games: their next game, or what they wait for.
    public func waitingLine(for me: String?, at now: Moment) -> String {
        let next = millisecondsToNext(at: now).map { TournamentReport.seconds($0) }
        switch view.status {
        case .open:
            return "\(view.name) has not started: \(view.entrants) entered so far"
        case .finished:
            let winner = view.standings.first.map { ", won by \($0.name)" } ?? ""
            return "\(view.name) is over\(winner)"
        case .finishing:
            return "\(view.name): time is up; the last games are being played"
        case .running:
            if let game = game(of: me) { return "your game: \(game.room) against \(game.opponent)" }
            if let me, view.bye == me { return "you have the bye this round" }
            if let me, let row = view.standings.first(where: { $0.name == me }), !row.active {
                return view.format == .arena ? "you are paused: /tournament join \(view.name) to play again"
                                             : "you are withdrawn from \(view.name)"
            }
            switch view.format {
            case .swiss:
                if let next { return "the next round starts in \(next)" }
                return "waiting for round \(view.round ?? 0)'s last \(view.pairings.count == 1 ? "game" : "\(view.pairings.count) games")"
            case .arena:
                return "waiting for an opponent" + (next.map { "; \($0) left" } ?? "")
            }
        }
    }

    /// "cup, round 2 of 3" or "bots, 4 min left": for the header of a game of the tournament.
    public func label(at now: Moment) -> String {
        switch view.format {
        case .swiss:
            guard let round = view.round, round > 0 else { return view.name }
            return "\(view.name), round \(round)" + (view.rounds.map { " of \($0)" } ?? "")
        case .arena:
            guard let left = millisecondsToNext(at: now) else { return view.name }
            return "\(view.name), \(TournamentReport.seconds(left)) left"
        }
    }
}
