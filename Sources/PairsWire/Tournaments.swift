import PairsRecords
import PairsRules

/// The tournament requests (`tournament_create`, `_join`, `_leave`, `_start`, `_list`, `_watch`), one case
/// of `ClientMessage` so that a server that does not run tournaments yet refuses them in one place.
public enum TournamentRequest: Sendable, Hashable {
    case create(TournamentCreation)
    /// `standings`: the rows the pushes to this connection carry, the top N and its own (nil: every row, as
    /// before the field existed).
    case join(tournament: String, standings: Int? = nil)
    /// Leaves: before the start, out of it; a Swiss player is withdrawn, an arena player paused.
    case leave(tournament: String)
    /// By its creator.
    case start(tournament: String)
    case list
    /// Receive its `tournament` messages without playing; `standings` as `join`'s.
    case watch(tournament: String, standings: Int? = nil)
}

/// Which kind of tournament, as `format` names it.
public enum TournamentKind: String, Sendable, Hashable, CaseIterable, WireNamed {
    case swiss
    case arena
    public var wireName: String { rawValue }
}

/// How long a tournament goes on: a Swiss's rounds (nil: as many as find a single winner) or an arena's
/// time, in milliseconds (`minutes` on the wire, decimals allowed).
public enum TournamentLength: Sendable, Hashable {
    case rounds(Int?)
    case milliseconds(Int64)

    public var kind: TournamentKind {
        if case .rounds = self { .swiss } else { .arena }
    }
}

/// When a tournament starts: when its creator says (`"manual"`) or by itself at a number of players.
public enum TournamentStart: Sendable, Hashable {
    case manual
    case players(Int)
}

/// A `tournament_create`.
public struct TournamentCreation: Sendable, Hashable {
    public var name: String
    public var length: TournamentLength
    /// The rules of every game, as `join` takes them; unchosen ones take the server's defaults.
    public var rules: RuleChoices
    public var start: TournamentStart
    public var claimedOnly: Bool

    public init(name: String, length: TournamentLength, rules: RuleChoices = RuleChoices(), start: TournamentStart = .manual,
                claimedOnly: Bool = false) {
        self.name = name
        self.length = length
        self.rules = rules
        self.start = start
        self.claimedOnly = claimedOnly
    }
}

/// The limits of the tournament requests, as protocol.md gives them.
public enum TournamentLimits {
    /// Characters of a tournament's name (`A-Z a-z 0-9 - _`): its games' rooms are named after it with a
    /// number (`cup-12`), and a room name is 32 characters at most.
    public static let maxNameCharacters = 20
    /// Players a tournament takes: a LAN party's Swiss or the arena of 1,000 bots, with room; it
    /// bounds a pairing and the lines of the standings.
    public static let maxEntrants = 1024
    /// Players a tournament may be set to start at (`start`): two make a game.
    public static let startPlayersRange: ClosedRange<Int> = 2...maxEntrants
    /// The `standings` a follower may ask its pushes to carry (the top N rows, and its own): 0, its own row
    /// alone, to every row of the largest field; more would ask for rows no tournament has.
    public static let followedStandingsRange: ClosedRange<Int> = 0...maxEntrants
    /// Rounds of a Swiss: 20 find a single winner among a million players; more would be a round robin.
    public static let roundsRange: ClosedRange<Int> = 1...20
    /// Minutes of an arena, decimals allowed: from 6 seconds (a test's) to a day.
    public static let minutesRange: ClosedRange<Double> = 0.1...1440

    /// Characters of a tournament's key, which its kept games carry (`history`'s `tournament`): its name, a
    /// dash and 8 hex digits, so that tournaments that shared a name are told apart.
    public static let maxKeyCharacters = maxNameCharacters + 9

    /// Whether `key` can be a tournament's key: 1 to `maxKeyCharacters` of `A-Z a-z 0-9 - _`.
    public static func isValidKey(_ key: String) -> Bool {
        key.utf8.count <= maxKeyCharacters && RoomName.isValid(key)
    }

    /// Whether `name` is a tournament's name: 1 to `maxNameCharacters` of `A-Z a-z 0-9 - _`.
    public static func isValidName(_ name: String) -> Bool {
        name.utf8.count <= maxNameCharacters && RoomName.isValid(name)
    }
}

