/// How a game came to its end.
public enum GameEnding: Sendable, Hashable {
    /// Every set was matched.
    case cleared
    /// A seat gave the game up.
    case forfeit(ForfeitReason)
    /// The game clock ran out.
    case timeUp
    /// No set of face-down cards could match any more.
    case exhausted

    /// Every ending, for tests and for reading stored codes back.
    public static let all: [GameEnding] =
        [.cleared, .timeUp, .exhausted] + ForfeitReason.allCases.map { .forfeit($0) }

    /// The stored text, stable across versions: `cleared`, `forfeit_left`, `time_up`...
    public var code: String {
        switch self {
        case .cleared: "cleared"
        case .forfeit(let reason): "forfeit_\(reason.name)"
        case .timeUp: "time_up"
        case .exhausted: "exhausted"
        }
    }

    /// The ending stored as `code`, or nil for a code no version wrote.
    init?(code: String) {
        guard let ending = Self.all.first(where: { $0.code == code }) else { return nil }
        self = ending
    }
}

/// Why a seat gave a game up.
public enum ForfeitReason: Sendable, Hashable, CaseIterable {
    /// The player left the room.
    case left
    /// The player's turn clock ran out too many times.
    case timeouts
    /// The player's connection stayed away past the grace period.
    case away

    /// The reason's name, as in `GameEnding.code`.
    public var name: String {
        switch self {
        case .left: "left"
        case .timeouts: "timeouts"
        case .away: "away"
        }
    }

    /// The stored number, stable across versions, as in a forfeit move.
    var code: Int {
        switch self {
        case .left: 1
        case .timeouts: 2
        case .away: 3
        }
    }

    init?(code: Int) {
        guard let reason = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = reason
    }
}
