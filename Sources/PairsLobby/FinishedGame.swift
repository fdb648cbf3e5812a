import PairsRecords
import PairsRules
import PairsWire

/// A game that has just ended, as the lobby hands it over to be kept: everything needed to list it, rate it
/// and replay it, with moments on the lobby's clock (the transport turns them into wall-clock times).
public struct FinishedGame: Sendable, Hashable {
    public var room: String
    public var rules: RuleSet
    /// One entry per seat: the name the room knew, whether it was proved with its password, the score.
    public var players: [FinishedPlayer]
    public var outcome: Outcome
    public var end: GameEnd
    /// The game's first state (its peek, or its start) and its last.
    public var started: Moment
    public var ended: Moment
    /// Every face, in board order.
    public var deal: [String]
    /// Every move, with its moment in milliseconds since `started`.
    public var moves: [ReplayMove]
    /// The key of the tournament the game was played in (`FinishedTournament.key`), or nil.
    public var tournament: String? = nil

    /// Whether the game counts for its ladder (the ratings, or a solo player's records): every seat's name
    /// was claimed, so nobody can play in someone else's name.
    public var isRated: Bool { players.allSatisfy(\.claimed) }

    /// Cards turned in the game.
    public var flips: Int { moves.count { if case .flip = $0.action { true } else { false } } }
}

/// A game's moves as they happen, kept by its room while the game is on (only when the server keeps games).
struct GameLog {
    /// The game's number in its room.
    let game: Int
    let started: Moment
    private(set) var moves: [ReplayMove] = []

    init(game: Int, started: Moment) {
        self.game = game
        self.started = started
    }

    /// Notes what `event` did, at `now`: flips (the last of a set included), timeouts, connections dropped
    /// and back, forfeits. The rest follows from these and the rules.
    mutating func note(_ event: GameEvent, at now: Moment) {
        let milliseconds = started.milliseconds(until: now)
        let move: (Seat, ReplayMove.Action)?
        switch event {
        case .flip(let seat, let card): move = (seat, .flip(card: card))
        case .match(let seat, let cards, _), .mismatch(let seat, let cards, _), .over(let seat, let cards, _):
            move = cards.last.map { (seat, .flip(card: $0)) }
        case .timeout(let seat, _): move = (seat, .timeout)
        case .disconnect(let seat): move = (seat, .disconnect)
        case .reconnect(let seat): move = (seat, .reconnect)
        case .forfeit(let seat, let reason): move = (seat, .forfeit(reason))
        case .join, .peek, .start, .hide, .timeUp, .exhausted, .leave, .rematch: move = nil
        }
        if let (seat, action) = move { moves.append(ReplayMove(milliseconds: milliseconds, seat: seat, action: action)) }
    }
}

/// How the final event of a game says it ended.
extension GameEnd {
    init?(_ event: GameEvent) {
        switch event {
        case .over: self = .cleared
        case .forfeit(_, let reason): self = .forfeit(reason)
        case .timeUp: self = .timeUp
        case .exhausted: self = .exhausted
        default: return nil
        }
    }
}

/// A tournament that has ended, as the store keeps it: its games were kept as each ended, under `key`.
public struct FinishedTournament: Sendable, Hashable {
    public var key: String
    public var name: String
    public var format: TournamentKind
    public var creator: String
    /// The rules of every game of it.
    public var rules: RuleSet
    /// When its first round or game began (or, never started, when it was made), and when it ended.
    public var started: Moment
    public var ended: Moment
    public var standings: [TournamentStanding]
}
