import PairsRecords
import PairsRules

/// How a finished game came to its end, as `history` and `replay` tell it.
public enum GameEnd: Sendable, Hashable {
    /// Every set was matched.
    case cleared
    /// A player gave the game up, for the reason given.
    case forfeit(ForfeitReason)
    /// The game clock ran out.
    case timeUp
    /// No set could be made of the cards still face down.
    case exhausted
}

/// A seat of a finished game (`PairsRecords`), named here too so that a client of the wire needs no other import.
public typealias FinishedPlayer = PairsRecords.FinishedPlayer

/// A finished game as `history` lists it: who played by which rules, how it ended, and when.
public struct FinishedGameSummary: Sendable, Hashable {
    /// The game's number, for `replay` and for paging `history`.
    public var game: Int64
    public var room: String
    public var rules: RuleSet
    /// One entry per seat.
    public var players: [FinishedPlayer]
    /// The winning seat; nil for a draw, or for a solo player who did not clear the board.
    public var winner: Seat?
    public var end: GameEnd
    /// ISO 8601, UTC, to the second: `2026-11-23T19:51:39Z`.
    public var started: String
    public var ended: String
    /// Cards turned in the game.
    public var flips: Int
    /// Whether the game counted for the ratings: two claimed names.
    public var rated: Bool
    /// The key of the tournament it was a game of, or nil.
    public var tournament: String?

    public init(game: Int64, room: String, rules: RuleSet, players: [FinishedPlayer], winner: Seat?, end: GameEnd,
                started: String, ended: String, flips: Int, rated: Bool, tournament: String? = nil) {
        self.tournament = tournament
        self.game = game
        self.room = room
        self.rules = rules
        self.players = players
        self.winner = winner
        self.end = end
        self.started = started
        self.ended = ended
        self.flips = flips
        self.rated = rated
    }
}

/// The answer to `history`: games, newest first.
///
/// On the wire an answer may take several lines (each within the line limit): every line but the last says
/// `more`, and a client appends the lines' games in order. Decoded, each line is one page.
public struct HistoryPage: Sendable, Hashable {
    public var games: [FinishedGameSummary]
    /// More lines of the same answer follow.
    public var more: Bool
    public var id: RequestID?

    public init(games: [FinishedGameSummary], more: Bool = false, id: RequestID? = nil) {
        self.games = games
        self.more = more
        self.id = id
    }
}

/// One move of a replay, at its moment: milliseconds since the game's first state (its peek, or its start).
public struct ReplayMove: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        case flip(card: Int)
        case timeout
        case disconnect
        case reconnect
        case forfeit(ForfeitReason)
    }

    public var milliseconds: Int64
    public var seat: Seat
    public var action: Action

    public init(milliseconds: Int64, seat: Seat, action: Action) {
        self.milliseconds = milliseconds
        self.seat = seat
        self.action = action
    }
}

/// The answer to `replay`: a finished game, its deal (every face in board order) and every move, enough to
/// play it again exactly.
///
/// On the wire a long game's moves take several lines: the `replay` line carries the game, its deal and the
/// first moves, and `replay_moves` lines carry the rest, every line but the last saying `more`. Decoded, the
/// `replay` line is a `GameReplay` with the moves it holds; `GameReplay.appending(_:)` adds the rest.
public struct GameReplay: Sendable, Hashable {
    public var summary: FinishedGameSummary
    public var deal: [String]
    public var moves: [ReplayMove]
    /// More moves follow in `replay_moves` lines.
    public var more: Bool
    public var id: RequestID?

    public init(summary: FinishedGameSummary, deal: [String], moves: [ReplayMove], more: Bool = false, id: RequestID? = nil) {
        self.summary = summary
        self.deal = deal
        self.moves = moves
        self.more = more
        self.id = id
    }

    /// The replay with a `replay_moves` line's moves added.
    public func appending(_ part: ReplayMoves) -> GameReplay {
        var whole = self
        whole.moves += part.moves
        whole.more = part.more
        return whole
    }
}

/// A `replay_moves` line: the next moves of a replay whose `replay` line said `more`.
public struct ReplayMoves: Sendable, Hashable {
    public var game: Int64
    public var moves: [ReplayMove]
    public var more: Bool
    public var id: RequestID?

    public init(game: Int64, moves: [ReplayMove], more: Bool, id: RequestID? = nil) {
        self.game = game
        self.moves = moves
        self.more = more
        self.id = id
    }
}
