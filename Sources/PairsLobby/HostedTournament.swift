import PairsRules
import PairsTournament
import PairsWire

/// A tournament this shard runs: its director, the connections of its entrants and watchers (all on this
/// shard: requests about it are handed here), the room of each game in progress, and what it last filed
/// in the shared directory.
final class HostedTournament {
    /// As created: its length, start and claimed-only, which the list shows.
    let creation: TournamentCreation
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
    /// What it last filed in the directory, so unchanged listings take no lock.
    var filed: TournamentSummary?

    init(creation: TournamentCreation, director: TournamentDirector) {
        self.creation = creation
        self.director = director
    }

    var name: String { creation.name }

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

/// The tournament game a room holds: its seats are the server's to give, and its game is played once.
struct TournamentGameRef {
    let tournament: String
    let game: TournamentGameID
    /// The entrant in each seat (as entered: a player may rename at the table), by seat index.
    var names: [String]

    func seat(of name: String) -> Seat? {
        names.firstIndex(of: name).flatMap { index in Seat.allCases.first { $0.index == index } }
    }
}