/// Where a tournament is, as `status` names it.
public enum TournamentPhase: String, Sendable, Hashable, CaseIterable, WireNamed {
    /// Taking entrants.
    case open
    case running
    /// An arena whose time is up, its last games finishing.
    case finishing
    case finished
    public var wireName: String { rawValue }
}

/// An arena's length as `minutes` says it: a whole number when it is one (`5`), else a decimal (`0.5`).
func writeMinutes(_ milliseconds: Int64, to w: inout JSONWriter) {
    if milliseconds % 60_000 == 0 { w.integer(milliseconds / 60_000) } else { w.double(Double(milliseconds) / 60_000) }
}

/// A game of the tournament in progress: its room (to `watch`) and its players, seat 0 first.
public struct TournamentBoard: Sendable, Hashable {
    public var room: String
    public var players: [String]

    public init(room: String, players: [String]) {
        self.room = room
        self.players = players
    }
}

/// What a `tournament` message says: sent to every entrant and watcher whenever something changes, and in
/// answer to the requests about one tournament.
public struct TournamentView: Sendable, Hashable {
    public var name: String
    public var format: TournamentKind
    public var status: TournamentPhase
    public var creator: String
    public var rules: RuleSet
    /// Swiss: the current round (0 before the first); nil in an arena.
    public var round: Int?
    /// Swiss: the rounds it plays (nil while open with rounds left to the default); nil in an arena.
    public var rounds: Int?
    /// Arena: milliseconds of play left when the message was made (the whole length while open, 0 once the
    /// time is up); nil in a Swiss.
    public var millisecondsLeft: Int64?
    /// Players entered, withdrawn and paused included.
    public var entrants: Int
    public var standings: [TournamentStanding]
    /// The games in progress.
    public var pairings: [TournamentBoard]
    /// Swiss: who has the current round's bye.
    public var bye: String?
    /// More lines of this message follow (the standings of a large field do not fit one).
    public var more: Bool
    public var id: RequestID?

    public init(name: String, format: TournamentKind, status: TournamentPhase, creator: String, rules: RuleSet,
                round: Int? = nil, rounds: Int? = nil, millisecondsLeft: Int64? = nil, entrants: Int,
                standings: [TournamentStanding] = [], pairings: [TournamentBoard] = [], bye: String? = nil,
                more: Bool = false, id: RequestID? = nil) {
        self.name = name
        self.format = format
        self.status = status
        self.creator = creator
        self.rules = rules
        self.round = round
        self.rounds = rounds
        self.millisecondsLeft = millisecondsLeft
        self.entrants = entrants
        self.standings = standings
        self.pairings = pairings
        self.bye = bye
        self.more = more
        self.id = id
    }
}

extension TournamentView {
    /// The view as a follower that asked for `standings` N sees it: the top `top` rows, and `own`'s row
    /// wherever it is; the games in progress of the players shown. The rest is as it was.
    public func following(top: Int, own: String?) -> TournamentView {
        var view = self
        view.standings = standings.enumerated().filter { $0.offset < top || $0.element.name == own }.map(\.element)
        let shown = Set(view.standings.map(\.name))
        view.pairings = pairings.filter { board in board.players.contains(where: shown.contains) }
        return view
    }
}

/// One tournament in a `tournaments` answer.
public struct TournamentSummary: Sendable, Hashable {
    public var name: String
    public var length: TournamentLength
    public var status: TournamentPhase
    public var creator: String
    public var entrants: Int
    public var rules: RuleSet
    public var start: TournamentStart
    public var claimedOnly: Bool

    public init(name: String, length: TournamentLength, status: TournamentPhase, creator: String, entrants: Int,
                rules: RuleSet, start: TournamentStart = .manual, claimedOnly: Bool = false) {
        self.name = name
        self.length = length
        self.status = status
        self.creator = creator
        self.entrants = entrants
        self.rules = rules
        self.start = start
        self.claimedOnly = claimedOnly
    }
}

/// The answer to `tournament_list`: every tournament the server has, open ones first.
public struct TournamentList: Sendable, Hashable {
    public var tournaments: [TournamentSummary]
    public var more: Bool
    public var id: RequestID?

    public init(tournaments: [TournamentSummary], more: Bool = false, id: RequestID? = nil) {
        self.tournaments = tournaments
        self.more = more
        self.id = id
    }
}
