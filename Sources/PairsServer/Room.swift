import PairsRules
import PairsWire

/// A room: its match, who sits in each seat, who watches, and the timer that drives the match's clock.
///
/// Confined to the server's queue, like everything the server owns.
final class Room: @unchecked Sendable {
    let name: String
    /// Made by quick match (rather than by name), so the lobby offers its free seat to quick joiners.
    let isQuickMatch: Bool
    var match: Match
    /// The live connection of each seat: nil while the seat is empty or its player is away.
    var seatConnections: [Connection?] = [nil, nil]
    /// The resume token of each seated player. Sent to that player only.
    var tokens: [String?] = [nil, nil]
    /// Spectators by connection id.
    var spectators: [Int: Connection] = [:]
    let timer = RoomTimer()

    init(name: String, isQuickMatch: Bool, match: Match) {
        self.name = name
        self.isQuickMatch = isQuickMatch
        self.match = match
    }

    /// Calls `body` for everyone who receives the room's states and chat: `first` (the connection whose
    /// request caused them, which is waiting for the answer) before the others, then the other connected
    /// player, then spectators. A loop rather than an array, since it runs for every change in every room.
    func forEachRecipient(first: Connection? = nil, _ body: (Connection) -> Void) {
        if let first { body(first) }
        for case let connection? in seatConnections where connection !== first { body(connection) }
        for connection in spectators.values where connection !== first { body(connection) }
    }

    /// Nobody sits and nobody watches: the room can go.
    var isAbandoned: Bool { match.isEmpty && spectators.isEmpty }

    var summary: RoomSummary {
        RoomSummary(
            name: name, phase: match.phase,
            players: Seat.allCases.map { match.playerName(in: $0) },
            spectators: spectators.count, pairs: match.options.pairs)
    }
}
