import PairsRules
import PairsWire

/// A room: its match, who sits in each seat, who watches, and its place among the lobby's deadlines.
final class Room {
    /// A spectator and the name the room knows them by: the one they had when they started watching.
    struct Spectator {
        let client: Client
        let name: String
    }

    let name: String
    /// Made by quick match (rather than by name), so the lobby offers its free seat to quick joiners.
    let isQuickMatch: Bool
    var match: Match
    /// The live connection of each seat: nil while the seat is empty or its player is away.
    var seatClients: [Client?]
    /// The resume token of each seated player. Sent to that player only.
    var tokens: [String?]
    var spectators: [ConnectionID: Spectator] = [:]

    /// Whether each seat's player sat down under a name they proved with its password.
    var seatClaimed: [Bool]
    /// The moves of the game being played, when the server keeps games.
    var log: GameLog?
    /// The tournament game the room was made for: its seats are the server's to give, its game played once.
    var tournamentGame: TournamentGameRef?

    /// What the shared directory shows of the room, as it was last filed there (nil before its first
    /// filing and after it closed).
    var filed: Listing?
    /// What the directory's game counters last counted this room as.
    var countedPhase = CountedPhase.none
    /// The address of each seat's player while the seat is held for them after a drop (`AwaySeats`).
    var awayAddresses: [String?]

    /// When the match next has something to do, as `RoomDeadlines` holds it; kept there, not derived.
    var deadline: Moment?
    /// The room's position in `RoomDeadlines`, nil while it has no deadline.
    var deadlineIndex: Int?
    /// Where a quick room stands in the cluster's quick-match queue (`Lobby+QuickCluster.swift`).
    var clusterQueue = ClusterQueueing.local

    init(name: String, isQuickMatch: Bool, match: Match) {
        self.name = name
        self.isQuickMatch = isQuickMatch
        self.match = match
        seatClients = Array(repeating: nil, count: match.seats.count)
        tokens = Array(repeating: nil, count: match.seats.count)
        seatClaimed = Array(repeating: false, count: match.seats.count)
        awayAddresses = Array(repeating: nil, count: match.seats.count)
    }

    /// How the room's game counts in `stats`: `games_active` counts playing and reveal, a shutdown's
    /// games in progress a peek as well.
    enum CountedPhase {
        case none
        case peek
        case active

        init(_ phase: Phase) {
            switch phase {
            case .waiting, .over: self = .none
            case .peek: self = .peek
            case .playing, .reveal: self = .active
            }
        }
    }

    /// What other shards know of a room: its place in the room list, whether it waits for a quick-match
    /// player, and what its summary shows, but not what a flip changes (a reveal shows as playing), so
    /// that flips never touch the shared directory.
    struct Listing: Equatable {
        let hasFreeSeat: Bool
        let isWaitingForQuickMatch: Bool
        /// With `hasFreeSeat`, how many seats are taken (a match has at most two).
        let isEmpty: Bool
        let phase: Phase
        let spectators: Int

        /// `phase` is the match's, read once by the caller for its counters too: every read copies the
        /// match across the module boundary.
        init(_ room: Room, phase: Phase) {
            hasFreeSeat = room.match.freeSeat != nil
            isWaitingForQuickMatch = room.isWaitingForQuickMatch
            isEmpty = room.match.isEmpty
            self.phase = phase == .reveal ? .playing : phase
            spectators = room.spectators.count
        }
    }

    var rules: RuleSet { match.rules }

    /// Calls `body` for everyone who receives the room's states and chat: `first` (the connection whose
    /// request caused them, which is waiting for the answer) before the others, then the other connected
    /// player, then spectators. A loop rather than an array, since it runs for every change in every room.
    func forEachRecipient(first: ConnectionID? = nil, _ body: (ConnectionID) -> Void) {
        if let first { body(first) }
        for case let client? in seatClients where client.id != first { body(client.id) }
        for id in spectators.keys where id != first { body(id) }
    }

    /// Whether `client` receives this room's states, as a player or a spectator.
    func hasMember(_ client: Client) -> Bool {
        switch client.place {
        case .seated(let room, _), .watching(let room): room === self
        case .lobby: false
        }
    }

    /// Nobody sits and nobody watches: the room can go.
    var isAbandoned: Bool { match.isEmpty && spectators.isEmpty }

    /// A quick-match room offers its free seat only while its one player is there to play: a player who
    /// dropped while waiting would otherwise be handed a newcomer who then waits out the grace period.
    var isWaitingForQuickMatch: Bool {
        // A seat promised to a player another instance sends here is not offered to anyone else.
        guard isQuickMatch, match.freeSeat != nil, !clusterQueue.isPromised else { return false }
        return seatClients.contains { $0 != nil }
    }

    var summary: RoomSummary {
        RoomSummary(
            name: name, phase: match.phase,
            players: Seat.allCases.map { match.playerName(in: $0) },
            spectators: spectators.count, pairs: match.rules.pairs, rules: match.rules)
    }
}
