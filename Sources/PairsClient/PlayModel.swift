import PairsRules
import PairsWire

/// Everything `pairs play` knows and shows: the room, the latest state, what happened lately, the chat,
/// and the state of the connection. Built only from session events and what the player typed, so the
/// screen is a pure function of it and tests can drive it without a server.
public struct PlayModel: Sendable {
    /// Event lines kept, more than any screen shows, so a taller terminal shows more.
    public static let historyLimit = 50
    /// Chat lines kept.
    public static let chatLimit = 20

    /// How the connection stands.
    public enum Link: Sendable, Hashable {
        case connecting
        case connected
        case reconnecting(attempt: Int)
        case closed(String)
    }

    /// A chat message as shown.
    public struct ChatLine: Sendable, Hashable {
        public var from: String
        /// Nil when a spectator said it.
        public var seat: Seat?
        public var text: String
    }

    public let endpoint: ServerEndpoint
    /// The rules the player asked for, to warn when the room plays others.
    public let askedRules: RuleChoices
    public private(set) var server: String?
    public private(set) var link = Link.connecting
    public private(set) var room: String?
    /// The player's seat; nil in the lobby or when watching.
    public private(set) var seat: Seat?
    public private(set) var isWatching = false
    public private(set) var state: WireState?
    /// The room's rules as its messages carry them; nil for a room of the classic game.
    public private(set) var rules: RuleSet?
    public private(set) var spectators = 0
    /// When `state` arrived, by the client's clock, so its clocks can be counted down locally.
    public private(set) var stateArrivedAt: Moment?
    /// When the current game's play (its `start`) and its peek began, by the client's clock, if seen.
    private var playStartedAt: Moment?
    private var peekStartedAt: Moment?
    /// How long the last finished game was played, when its start was seen.
    public private(set) var lastPlayMilliseconds: Int?
    public private(set) var history: [String] = []
    public private(set) var chat: [ChatLine] = []
    /// The latest answer to what the player typed, or a hint; replaced by the next.
    public private(set) var notice: [String] = []
    public private(set) var noticeIsError = false
    /// Set between a reconnection and the `joined` that confirms the seat is back.
    private var isResuming = false
    /// The answer to /history, /top or /profile being put together from its lines.
    var pendingAnswer = LongAnswer()

    public init(endpoint: ServerEndpoint, askedRules: RuleChoices = RuleChoices()) {
        self.endpoint = endpoint
        self.askedRules = askedRules
    }

    /// Whether it is the player's turn to flip now.
    public var isMyTurn: Bool {
        guard let state, let seat else { return false }
        return state.phase == .playing && state.turn == seat
    }

    /// Milliseconds left on the turn clock at `now`: the server's figure less the time since it arrived.
    public func turnMillisecondsLeft(at now: Moment) -> Int? {
        countdown(state?.turnMillisecondsLeft, at: now)
    }

    /// Milliseconds left on the game clock at `now`, while one runs.
    public func gameMillisecondsLeft(at now: Moment) -> Int? {
        countdown(state?.gameMillisecondsLeft, at: now)
    }

    /// Milliseconds left of the peek at `now`, during one whose start was seen.
    public func peekMillisecondsLeft(at now: Moment) -> Int? {
        guard state?.phase == .peek, let peek = rules?.variant.peekMilliseconds, let started = peekStartedAt else { return nil }
        return max(0, peek - Int(started.milliseconds(until: now)))
    }

    private func countdown(_ left: Int?, at now: Moment) -> Int? {
        guard let left, let arrived = stateArrivedAt else { return nil }
        return max(0, left - Int(arrived.milliseconds(until: now)))
    }

    /// Who tells the story: from the player's seat, by the room's rules.
    public var narrator: Narrator { Narrator(me: seat, rules: rules, playMilliseconds: lastPlayMilliseconds) }

    // MARK: Session events

    /// Takes in what the session reported at `now`, and returns the lines that tell the player about it.
    public mutating func apply(_ event: SessionEvent, at now: Moment) -> [TranscriptLine] {
        switch event {
        case .ready(let welcome):
            server = welcome.server
            link = .connected
            return record([TranscriptLine(.connection, "connected to \(endpoint) (\(welcome.server))")])
        case .message(let message):
            return apply(message, at: now)
        case .nameRefused(let error):
            return record([TranscriptLine(.error, error.message)])
        case .unreadableLine(let reason):
            return record([TranscriptLine(.error, "could not read a message from the server (\(reason))")])
        case .skippedUnknown(let part):
            // Said in the transcript rather than on standard error, which would scribble over the screen.
            return record([TranscriptLine(.connection, "ignored parts of the server's messages this client does not know (first: \(part))")])
        case .connectionLost(let end):
            link = .reconnecting(attempt: 0)
            return record([TranscriptLine(.connection, "connection lost: \(end); reconnecting")])
        case .reconnecting(let attempt, _):
            link = .reconnecting(attempt: attempt)
            return []
        case .reconnected:
            link = .connected
            isResuming = true
            return record([TranscriptLine(.connection, "reconnected")])
        case .seatLost(let error):
            let join = room.map { "/join \($0)" } ?? "/join"
            leaveRoom()
            isResuming = false
            return record([TranscriptLine(.error, "could not get your seat back: \(error.message)"),
                           TranscriptLine(.notice, "type \(join) to play again, or /quit")])
        case .ended(let end):
            link = .closed("\(end)")
            switch end {
            case .quit: return []
            default: return record([TranscriptLine(.connection, "\(end)")])
            }
        }
    }

