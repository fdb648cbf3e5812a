import PairsRecords

/// A finished game as the store keeps it: what history shows, plus the deal and every move for a replay.
///
/// Built by the caller when a game ends and handed to `GameStore.record(_:)`; read back by
/// `GameStore.replay(_:)`. Only finished games are ever stored, so no face of a card still in play leaks.
public struct GameRecord: Sendable, Hashable {
    /// Who played what, and how it ended.
    public var summary: GameSummary
    /// Every card's face in board order, as dealt.
    public var deal: [String]
    /// Everything that happened, in order.
    public var moves: [GameMove]

    public init(summary: GameSummary, deal: [String], moves: [GameMove]) {
        self.summary = summary
        self.deal = deal
        self.moves = moves
    }

    /// Cards turned up in the game.
    public var flips: Int {
        moves.count { if case .flip = $0.action { true } else { false } }
    }
}

/// A finished game without its deal and moves: one line of history.
public struct GameSummary: Sendable, Hashable {
    /// The room's name.
    public var room: String
    /// The rule set the game was played with.
    public var rules: StoredRules
    /// One entry per seat, seat 0 first: one for a solo game, two otherwise.
    public var players: [FinishedPlayer]
    /// Who won.
    public var outcome: GameOutcome
    /// How it ended.
    public var ending: GameEnding
    /// When play began, on the wall clock.
    public var started: WallClockTime
    /// When the game ended, on the wall clock.
    public var ended: WallClockTime
    /// Whether the game counts for its ladder: rated (Glicko-2) with two seats, the solo records with one.
    /// The caller decides, and may only say yes when every seat's name was claimed.
    public var rated: Bool
    /// The key of the tournament the game was played in (`TournamentRecord.key`), or nil.
    public var tournament: String?

    public init(
        room: String, rules: StoredRules, players: [FinishedPlayer], outcome: GameOutcome, ending: GameEnding,
        started: WallClockTime, ended: WallClockTime, rated: Bool, tournament: String? = nil
    ) {
        self.room = room
        self.rules = rules
        self.players = players
        self.outcome = outcome
        self.ending = ending
        self.started = started
        self.ended = ended
        self.rated = rated
        self.tournament = tournament
    }
}

/// The rule set of a game, as the caller describes it.
///
/// The store does not know the rules: it keeps `json` as given (and checks only that it is JSON), and
/// groups games into ladders by `ladder`. The caller decides which rules split ladders (game seconds do,
/// board size does not, for instance) and writes both strings the same way every time.
public struct StoredRules: Sendable, Hashable {
    /// Every rule, as canonical JSON text (one fixed key order, no spaces), for showing and replaying.
    public var json: String
    /// The key of the ladder the game belongs to: games with equal keys are ranked together.
    public var ladder: String

    public init(json: String, ladder: String) {
        self.json = json
        self.ladder = ladder
    }
}

/// A stored game's number, assigned by the store in the order games are committed.
public struct GameID: Sendable, Hashable, Comparable {
    public var rawValue: Int64

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: GameID, rhs: GameID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// A stored game, in full: what `GameStore.replay(_:)` returns.
public struct StoredGame: Sendable, Hashable {
    public var id: GameID
    public var record: GameRecord
}

/// A stored game in history: its summary and how many cards were turned.
public struct HistoryEntry: Sendable, Hashable {
    public var id: GameID
    public var summary: GameSummary
    public var flips: Int
}
