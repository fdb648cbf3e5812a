/// The rules of one room as a deterministic state machine: its seats, the current game, and the series
/// between the players, all played by one `RuleSet`.
///
/// Every mutating call takes the moment it happens and returns the public states it produced, one per
/// accepted change, in order; a refused move throws and changes nothing. The match never reads a clock and
/// never calls a timer: the owner asks for `nextDeadline`, and calls `advance(to:)` when that moment comes.
/// The same calls at the same moments with the same seed therefore always produce the same states.
///
/// Invariant: the stage is `.waiting` exactly when a seat is empty.
public struct Match: Sendable {
    /// The rules every game of this match is played by.
    public let rules: RuleSet
    /// How long a disconnected player keeps the seat before forfeiting.
    public let graceMilliseconds: Int64

    var generator: SplitMix64
    @usableFromInline var players: [Player?]
    var cards: [Card]
    @usableFromInline var stage: Stage = .waiting
    /// When the game clock runs out, while play is on (`playing` or `reveal`) and the rules have one.
    @usableFromInline var gameDeadline: Moment?
    var lastEvent: GameEvent?
    /// The board the next game deals instead of a shuffled one: a replay's deal.
    var fixedDeal: [Face]?
    /// The seat that starts the game of `fixedDeal`: a replayed rematch started with whoever it started with.
    var fixedStarter: Seat?

    /// Games started so far; 0 until the first one starts.
    public internal(set) var game = 0
    /// Accepted changes so far; the `seq` of the latest public state.
    public internal(set) var seq = 0
    /// Wins and draws since the current players sat down together.
    public internal(set) var series: SeriesTally

    /// A match with no players yet. Boards are shuffled by a SplitMix64 generator seeded with `seed`.
    public init(rules: RuleSet, graceMilliseconds: Int64, seed: UInt64) {
        self.rules = rules
        self.graceMilliseconds = graceMilliseconds
        self.generator = SplitMix64(seed: seed)
        self.players = Array(repeating: nil, count: rules.variant.seats.rawValue)
        self.series = SeriesTally(seats: rules.variant.seats)
        self.cards = Array(repeating: Card(face: Face(text: "", card: nil), status: .down), count: rules.cardCount)
    }

    /// A match whose first game deals `deal` (faces in board order) rather than a shuffled board, and starts
    /// with `starter` on turn: the game of a replay, played again (a room's later games start with either
    /// seat). Nil when the deal is not a board of these rules (wrong size, or faces that are not playing
    /// cards where the deck is).
    public init?(rules: RuleSet, graceMilliseconds: Int64, deal: [String], starter: Seat = .first) {
        guard deal.count == rules.cardCount else { return nil }
        var faces: [Face] = []
        for text in deal {
            switch rules.variant.deck {
            case .words: faces.append(Face(text: text, card: nil))
            case .cards:
                guard let card = PlayingCard(face: text) else { return nil }
                faces.append(Face(text: text, card: card))
            }
        }
        self.init(rules: rules, graceMilliseconds: graceMilliseconds, seed: 0)
        fixedDeal = faces
        fixedStarter = starter
    }

    // MARK: Queries

    public var phase: Phase {
        switch stage {
        case .waiting: .waiting
        case .peek: .peek
        case .playing: .playing
        case .reveal: .reveal
        case .over: .over
        }
    }

    /// The seat on turn, if a game is being played.
    public var turn: Seat? {
        switch stage {
        case .playing(let turn): turn.seat
        case .reveal(let reveal): reveal.seat
        case .waiting, .peek, .over: nil
        }
    }

    /// The seats of this match, in turn order.
    public var seats: [Seat] { rules.variant.seats.seats }

    /// The name of the player in `seat`, or nil when it is empty (or not a seat of this match).
    public func playerName(in seat: Seat) -> String? {
        players.indices.contains(seat.index) ? players[seat.index]?.name : nil
    }

    /// Whether nobody holds a seat: the room can be closed.
    ///
    /// This and `nextDeadline` are asked by the lobby after every change in every room. Inlinable, they
    /// read the lobby's match in place: called across modules, each call first copied the whole match,
    /// retaining every array in it.
    @inlinable
    public var isEmpty: Bool { players.allSatisfy { $0 == nil } }

    /// The first empty seat, if any.
    public var freeSeat: Seat? { seats.first { players[$0.index] == nil } }

    /// The earliest moment at which `advance(to:)` has something to do: a peek or a reveal ending, a turn
    /// clock or the game clock running out, or a disconnected player's grace period ending. Nil when
    /// nothing is pending.
    @inlinable @inline(__always)
    public var nextDeadline: Moment? {
        // Asked after every change in every room, so it allocates nothing.
        var earliest: Moment?
        func consider(_ moment: Moment?) {
            guard let moment else { return }
            if earliest.map({ moment < $0 }) ?? true { earliest = moment }
        }
        consider(stage.deadline)
        consider(gameDeadline)
        for case let player? in players {
            if case .away(let forfeitAt) = player.presence { consider(forfeitAt) }
        }
        return earliest
    }