    private mutating func apply(_ message: ServerMessage, at now: Moment) -> [TranscriptLine] {
        switch message {
        case .joined(let joined):
            room = joined.room
            seat = joined.seat
            rules = joined.rules
            isWatching = joined.seat == nil
            var lines: [TranscriptLine] = []
            if isResuming {
                isResuming = false
                lines.append(TranscriptLine(.connection, "back in room \(joined.room)"))
            } else if isWatching {
                lines.append(TranscriptLine(.event, "watching room \(joined.room)"))
            } else if let warning = RuleWords.warning(
                room: joined.room, differences: RuleWords.differences(asked: askedRules, room: joined.rules)) {
                lines.append(TranscriptLine(.notice, warning))
            }
            return record(lines)
        case .state(let message):
            return record(take(message, at: now))
        case .error(let error):
            return record([TranscriptLine(.error, Self.explain(error))])
        case .chat(let chat):
            self.chat.append(ChatLine(from: chat.from, seat: chat.seat, text: chat.text))
            if self.chat.count > Self.chatLimit { self.chat.removeFirst(self.chat.count - Self.chatLimit) }
            let speaker = chat.seat == nil ? "\(chat.from) (watching)" : chat.from
            return [TranscriptLine(.chat, "\(speaker) says: \(chat.text)")]
        case .left(let room, _):
            leaveRoom()
            return record([TranscriptLine(.notice, "you left room \(room); type /join [ROOM] to play again, or /quit")])
        case .bye(let reason):
            return reason == .quit ? [] : record([TranscriptLine(.connection, reason.explanation)])
        case .history, .replay, .replayMoves, .leaderboard, .profile:
            return record(takeAnswerLine(message))
        case .welcome, .rooms, .pong, .stats, .help:
            return []
        }
    }

    private mutating func take(_ message: StateMessage, at now: Moment) -> [TranscriptLine] {
        let previous = state
        let next = message.state
        room = message.room
        state = next
        rules = message.rules
        spectators = message.spectators
        stateArrivedAt = now
        if previous?.game != next.game {
            playStartedAt = nil
            peekStartedAt = nil
        }
        switch next.event.kind {
        case .start: playStartedAt = now
        case .peek: peekStartedAt = now
        default: break
        }
        if next.phase == .over, previous?.phase != .over {
            lastPlayMilliseconds = playStartedAt.map { Int($0.milliseconds(until: now)) }
        }
        var lines = narrator.describe(next, previous: previous, room: message.room).map { TranscriptLine(.event, $0) }
        if next.event.kind == .peek { lines.append(TranscriptLine(.board, "the board while every card is up")) }
        if next.phase == .playing, let turn = next.turn, Self.startsTurn(next.event.kind) {
            lines.append(TranscriptLine(.turn, narrator.turn(of: turn, in: next)))
        }
        if next.endsGame, previous?.endsGame != true {
            lines.append(TranscriptLine(.event, Narrator.series(of: next)))
            if seat != nil { lines.append(TranscriptLine(.notice, "type /rematch to play again, /leave or /quit")) }
        }
        // The opponent's seat is empty after a leave: whoever left, the player now waits for someone new.
        if next.event.kind == .leave, let seat, next.players.indices.contains(seat.opponent.index),
           next.players[seat.opponent.index] == nil {
            lines.append(TranscriptLine(.notice, "waiting for a new opponent to join room \(message.room)"))
        }
        return lines
    }

    /// Whether a turn begins with an event of this kind, so whose turn it is is worth saying.
    private static func startsTurn(_ kind: EventKind) -> Bool {
        switch kind {
        case .start, .match, .hide, .timeout, .reconnect: true
        default: false
        }
    }

    private mutating func leaveRoom() {
        room = nil
        seat = nil
        isWatching = false
        state = nil
        rules = nil
        stateArrivedAt = nil
    }

    /// The server's words for a refusal, with what to do about it where the words alone do not say.
    static func explain(_ error: RequestError) -> String {
        switch error.code {
        case .roomFull: "\(error.message) (/watch ROOM)"
        case .rateLimited: "slow down: \(error.message)"
        default: error.message
        }
    }

    // MARK: What the player typed

    /// Why the player cannot flip `card` now, in words; nil when the flip may be sent.
    public func refusal(toFlip card: Int) -> String? {
        guard room != nil else { return "you are not in a room: type /join [ROOM] first" }
        guard !isWatching, let seat else { return "you are watching: spectators cannot flip" }
        guard let state else { return "the game has not started yet" }
        switch state.phase {
        case .waiting: return "the game has not started: waiting for an opponent"
        case .over: return "the game is over: type /rematch to play again"
        case .reveal: return "wait a moment: the cards are on show"
        case .peek: return "wait: every card is on show until play starts"
        case .playing: break
        }
        if state.turn != seat, let turn = state.turn { return "it is \(narrator.turn(of: turn, in: state))" }
        guard state.cards.indices.contains(card) else {
            return "there is no card \(card): the cards are 0 to \(state.cards.count - 1)"
        }
        switch state.cards[card] {
        case .down: return nil
        case .up(let face): return "card \(card) is already face up (\(face))"
        case .matched(let face, _): return "card \(card) is already taken (\(face))"
        }
    }

    /// Shows an answer to what the player typed.
    public mutating func show(_ lines: [String], isError: Bool) {
        notice = lines
        noticeIsError = isError
    }

    /// Clears the answer to the previous line, when the player types the next.
    public mutating func clearNotice() {
        notice = []
        noticeIsError = false
    }

    /// Keeps event and connection lines for the screen's history and notices and errors for its notice
    /// area, and passes all of them back for plain output.
    private mutating func record(_ lines: [TranscriptLine]) -> [TranscriptLine] {
        for line in lines {
            switch line.kind {
            case .event, .connection:
                history.append(line.text)
            case .notice:
                show([line.text], isError: false)
            case .error:
                show([line.text], isError: true)
            case .turn, .chat, .board:
                break
            }
        }
        if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
        return lines
    }
}
