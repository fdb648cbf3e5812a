import PairsRules
import PairsWire

/// A bot's mind as a state machine: it is told what happened (`BotInput`) and answers with what to do
/// (`BotAction`). It never touches a socket or a clock, so every decision can be tested by feeding it
/// messages.
///
/// The bot joins, watches every state into its `GameMemory`, and when it is on turn thinks and then flips
/// the card its strategy picks. At most one flip is in flight: a flip is answered by a state carrying its
/// request id (or by an error with that id), and only then is the next one chosen. A server may leave the
/// id out of its events (protocol.md marks it optional), so a state without one that shows the flipped card
/// face up answers the flip too. Each finished game is
/// reported once; the bot asks for a rematch until it has played the games it was asked to, then leaves.
public struct BotMachine: Sendable {
    /// Refused moves in a row before the bot gives up. A flip is only refused when the bot's picture of
    /// the game is wrong or the server is rate limiting it; either clears within a move or two, so a
    /// longer run means something is broken and retrying would loop forever.
    public static let maxConsecutiveRefusals = 10

    public let configuration: BotConfiguration
    public private(set) var memory = GameMemory()
    /// The bot's seat, once it has one.
    public private(set) var seat: Seat?
    /// The newest state seen.
    public private(set) var latest: WireState?
    /// The rules of the bot's room, as its messages carry them: nil for a room of the classic game (which
    /// sends none), so a strategy plays by what the room plays, not by what the bot asked for.
    public private(set) var rules: RuleSet?
    /// Games finished so far.
    public private(set) var gamesPlayed = 0
    public private(set) var isFinished = false

    private let strategy: any Strategy
    private var generator: SplitMix64
    /// The flip sent (or about to be) and not yet answered; its id once it has gone out.
    private var pendingFlip: (card: Int, id: RequestID?)?
    /// The state being thought about, if thinking.
    private var thinkingAbout: Int?
    private var lastRecordedGame: Int?
    /// The game a rematch was asked for, so it is asked once, and again only if the request was lost.
    private var rematchAskedFor: Int?
    private var joinID: RequestID?
    /// The room the bot was last seated in: a new one (a tournament's next game) starts its count afresh.
    private var room: String?
    private var consecutiveRefusals = 0

    public init(configuration: BotConfiguration) {
        self.configuration = configuration
        self.strategy = configuration.strategy.makeStrategy()
        self.generator = SplitMix64(seed: configuration.seed)
    }

    /// Enters `tournament` asking for no one's standings but its own: the bot reads only the status, and
    /// the whole standings of a large arena on every push would be most of what it is sent.
    static func enter(_ tournament: String) -> ClientMessage {
        .tournament(.join(tournament: tournament, standings: 0))
    }

    /// What to do about `input`.
    public mutating func handle(_ input: BotInput) -> [BotAction] {
        guard !isFinished else { return [] }
        switch input {
        case .ready, .seatLost:
            seat = nil
            pendingFlip = nil
            if let tournament = configuration.tournament { return [.send(Self.enter(tournament))] }
            return [.send(.join(JoinRequest(room: configuration.room, rules: configuration.rules)))]
        case .message(let message):
            return handle(message)
        case .thoughtElapsed(let seq):
            guard thinkingAbout == seq, let state = latest, state.seq == seq else { return [] }
            thinkingAbout = nil
            return flip(in: state)
        case .sent(let message, let id):
            switch message {
            case .flip(let card):
                // Only the flip being waited for: one decided before the turn passed may go out late.
                guard let pending = pendingFlip, pending.card == card, pending.id == nil else { break }
                if let id { pendingFlip?.id = id } else { pendingFlip = nil }
            case .join, .tournament(.join):
                joinID = id
            case .rematch where id == nil:
                rematchAskedFor = nil
            default:
                break
            }
            return []
        case .reconnected:
            // Between a tournament's games the bot holds no seat to resume: it enters again, which gives
            // the tournament its new connection (and takes an arena's pause off).
            guard let tournament = configuration.tournament, seat == nil else { return [] }
            return [.send(Self.enter(tournament))]
        case .connectionLost:
            pendingFlip = nil
            thinkingAbout = nil
            // The rematch may not have arrived; asking twice only earns a harmless `rematch_pending`.
            rematchAskedFor = nil
            return []
        }
    }