    /// The public state as of the latest change, with the clocks read at `now`; nil before any change.
    public func currentState(at now: Moment) -> PublicState? {
        lastEvent.map { publicState(after: $0, at: now) }
    }

    /// The faces of the current board in board order, face-down cards included: what a finished game's
    /// record keeps so that it can be replayed. Not for anyone at the table while the game is on.
    public var deal: [String] { cards.map(\.face.text) }

    // MARK: Internals shared by the moves

    /// Records one accepted change: bumps `seq` and appends the public state it produced.
    mutating func emit(_ event: GameEvent, at now: Moment, into states: inout [PublicState]) {
        seq += 1
        lastEvent = event
        states.append(publicState(after: event, at: now))
    }

    func publicState(after event: GameEvent, at now: Moment) -> PublicState {
        var turnLeft: Int?
        if case .playing(let turn) = stage, let deadline = turn.deadline {
            turnLeft = Int(max(0, now.milliseconds(until: deadline)))
        }
        var outcome: Outcome?
        var downFaces: [String]?
        if case .over(let result) = stage {
            outcome = result
            // Once a game is over its faces are no secret: those never found go out, so they can be shown.
            downFaces = cards.filter { $0.status == .down }.map(\.face.text)
        }
        // The peek shows every face to everyone: that is what it is for.
        let isPeek = if case .peek = stage { true } else { false }
        return PublicState(
            game: game,
            seq: seq,
            phase: phase,
            layout: rules.layout,
            cards: cards.map { isPeek ? .up(face: $0.face.text) : $0.view },
            players: players.map { player in
                player.map { PlayerView(name: $0.name, score: $0.score, connected: $0.presence == .connected) }
            },
            turn: turn,
            turnMillisecondsLeft: turnLeft,
            gameMillisecondsLeft: gameDeadline.map { Int(max(0, now.milliseconds(until: $0))) },
            outcome: outcome,
            series: series,
            event: event,
            downFaces: downFaces
        )
    }

    /// When the turn that starts at `start` runs out, or nil with the clock off.
    func turnDeadline(startingAt start: Moment) -> Moment? {
        rules.turnSeconds > 0 ? start.adding(milliseconds: Int64(rules.turnSeconds) * 1000) : nil
    }

    /// The seat whose turn follows `seat`'s: the other player, or the solo player again.
    func seat(after seat: Seat) -> Seat {
        rules.variant.seats == .two ? seat.opponent : seat
    }
}

/// A seated player as the rules track them.
@usableFromInline
struct Player: Sendable {
    var name: String
    var score = 0
    @usableFromInline var presence = Presence.connected
    /// Timeouts in a row without a flip in between; three forfeit the game.
    var consecutiveTimeouts = 0
    var wantsRematch = false
}

/// Whether a seated player is connected, and if not, when the seat is lost.
@usableFromInline
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

    var face: Face
    var status: Status

    var view: CardView {
        switch status {
        case .down: .down
        case .up: .up(face: face.text)
        case .matched(let seat): .matched(face: face.text, by: seat)
        }
    }
}

/// Where a game stands, with exactly the data each phase needs.
@usableFromInline
enum Stage: Sendable {
    /// A seat is empty.
    case waiting
    /// Every face is on show until the moment given; then play starts with `starter` on turn.
    case peek(until: Moment, starter: Seat)
    /// `Turn.seat` may flip.
    case playing(Turn)
    /// A mismatched set is on show until `Reveal.until`.
    case reveal(Reveal)
    /// The game ended.
    case over(Outcome)

    /// When the stage ends by itself: a peek or a reveal ending, or the turn clock.
    @inlinable
    var deadline: Moment? {
        switch self {
        case .peek(let until, _): until
        case .playing(let turn): turn.deadline
        case .reveal(let reveal): reveal.until
        case .waiting, .over: nil
        }
    }
}

/// The turn in progress.
@usableFromInline
struct Turn: Sendable {
    var seat: Seat
    /// The cards flipped so far this turn, waiting for the rest of their set.
    var flipped = CardSet()
    /// The score change of the turn so far (Matchismo's flip costs).
    var points = 0
    /// When the turn clock runs out; nil with the clock off.
    @usableFromInline var deadline: Moment?

    init(seat: Seat, deadline: Moment?) {
        self.seat = seat
        self.deadline = deadline
    }
}

/// A mismatch on show.
@usableFromInline
struct Reveal: Sendable {
    var seat: Seat
    var cards: CardSet
    @usableFromInline var until: Moment
}
