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

    /// Whether the lobby counts this room's game as active (`ServerStatistics.gamesActive`), as of the
    /// room's last `settle`: the count is kept as rooms change, so reading it costs nothing per room.
    var countsAsActive = false

    /// Whether its game is being played: `playing`, or a mismatch in `reveal`.
    var isActive: Bool { match.phase == .playing || match.phase == .reveal }

    /// When the match next has something to do, as `RoomDeadlines` holds it; kept there, not derived.
    var deadline: Moment?
    /// The room's position in `RoomDeadlines`, nil while it has no deadline.
    var deadlineIndex: Int?

    init(name: String, isQuickMatch: Bool, match: Match) {
        self.name = name
        self.isQuickMatch = isQuickMatch
        self.match = match
        seatClients = Array(repeating: nil, count: match.seats.count)
        tokens = Array(repeating: nil, count: match.seats.count)
        seatClaimed = Array(repeating: false, count: match.seats.count)
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
        guard isQuickMatch, match.freeSeat != nil else { return false }
        return seatClients.contains { $0 != nil }
    }

    var summary: RoomSummary {
        RoomSummary(
            name: name, phase: match.phase,
            players: Seat.allCases.map { match.playerName(in: $0) },
            spectators: spectators.count, pairs: match.rules.pairs, rules: match.rules)
    }
}