    private mutating func handle(_ message: ServerMessage) -> [BotAction] {
        switch message {
        case .joined(let joined):
            if let seat = joined.seat { self.seat = seat }
            rules = joined.rules
            if joined.room != room {
                // Another room (a tournament's next game): its games are numbered from 1 again.
                room = joined.room
                memory = GameMemory()
                lastRecordedGame = nil
                rematchAskedFor = nil
            }
            return []
        case .tournament(let view) where view.name == configuration.tournament && view.status == .finished:
            isFinished = true
            return [.finish(.done)]
        case .state(let state):
            rules = state.rules
            return observe(state.state, causedBy: state.id)
        case .error(let error):
            return refused(error)
        case .left:
            seat = nil
            return []
        default:
            return []
        }
    }

    private mutating func observe(_ state: WireState, causedBy id: RequestID?) -> [BotAction] {
        latest = state
        memory.observe(state)
        guard let seat else { return [] }
        if let pending = pendingFlip, Self.answers(state, causedBy: id, flip: pending) {
            pendingFlip = nil
            consecutiveRefusals = 0
        }
        let onTurn = state.phase == .playing && state.turn == seat
        if !onTurn {
            // The turn passed (a timeout, the game ended): a flip still in flight will be refused, and its
            // refusal can be ignored.
            pendingFlip = nil
            thinkingAbout = nil
        }
        var actions: [BotAction] = []
        if state.endsGame, lastRecordedGame != state.game, let record = GameRecord(number: gamesPlayed + 1, state: state, seat: seat) {
            lastRecordedGame = state.game
            gamesPlayed += 1
            actions.append(.report(record))
            if configuration.tournament == nil, configuration.games > 0, gamesPlayed >= configuration.games {
                isFinished = true
                actions.append(.send(.leave))
                actions.append(.finish(.done))
                return actions
            }
        }
        // A tournament plays each game once, and pairs the next itself.
        if configuration.tournament == nil, state.phase == .over, lastRecordedGame == state.game, rematchAskedFor != state.game {
            rematchAskedFor = state.game
            actions.append(.send(.rematch))
        }
        if onTurn, pendingFlip == nil {
            thinkingAbout = state.seq
            actions.append(.think(aboutState: state.seq))
        }
        return actions
    }

    /// Whether `state`, caused by request `id`, is the answer to `flip`: it carries the flip's id, or, from a
    /// server that leaves ids out, no id and the flipped card turned up (only a flip turns a card up).
    private static func answers(_ state: WireState, causedBy id: RequestID?, flip: (card: Int, id: RequestID?)) -> Bool {
        guard flip.id != nil else { return false } // not sent yet: nothing can answer it
        if let id { return id == flip.id }
        return state.cards.indices.contains(flip.card) && state.cards[flip.card] != .down
    }

    private mutating func flip(in state: WireState) -> [BotAction] {
        guard let seat, state.phase == .playing, state.turn == seat, pendingFlip == nil else { return [] }
        guard let card = strategy.chooseCard(in: state, rules: rules, memory: memory, using: &generator) else { return [] }
        pendingFlip = (card, nil)
        return [.send(.flip(card: card))]
    }

    private mutating func refused(_ error: RequestError) -> [BotAction] {
        if let id = error.id, id == joinID, seat == nil || configuration.tournament != nil {
            isFinished = true
            return [.finish(.failed("cannot join: \(error.message)"))]
        }
        guard let pending = pendingFlip, let id = error.id, id == pending.id else { return [] }
        pendingFlip = nil
        consecutiveRefusals += 1
        guard consecutiveRefusals < Self.maxConsecutiveRefusals else {
            isFinished = true
            return [.send(.leave), .finish(.failed("the server refused \(consecutiveRefusals) moves in a row; the last: \(error.message)"))]
        }
        // Try again from the newest state, after thinking (which also gives a rate limit time to pass).
        guard let state = latest, state.phase == .playing, state.turn == seat else { return [] }
        thinkingAbout = state.seq
        return [.think(aboutState: state.seq)]
    }
}
