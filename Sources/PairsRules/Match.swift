/// The rules of one room as a deterministic state machine: two seats, the current game, and the series
/// between the two players.
///
/// Every mutating call takes the moment it happens and returns the public states it produced, one per
/// accepted change, in order; a refused move throws and changes nothing. The match never reads a clock and
/// never calls a timer: the owner asks for `nextDeadline`, and calls `advance(to:)` when that moment comes.
/// The same calls at the same moments with the same seed therefore always produce the same states.
///
/// Invariant: the stage is `.waiting` exactly when a seat is empty.
public struct Match: Sendable {
    /// Options every game of this match is played with.
    public let options: GameOptions
    /// How long a disconnected player keeps the seat before forfeiting.
    public let graceMilliseconds: Int64

    var generator: SplitMix64
    var players: [Player?] = [nil, nil]
    var cards: [Card]
    var stage: Stage = .waiting
    var lastEvent: GameEvent?

    /// Games started so far; 0 until the first one starts.
    public internal(set) var game = 0
    /// Accepted changes so far; the `seq` of the latest public state.
    public internal(set) var seq = 0
    /// Wins and draws since the current two players sat down together.
    public internal(set) var series = SeriesTally()

    /// A match with no players yet. Boards are shuffled by a SplitMix64 generator seeded with `seed`.
    public init(options: GameOptions, graceMilliseconds: Int64, seed: UInt64) {
        self.options = options
        self.graceMilliseconds = graceMilliseconds
        self.generator = SplitMix64(seed: seed)
        self.cards = Array(repeating: Card(face: "", status: .down), count: options.pairs * 2)
    }

    // MARK: Queries

    /// The phase as the wire names it.
    public var phase: Phase {
        switch stage {
        case .waiting: .waiting
        case .playing: .playing
        case .reveal: .reveal
        case .over: .over
        }
    }

    /// The seat on turn, if a game is running.
    public var turn: Seat? {
        switch stage {
        case .playing(let turn): turn.seat
        case .reveal(let reveal): reveal.seat
        case .waiting, .over: nil
        }
    }

    /// The name of the player in `seat`, or nil when it is empty.
    public func playerName(in seat: Seat) -> String? {
        players[seat.index]?.name
    }

    /// Whether nobody holds a seat: the room can be closed.
    public var isEmpty: Bool { players.allSatisfy { $0 == nil } }

    /// The first empty seat, if any.
    public var freeSeat: Seat? { Seat.allCases.first { players[$0.index] == nil } }

    /// The earliest moment at which `advance(to:)` has something to do: a reveal ending, a turn clock running
    /// out, or a disconnected player's grace period ending. Nil when nothing is pending.
    public var nextDeadline: Moment? {
        // Asked after every change in every room, so it allocates nothing.
        var earliest: Moment?
        func consider(_ moment: Moment) {
            if earliest.map({ moment < $0 }) ?? true { earliest = moment }
        }
        switch stage {
        case .playing(let turn): if let deadline = turn.deadline { consider(deadline) }
        case .reveal(let reveal): consider(reveal.until)
        case .waiting, .over: break
        }
        for case let player? in players {
            if case .away(let forfeitAt) = player.presence { consider(forfeitAt) }
        }
        return earliest
    }

    /// The public state as of the latest change, with the turn clock read at `now`; nil before any change.
    public func currentState(at now: Moment) -> PublicState? {
        lastEvent.map { publicState(after: $0, at: now) }
    }

    // MARK: Internals shared by the moves

    /// Records one accepted change: bumps `seq` and appends the public state it produced.
    mutating func emit(_ event: GameEvent, at now: Moment, into states: inout [PublicState]) {
        seq += 1
        lastEvent = event
        states.append(publicState(after: event, at: now))
    }

    func publicState(after event: GameEvent, at now: Moment) -> PublicState {
        var millisecondsLeft: Int?
        if case .playing(let turn) = stage, let deadline = turn.deadline {
            millisecondsLeft = Int(max(0, now.milliseconds(until: deadline)))
        }
        var outcome: Outcome?
        if case .over(let result) = stage { outcome = result }
        return PublicState(
            game: game,
            seq: seq,
            phase: phase,
            layout: options.layout,
            cards: cards.map(\.view),
            players: players.map { player in
                player.map { PlayerView(name: $0.name, score: $0.score, connected: $0.presence == .connected) }
            },
            turn: turn,
            turnMillisecondsLeft: millisecondsLeft,
            outcome: outcome,
            series: series,
            event: event
        )
    }

    /// When the turn that starts at `start` runs out, or nil with the clock off.
    func turnDeadline(startingAt start: Moment) -> Moment? {
        options.turnSeconds > 0 ? start.adding(milliseconds: Int64(options.turnSeconds) * 1000) : nil
    }
}

/// A seated player as the rules track them.
struct Player: Sendable {
    var name: String
    var score = 0
    var presence = Presence.connected
    /// Timeouts in a row without a flip in between; three forfeit the game.
    var consecutiveTimeouts = 0
    var wantsRematch = false
}

/// Whether a seated player is connected, and if not, when the seat is lost.
enum Presence: Sendable, Equatable {
    case connected
    case away(forfeitAt: Moment)
}

/// A card on the board as the rules track it: the face is always known here, and only `view` leaves.
struct Card: Sendable {
    enum Status: Sendable, Equatable {
        case down
        case up
        case matched(by: Seat)
    }

    var face: String
    var status: Status

    var view: CardView {
        switch status {
        case .down: .down
        case .up: .up(face: face)
        case .matched(let seat): .matched(face: face, by: seat)
        }
    }
}

/// Where a game stands, with exactly the data each phase needs.
enum Stage: Sendable {
    /// A seat is empty.
    case waiting
    /// `Turn.seat` may flip.
    case playing(Turn)
    /// A mismatched pair is on show until `Reveal.until`.
    case reveal(Reveal)
    /// The game ended.
    case over(Outcome)
}

/// The turn in progress.
struct Turn: Sendable {
    var seat: Seat
    /// The card flipped first this turn, while it waits for its partner.
    var firstCard: Int?
    /// When the turn clock runs out; nil with the clock off.
    var deadline: Moment?
}

/// A mismatch on show.
struct Reveal: Sendable {
    var seat: Seat
    var cards: CardPair
    var until: Moment
}
