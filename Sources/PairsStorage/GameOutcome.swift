/// Who won a game.
public enum GameOutcome: Sendable, Hashable {
    /// Two seats: the seat (0 or 1) won.
    case won(seat: Int)
    /// Two seats: neither won.
    case draw
    /// Solo: the player cleared the board (in time, when there was a game clock).
    case soloCleared
    /// Solo: the player did not clear the board (time ran out, the deck ran dry, or they gave up).
    case soloLost

    /// The stored text of the outcome's kind, stable across versions.
    var code: String {
        switch self {
        case .won: "won"
        case .draw: "draw"
        case .soloCleared: "solo_cleared"
        case .soloLost: "solo_lost"
        }
    }

    /// The winning seat, stored beside `code`.
    public var winner: Int? {
        if case .won(let seat) = self { seat } else { nil }
    }

    /// How many seats a game with this outcome has.
    var seats: Int {
        switch self {
        case .won, .draw: 2
        case .soloCleared, .soloLost: 1
        }
    }

    /// The outcome stored as `code` and `winner`, or nil when they make no outcome (a damaged row).
    init?(code: String, winner: Int?) {
        switch (code, winner) {
        case ("won", let seat?): self = .won(seat: seat)
        case ("draw", nil): self = .draw
        case ("solo_cleared", nil): self = .soloCleared
        case ("solo_lost", nil): self = .soloLost
        default: return nil
        }
    }
}
