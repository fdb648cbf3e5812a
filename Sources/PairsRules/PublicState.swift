/// Where a game stands. (The wire's spelling of each phase is PairsWire's.)
public enum Phase: Sendable, Hashable, CaseIterable {
    /// A seat is empty: no game is running.
    case waiting
    /// A game began and every face is on show for the peek; nobody may flip.
    case peek
    /// The player on turn may flip.
    case playing
    /// A mismatched set is on show; nobody may flip.
    case reveal
    /// The game ended; the players may ask for a rematch.
    case over
}

/// A card as everyone may see it. A face-down card has no face here, so a face the server has not revealed
/// cannot leave it: this is the only form of a card the codec can encode.
public enum CardView: Sendable, Hashable {
    case down
    case up(face: String)
    case matched(face: String, by: Seat)
}

/// A seated player as everyone may see them.
public struct PlayerView: Sendable, Hashable {
    public var name: String
    public var score: Int
    public var connected: Bool

    public init(name: String, score: Int, connected: Bool) {
        self.name = name
        self.score = score
        self.connected = connected
    }
}

/// How a finished game ended.
public enum Outcome: Sendable, Hashable {
    /// The seat won: the higher score of two, or a solo player who cleared the board.
    case win(Seat)
    /// Two players with equal scores.
    case draw
    /// A solo player did not clear the board: the game clock ran out, no set was left, or they gave up.
    case loss

    /// The winning seat, or nil for a draw or a solo loss.
    public var winner: Seat? {
        if case .win(let seat) = self { seat } else { nil }
    }
}

/// Games won by each seat and games drawn since the current players sat down together.
public struct SeriesTally: Sendable, Hashable {
    /// Wins indexed by seat: one entry per seat of the room.
    public var wins: [Int]
    public var draws: Int

    public init(wins: [Int] = [0, 0], draws: Int = 0) {
        self.wins = wins
        self.draws = draws
    }

    /// An empty tally for a room of `seats`.
    public init(seats: SeatCount) {
        self.init(wins: Array(repeating: 0, count: seats.rawValue))
    }

    mutating func record(_ outcome: Outcome) {
        switch outcome {
        case .win(let seat): wins[seat.index] += 1
        case .draw: draws += 1
        case .loss: break
        }
    }
}

/// What everyone may see of a match after one change, with the change described as `Event`: the same for
/// both players and every spectator, so it can be encoded once and the same bytes sent to all of them.
///
/// The rules describe the change as a `GameEvent` (`PublicState`); a client reads it from the wire as an
/// event that may lack what another server leaves out (PairsWire's `StateEvent`). The board around the
/// change is the same either way.
public struct StateSnapshot<Event: Sendable & Hashable>: Sendable, Hashable {
    /// Games started in this room so far (0 before the first one starts).
    public var game: Int
    /// Increases by one with every accepted change, across games.
    public var seq: Int
    public var phase: Phase
    public var layout: BoardLayout
    /// Every card, row-major.
    public var cards: [CardView]
    /// The players indexed by seat; nil for an empty seat.
    public var players: [PlayerView?]
    /// The seat that may flip now (or would, once a reveal ends); nil while no game runs.
    public var turn: Seat?
    /// Milliseconds left on the turn clock when this state was made; nil when no clock is running.
    public var turnMillisecondsLeft: Int?
    /// Milliseconds left on the game clock when this state was made; nil when the rules have none or it is
    /// not running (before play starts, once the game is over).
    public var gameMillisecondsLeft: Int?
    /// Set once a game is over.
    public var outcome: Outcome?
    public var series: SeriesTally
    /// The change that produced this state.
    public var event: Event
    /// Once the game is over, the faces of the cards still face down, in board order, so that a client can
    /// show what was never found; nil in every other phase. Nothing is secret once a game is over (its record
    /// keeps the deal), and `cards` still never gives a face-down card a face. Only the face-down cards'
    /// faces, not every card's: a face-down card and its face take fewer bytes than a matched card, so no
    /// line of a game over is longer than that of the same board cleared, which fits the line limit.
    public private(set) var downFaces: [String]?

    /// A state; `downFaces` is kept only when `phase` is over, so no state of a game in play can carry them.
    public init(
        game: Int, seq: Int, phase: Phase, layout: BoardLayout, cards: [CardView], players: [PlayerView?],
        turn: Seat?, turnMillisecondsLeft: Int?, gameMillisecondsLeft: Int? = nil, outcome: Outcome?,
        series: SeriesTally, event: Event, downFaces: [String]? = nil
    ) {
        self.game = game
        self.seq = seq
        self.phase = phase
        self.layout = layout
        self.cards = cards
        self.players = players
        self.turn = turn
        self.turnMillisecondsLeft = turnMillisecondsLeft
        self.gameMillisecondsLeft = gameMillisecondsLeft
        self.outcome = outcome
        self.series = series
        self.event = event
        self.downFaces = phase == .over ? downFaces : nil
    }

    /// The same state with its change described as `event`.
    public func describing<Other>(_ event: Other) -> StateSnapshot<Other> {
        StateSnapshot<Other>(
            game: game, seq: seq, phase: phase, layout: layout, cards: cards, players: players, turn: turn,
            turnMillisecondsLeft: turnMillisecondsLeft, gameMillisecondsLeft: gameMillisecondsLeft, outcome: outcome,
            series: series, event: event, downFaces: downFaces)
    }
}

/// The state of a match that may leave the server, with the rules' own account of the change.
public typealias PublicState = StateSnapshot<GameEvent>
