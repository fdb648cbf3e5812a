import PairsRules

/// How a tournament pairs its players and when it ends.
public enum TournamentFormat: Sendable, Hashable {
    /// Rounds in which everyone plays once (or has a bye); nil rounds: enough to find a single winner,
    /// ceil(log2 players), fixed when the tournament starts.
    case swiss(rounds: Int?)
    /// A fixed time in which a free player is paired again at once; games still in progress when the time
    /// is up finish and count.
    case arena(durationMilliseconds: Int64)
}

/// When a tournament starts.
public enum StartCondition: Sendable, Hashable {
    /// When its creator says so (`start(by:at:)`).
    case manual
    /// By itself, as soon as this many players have joined (its creator may still start it earlier).
    case players(Int)
}

/// Everything a director needs to run one tournament. The limits of what a client may ask for are the
/// wire's (`TournamentLimits` in PairsWire); these are checked values.
public struct TournamentConfiguration: Sendable, Hashable {
    public var name: String
    public var format: TournamentFormat
    /// The rules of every game of the tournament.
    public var rules: RuleSet
    public var start: StartCondition
    /// Whether only claimed names may join (the lobby knows which names are; the director is told).
    public var claimedOnly: Bool
    /// Players the tournament takes at most (the wire allows 1024: `TournamentLimits.maxEntrants`).
    public var maxEntrants: Int
    /// How long both players of a game have to take their seats once it is made; whoever has not by then
    /// forfeits it. A minute: the lobby's grace period for a dropped connection.
    public var startGraceMilliseconds: Int64
    /// How long an arena waits, once a player is free, before it pairs everyone free: a second, so that
    /// players freed by games ending at about the same moment meet the nearest score among them.
    public var pairingDelayMilliseconds: Int64
    /// The pause between the end of a Swiss round's last game and the next round: time to read the
    /// standings and find a drink.
    public var roundBreakMilliseconds: Int64

    public init(name: String, format: TournamentFormat, rules: RuleSet = .standard, start: StartCondition = .manual,
                claimedOnly: Bool = false, maxEntrants: Int = 1024, startGraceMilliseconds: Int64 = 60_000,
                pairingDelayMilliseconds: Int64 = 1_000, roundBreakMilliseconds: Int64 = 10_000) {
        self.name = name
        self.format = format
        self.rules = rules
        self.start = start
        self.claimedOnly = claimedOnly
        self.maxEntrants = maxEntrants
        self.startGraceMilliseconds = startGraceMilliseconds
        self.pairingDelayMilliseconds = pairingDelayMilliseconds
        self.roundBreakMilliseconds = roundBreakMilliseconds
    }
}

/// Where a tournament is in its life.
public enum TournamentStatus: String, Sendable, Hashable, CaseIterable {
    /// Taking entrants; nothing is paired yet.
    case open
    /// Games are being paired and played.
    case running
    /// An arena whose time is up: no new pairings, the games in progress finish and count.
    case finishing
    /// Over: the standings are final.
    case finished
}

/// A game the director paired, named by a number of its own that the lobby maps to a room.
public struct TournamentGameID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "game \(rawValue)" }
}

/// A game to play: who sits in seat 0 (and so starts, in a room's first game) and who in seat 1.
public struct Pairing: Sendable, Hashable {
    public var game: TournamentGameID
    /// The names by seat: `seats[0]` starts.
    public var seats: [String]
    /// The Swiss round the game belongs to; nil in an arena.
    public var round: Int?

    public init(game: TournamentGameID, seats: [String], round: Int? = nil) {
        self.game = game
        self.seats = seats
        self.round = round
    }
}

/// How a tournament game ended, as the lobby reports it.
public enum TournamentGameResult: Sendable, Hashable {
    /// Played to the end, or lost on the turn clock or the game clock: a win.
    case won(by: String)
    case draw
    /// Lost without being played out (left, gone past the grace period, never sat down): the other
    /// player wins. Both names: both forfeit and neither scores. Forfeits count towards a Swiss
    /// withdrawal.
    case forfeited(by: Set<String>)
}

/// A request the director refuses; nothing changed.
public enum TournamentError: Error, Sendable, Hashable {
    /// A Swiss tournament takes no one once it started; any tournament none once it finished.
    case alreadyStarted
    case full
    case alreadyEntered
    case notEntered
    /// Only the creator starts a tournament.
    case notTheCreator
    /// A tournament needs two players to start.
    case tooFewPlayers
    case finished
    /// The tournament takes claimed names only and this one is not.
    case claimedNamesOnly
    /// No game in progress has that number.
    case unknownGame
    /// A result that names someone who is not a player of the game (or a forfeit by nobody).
    case notInGame
}
