/// Why a game record cannot be stored: it contradicts itself or exceeds a limit.
///
/// `GameStore.record(_:)` checks before it queues, so a caller's mistake is reported to the caller at once
/// rather than failing a batch on the writer's thread.
public enum GameRecordError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A game has one seat or two.
    case seatCount(Int)
    /// The outcome needs another number of seats (a draw in a solo game), or names a seat that is not there.
    case outcomeDoesNotFitSeats
    /// A rated game's seat played under a name that was not claimed.
    case ratedWithUnclaimedName(seat: Int)
    /// A rated game with the same name in both seats: a name cannot win or lose rating against itself.
    case ratedAgainstItself
    /// The deal has no cards, or more than `GameRecord.maxCards`.
    case dealSize(Int)
    /// More than `GameRecord.maxMoves` moves.
    case tooManyMoves(Int)
    /// The move at `index` names a seat that is not in the game, or a card that is not in the deal.
    case moveOutOfRange(index: Int)
    /// The move at `index` comes before the game's start or before the move ahead of it.
    case moveOutOfOrder(index: Int)
    /// The game ended before it started.
    case endedBeforeStarted
    /// A tournament's standings have more than `TournamentRecord.maxStandings` rows.
    case tooManyStandings(Int)
    /// A tournament's standings name someone twice.
    case standingsRepeatAName
    /// A text is empty, or longer than its limit in UTF-8 bytes.
    case textLength(RecordText, bytes: Int)

    public var description: String {
        switch self {
        case .seatCount(let count): "a game has 1 or 2 seats, not \(count)"
        case .outcomeDoesNotFitSeats: "the outcome does not fit the game's seats"
        case .ratedWithUnclaimedName(let seat): "a rated game's seat \(seat) has an unclaimed name"
        case .ratedAgainstItself: "a rated game has the same name in both seats"
        case .dealSize(let count): "a deal has 1-\(GameRecord.maxCards) cards, not \(count)"
        case .tooManyMoves(let count): "a game has at most \(GameRecord.maxMoves) moves, not \(count)"
        case .moveOutOfRange(let index): "move \(index) names a seat or card that is not in the game"
        case .moveOutOfOrder(let index): "move \(index) comes before the one ahead of it or the start"
        case .endedBeforeStarted: "the game ended before it started"
        case .tooManyStandings(let count): "standings have at most \(TournamentRecord.maxStandings) rows, not \(count)"
        case .standingsRepeatAName: "the standings name a player twice"
        case .textLength(let text, let bytes):
            "the \(text) must be 1-\(text.maxBytes) bytes, not \(bytes)"
        }
    }
}

/// The texts of a game record, each with its limit.
public enum RecordText: String, Sendable, Hashable, CustomStringConvertible {
    case room, rules, ladder, name, face, tournament

    /// The longest text in UTF-8 bytes. Far above what the wire lets through (a name of 256 bytes, a room
    /// of 32), so the store never refuses a game the server could play; the limits only bound a row.
    public var maxBytes: Int {
        switch self {
        case .rules: 8192
        case .room, .ladder, .name, .face, .tournament: 1024
        }
    }

    public var description: String { rawValue }
}

extension GameRecord {
    /// The most cards in a deal: the biggest board the rules allow is 64 cards; twice that leaves room.
    public static let maxCards = 128

    /// The most moves in a game: a game of two players who never match, with no game clock, could go on for
    /// ever, and its record must still fit a row (about 20 bytes a move, so at most a few MiB).
    public static let maxMoves = 200_000

    /// The first contradiction or excess in the record, if any.
    public func validate() throws(GameRecordError) {
        let players = summary.players
        guard (1...2).contains(players.count) else { throw .seatCount(players.count) }
        guard summary.outcome.seats == players.count,
              summary.outcome.winner.map(players.indices.contains) ?? true else { throw .outcomeDoesNotFitSeats }
        if summary.rated {
            if let seat = players.firstIndex(where: { !$0.claimed }) { throw .ratedWithUnclaimedName(seat: seat) }
            guard players.count == 1 || players[0].name != players[1].name else { throw .ratedAgainstItself }
        }
        guard summary.started <= summary.ended else { throw .endedBeforeStarted }
        guard (1...Self.maxCards).contains(deal.count) else { throw .dealSize(deal.count) }
        guard moves.count <= Self.maxMoves else { throw .tooManyMoves(moves.count) }
        try Self.check(summary.room, as: .room)
        try Self.check(summary.rules.json, as: .rules)
        try Self.check(summary.rules.ladder, as: .ladder)
        if let tournament = summary.tournament { try Self.check(tournament, as: .tournament) }
        for player in players { try Self.check(player.name, as: .name) }
        for face in deal { try Self.check(face, as: .face) }
        var previous: Int64 = 0
        for (index, move) in moves.enumerated() {
            guard move.milliseconds >= previous else { throw .moveOutOfOrder(index: index) }
            previous = move.milliseconds
            guard players.indices.contains(move.action.seat) else { throw .moveOutOfRange(index: index) }
            if case .flip(_, let card) = move.action, !deal.indices.contains(card) {
                throw .moveOutOfRange(index: index)
            }
        }
    }

    private static func check(_ text: String, as kind: RecordText) throws(GameRecordError) {
        let bytes = text.utf8.count
        guard (1...kind.maxBytes).contains(bytes) else { throw .textLength(kind, bytes: bytes) }
    }
}
