/// One thing that happened in a game, at its moment: enough, with the deal, to replay the game exactly.
public struct GameMove: Sendable, Hashable {
    /// Milliseconds since the game started, on the server's monotonic clock.
    public var milliseconds: Int64
    /// What happened.
    public var action: MoveAction

    public init(milliseconds: Int64, action: MoveAction) {
        self.milliseconds = milliseconds
        self.action = action
    }
}

/// What a seat did, or what happened to it, in a game. Seats are 0 (first) and 1 (second).
///
/// Stored as small integers (`code`, `seat`, `argument`) that never change meaning once released: a new
/// kind of move takes a new code, and old databases keep reading the same.
public enum MoveAction: Sendable, Hashable {
    /// The seat turned up the card at `card` (its index in the deal).
    case flip(seat: Int, card: Int)
    /// The seat's turn clock ran out.
    case timeout(seat: Int)
    /// The seat's connection dropped.
    case disconnect(seat: Int)
    /// The seat's player came back.
    case reconnect(seat: Int)
    /// The seat gave the game up.
    case forfeit(seat: Int, reason: ForfeitReason)

    /// The seat the move is about.
    public var seat: Int {
        switch self {
        case .flip(let seat, _), .timeout(let seat), .disconnect(let seat), .reconnect(let seat),
             .forfeit(let seat, _):
            seat
        }
    }

    /// The stored code of the move's kind.
    var code: Int {
        switch self {
        case .flip: 1
        case .timeout: 2
        case .disconnect: 3
        case .reconnect: 4
        case .forfeit: 5
        }
    }

    /// The stored number that goes with the kind: the card of a flip, the reason of a forfeit.
    var argument: Int? {
        switch self {
        case .flip(_, let card): card
        case .forfeit(_, let reason): reason.code
        case .timeout, .disconnect, .reconnect: nil
        }
    }

    /// The move stored as `code`, `seat` and `argument`, or nil when they make no move (a damaged row).
    init?(code: Int, seat: Int, argument: Int?) {
        switch (code, argument) {
        case (1, let card?): self = .flip(seat: seat, card: card)
        case (2, nil): self = .timeout(seat: seat)
        case (3, nil): self = .disconnect(seat: seat)
        case (4, nil): self = .reconnect(seat: seat)
        case (5, let reasonCode?):
            guard let reason = ForfeitReason(code: reasonCode) else { return nil }
            self = .forfeit(seat: seat, reason: reason)
        default: return nil
        }
    }
}
