import PairsRules
import PairsTournament
import PairsWire

/// A tournament this shard runs: its director, the connections of its entrants and watchers (all on this
/// shard: requests about it are handed here), the room of each game in progress, and what it last filed
/// in the shared directory.
final class HostedTournament {
    /// As created: its length, start and claimed-only, which the list shows.
    let creation: TournamentCreation
    /// Its name for the store, unique over time (the name is unique only while it is held: a weekly cup
    /// reuses it): what each of its games and its final standings are kept under.
    let key: String
    /// When it was made, and when it started (nil until then): the times the store keeps.
    let createdAt: Moment
    var startedAt: Moment?
    var director: TournamentDirector
    /// Each entrant's connection, by entrant name, while they have one here (a connection handed to
    /// another shard or closed is no longer live: `Lobby.isLive`).
    var players: [String: Client] = [:]
    /// Connections that asked to `tournament_watch` it.
    var watchers: [ConnectionID: Client] = [:]
    /// The room of each game in progress.
    var rooms: [TournamentGameID: Room] = [:]
    /// Who has the current Swiss round's bye.
    var bye: String?
    /// When it finished, to forget it `TournamentHosting.keepFinishedMilliseconds` later.
    var finishedAt: Moment?
    /// The moment it must next act at (its director's, or its time to be forgotten), kept after each input.
    var deadline: Moment?
    /// Something a `tournament` message shows moved since the last one went out.
    var changed = false
    /// When the last push went out, and the status it showed: a change is pushed at once when the status
    /// moved, else no sooner than `TournamentHosting.pushIntervalMilliseconds` after the last.
    var pushedAt: Moment?
    var pushedStatus: TournamentPhase?
    /// The `standings` count each follower that gave one asked for (`tournament_join` or `_watch`): what its
    /// `tournament` messages carry (`TournamentView.following`). Followers not here get every row.
    var followedStandings: [Follower: Int] = [:]
    /// What it last filed in the directory, so unchanged listings take no lock.
    var filed: TournamentSummary?

    init(creation: TournamentCreation, director: TournamentDirector, key: String, at now: Moment) {
        self.creation = creation
        self.director = director
        self.key = key
        createdAt = now
    }

    /// A key for a tournament called `name`: the name and 32 random bits, so keys of tournaments that
    /// shared a name (on this server or another of a cluster) differ.
    static func newKey(for name: String, using random: inout any RandomNumberGenerator) -> String {
        let bits = UInt32.random(in: .min ... .max, using: &random)
        let hex = String(bits, radix: 16)
        return "\(name)-" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// What the store keeps of it once it has finished at `now`.
    func finished(at now: Moment) -> FinishedTournament {
        FinishedTournament(key: key, name: name, format: creation.length.kind, creator: director.creator,
                           rules: director.configuration.rules, started: startedAt ?? createdAt, ended: now,
                           standings: director.standings)
    }

    var name: String { creation.name }

    /// When the change held back since the last push goes out; nil when none is held back.
    func pushDue() -> Moment? {
        guard changed, let pushedAt else { return nil }
        return pushedAt.adding(milliseconds: TournamentHosting.pushIntervalMilliseconds)
    }

    var phase: TournamentPhase { TournamentPhase(rawValue: director.status.rawValue)! }

    /// The listing `tournament_list` shows.
    var summary: TournamentSummary {
        TournamentSummary(name: name, length: creation.length, status: phase, creator: director.creator,
                          entrants: director.entrantNames.count, rules: director.configuration.rules,
                          start: creation.start, claimedOnly: creation.claimedOnly)
    }

    /// What a `tournament` message says at `now`.
    func view(at now: Moment, id: RequestID? = nil) -> TournamentView {
        let isSwiss = creation.length.kind == .swiss
        var rounds: Int?
        if isSwiss, case .rounds(let asked) = creation.length { rounds = director.rounds ?? asked }
        var left: Int64?
        if case .milliseconds(let length) = creation.length {
            left = switch director.status {
            case .open: length
            case .running: max(0, now.milliseconds(until: director.endsAt ?? now))
            case .finishing, .finished: 0
            }
        }
        let boards = director.currentPairings.map { pairing in
            TournamentBoard(room: rooms[pairing.game]?.name ?? Self.roomName(of: name, game: pairing.game), players: pairing.seats)
        }
        return TournamentView(name: name, format: creation.length.kind, status: phase, creator: director.creator,
                              rules: director.configuration.rules, round: isSwiss ? director.round : nil, rounds: rounds,
                              millisecondsLeft: left, entrants: director.entrantNames.count,
                              standings: director.standings, pairings: boards,
                              bye: director.status == .running ? bye : nil, id: id)
    }

    /// The room a game of the tournament is played in: the tournament's name and the game's number.
    static func roomName(of tournament: String, game: TournamentGameID) -> String {
        "\(tournament)-\(game.rawValue)"
    }
}

/// Who asked for fewer standings rows: an entrant by name, so the ask outlives a dropped connection (a
/// bot that resumes its seat mid-game does not enter again), a watcher by connection.
enum Follower: Hashable {
    case entrant(String)
    case watcher(ConnectionID)

    /// `client`, as the entrant `entrant` when it is one, else as a watcher.
    init(_ client: Client, entrant: String?) {
        self = entrant.map(Follower.entrant) ?? .watcher(client.id)
    }
}

/// The tournament game a room holds: its seats are the server's to give, and its game is played once.
struct TournamentGameRef {
    let tournament: String
    /// The tournament's key for the store (`HostedTournament.key`).
    let key: String
    let game: TournamentGameID
    /// The entrant in each seat (as entered: a player may rename at the table), by seat index.
    var names: [String]

    func seat(of name: String) -> Seat? {
        names.firstIndex(of: name).flatMap { index in Seat.allCases.first { $0.index == index } }
    }
}
