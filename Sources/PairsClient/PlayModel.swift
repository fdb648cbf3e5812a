import PairsRules
import PairsWire

/// Everything `pairs play` knows and shows: the room, the latest state, what happened lately, the chat,
/// and the state of the connection. Built only from session events and what the player typed, so the
/// screen is a pure function of it and tests can drive it without a server.
public struct PlayModel: Sendable {
    /// Event lines kept: as many as the tallest terminal shows, the rest of the screen less.
    public static let historyLimit = 200
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
    public var askedRules: RuleChoices { rulesCheck.asked }
    private var rulesCheck: AskedRulesCheck
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
    /// Whether the notice is an error about how things stood when it was shown (see `show`).
    private var noticeIsAboutTheMoment = false
    /// Set between a reconnection and the `joined` that confirms the seat is back.
    private var isResuming = false
    /// Set while the seat is being taken back from a saved token, at the start.
    private var isResumingSavedSeat = false
    /// A way out that waits for the player's yes, while it does.
    public private(set) var confirmation: ExitConfirmation?
    /// Set once the player is on the way out: what to type next is no longer worth saying.
    public private(set) var isQuitting = false
    /// The player's turn clock ran out this many times in a row in the current game; the rules forfeit the
    /// game at `Match.timeoutsToForfeit`.
    public private(set) var timeoutsInARow = 0
    /// How many times a turn of the player's began, so the controller can ring the bell once for each.
    public private(set) var turnsBegun = 0
    /// What each `list` sent is for, by its id.
    private var roomQuestions: [RequestID: LobbyWords.RoomQuestion] = [:]
    /// The answer to /history, /top or /profile being put together from its lines.
    var pendingAnswer = LongAnswer()
    /// The player's name, as the server's welcome says it.
    public private(set) var me: String?
    /// The tournament the player entered or watches, once its first message came.
    public internal(set) var tournament: FollowedTournament?
    /// A `tournament` message being put together from its lines.
    var tournamentLines = LongAnswer()

    public init(endpoint: ServerEndpoint, askedRules: RuleChoices = RuleChoices()) {
        self.endpoint = endpoint
        self.rulesCheck = AskedRulesCheck(asked: askedRules)
    }

    /// Whether a game is in progress with the player in it: leaving now would forfeit it.
    public var isInGame: Bool {
        guard seat != nil, let phase = state?.phase else { return false }
        switch phase {
        case .playing, .reveal, .peek: return true
        case .waiting, .over: return false
        }
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
            me = welcome.name
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
            clearError()
            return record([TranscriptLine(.connection, "connection lost: \(end); reconnecting")])
        case .reconnecting(let attempt, _):
            link = .reconnecting(attempt: attempt)
            return []
        case .reconnected:
            link = .connected
            clearError()
            isResuming = true
            return record([TranscriptLine(.connection, "reconnected")])
        case .seatLost:
            // The server no longer knows the token: it restarted (rooms live in its memory), or it gave the
            // seat away after its grace period. Either way the game is gone, which is what the player needs to know.
            let join = room.map { "/join \($0)" } ?? "/join"
            let lost = room.map { room in state.map { "your seat in room \(room) and game \($0.game) are" } ?? "your seat in room \(room) is" }
                ?? "your seat is"
            leaveRoom()
            isResuming = false
            return record([TranscriptLine(.connection, "\(lost) lost: the server restarted, or gave the seat away after its grace period"),
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
            if isResumingSavedSeat {
                isResumingSavedSeat = false
                isResuming = false
                lines.append(TranscriptLine(.connection, "back in room \(joined.room), in the seat you had"))
            } else if isResuming {
                isResuming = false
                lines.append(TranscriptLine(.connection, "back in room \(joined.room)"))
            } else if isWatching {
                lines.append(TranscriptLine(.event, "watching room \(joined.room)"))
            } else if let warning = rulesCheck.joined(joined) {
                lines.append(TranscriptLine(.notice, warning))
            }
            return record(lines)
        case .state(let message):
            var lines = take(message, at: now)
            if let warning = rulesCheck.state(message) { lines.append(TranscriptLine(.notice, warning)) }
            return record(lines)
        case .error(let error):
            return record([TranscriptLine(.error, Self.explain(error))])
        case .chat(let chat):
            self.chat.append(ChatLine(from: chat.from, seat: chat.seat, text: chat.text))
            if self.chat.count > Self.chatLimit { self.chat.removeFirst(self.chat.count - Self.chatLimit) }
            let speaker = chat.seat == nil ? "\(chat.from) (watching)" : chat.from
            return [TranscriptLine(.chat, "\(speaker) says: \(chat.text)")]
        case .left(let room, _):
            leaveRoom()
            guard !isQuitting else { return record([TranscriptLine(.event, "you left room \(room)")]) }
            return record([TranscriptLine(.notice, "you left room \(room); type /join [ROOM] to play again, or /quit")])
        case .bye(let reason):
            return reason == .quit ? [] : record([TranscriptLine(.connection, reason.explanation)])
        case .rooms(let list):
            let question = list.id.flatMap { roomQuestions.removeValue(forKey: $0) } ?? .rooms
            return answer(question == .rooms ? LobbyWords.rooms(list) : LobbyWords.people(list))
        case .stats(let statistics):
            return answer(LobbyWords.statistics(statistics))
        case .history, .replay, .replayMoves, .leaderboard, .profile:
            return record(takeAnswerLine(message))
        case .tournament(let part):
            return record(takeTournamentLine(part, at: now))
        case .tournaments:
            return record(takeAnswerLine(message))
        case .welcome, .pong, .help, .redirect:
            return []
        }
    }

    private mutating func take(_ message: StateMessage, at now: Moment) -> [TranscriptLine] {
        let previous = state
        let next = message.state
        // An error about the moment before (not your turn, the game is not over) is no longer true once the
        // turn, the phase or the game has moved on.
        if previous?.turn != next.turn || previous?.phase != next.phase || previous?.game != next.game { clearError() }
        room = message.room
        state = next
        rules = message.rules
        spectators = message.spectators
        stateArrivedAt = now
        if previous?.game != next.game {
            playStartedAt = nil
            peekStartedAt = nil
            timeoutsInARow = 0
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
        // A spectator who has just arrived sees the board as it is.
        if previous == nil, isWatching, next.event.kind != .peek { lines.append(TranscriptLine(.board, "the board")) }
        lines += countTimeouts(next, previous: previous)
        if next.phase == .playing, let turn = next.turn, Self.startsTurn(next.event.kind) {
            lines.append(TranscriptLine(.turn, narrator.turn(of: turn, in: next)))
            if turn == seat { turnsBegun += 1 }
        }
        if next.endsGame, previous?.endsGame != true {
            if let series = Narrator.series(of: next) { lines.append(TranscriptLine(.event, series)) }
            if seat != nil, !isQuitting { lines.append(TranscriptLine(.notice, "type /rematch to play again, /leave or /quit")) }
        }
        // The opponent's seat is empty after a leave: whoever left, the player now waits for someone new.
        if next.event.kind == .leave, let seat, next.players.indices.contains(seat.opponent.index),
           next.players[seat.opponent.index] == nil {
            lines.append(TranscriptLine(.notice, "waiting for a new opponent to join room \(message.room)"))
        }
        return lines
    }

    /// Counts the player's timeouts in a row (a flip of theirs ends a run, as in the rules), and warns when
    /// the next one would forfeit the game.
    private mutating func countTimeouts(_ next: WireState, previous: WireState?) -> [TranscriptLine] {
        guard let seat else { return [] }
        let mover = next.event.seat ?? previous?.turn
        switch next.event.kind {
        case .timeout where mover == seat:
            timeoutsInARow += 1
            let left = Match.timeoutsToForfeit - timeoutsInARow
            guard left == 1 else { return [] }
            return [TranscriptLine(.notice, "you ran out of time \(timeoutsInARow) turns in a row: one more forfeits the game")]
        case .flip, .match, .mismatch, .over:
            if mover == seat { timeoutsInARow = 0 }
        default:
            break
        }
        return []
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

    /// Why a request cannot go to the server now, in words; nil while connected.
    public var connectionRefusal: String? {
        switch link {
        case .connected: nil
        case .connecting: "not connected yet: connecting…"
        case .reconnecting: "not connected: reconnecting… (/quit to give up)"
        case .closed: "not connected"
        }
    }

    /// Starts asking the player to confirm a way out, with the question as the notice.
    public mutating func ask(_ confirmation: ExitConfirmation) {
        self.confirmation = confirmation
        show([confirmation.question], isError: false)
    }

    /// Stops asking, the player having answered (or the game having ended meanwhile, when the question,
    /// if still shown, goes too).
    public mutating func dismissConfirmation() {
        if let confirmation, notice == [confirmation.question] { clearNotice() }
        confirmation = nil
    }

    /// The player is on the way out: no more hints of what to type next.
    public mutating func quitting() {
        isQuitting = true
        confirmation = nil
    }

    /// The seat is being taken back with a token saved by an earlier run.
    public mutating func resumeSavedSeat() {
        isResumingSavedSeat = true
    }

    /// The saved seat could not be taken back; a new one is being asked for.
    public mutating func savedSeatGone(room: String?, _ error: RequestError) -> [TranscriptLine] {
        isResumingSavedSeat = false
        let place = room.map { "room \($0)" } ?? "quick match"
        return record([TranscriptLine(.connection, "the seat saved from last time is gone (\(error.message)); joining \(place) afresh")])
    }

    /// Remembers that the `rooms` answer to request `id` is for `question`.
    public mutating func expect(_ question: LobbyWords.RoomQuestion, answering id: RequestID) {
        roomQuestions[id] = question
    }

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

    /// Shows an answer to what the player typed. `isAboutTheMoment` marks an error that says how the game
    /// or the connection stands ("it is bob's turn"), which the next turn, phase or connection change makes
    /// untrue; an error about the line itself ("banana" is not a command) stays until the next line.
    public mutating func show(_ lines: [String], isError: Bool, isAboutTheMoment: Bool = false) {
        notice = lines
        noticeIsError = isError
        noticeIsAboutTheMoment = isError && isAboutTheMoment
    }

    /// Clears the answer to the previous line, when the player types the next.
    public mutating func clearNotice() {
        notice = []
        noticeIsError = false
        noticeIsAboutTheMoment = false
    }

    /// Clears an error that the news has made untrue; a notice, or an error about what was typed, stays.
    private mutating func clearError() {
        if noticeIsAboutTheMoment { clearNotice() }
    }

    /// An answer from the server to something the player asked: the notice, and lines for plain output.
    private mutating func answer(_ lines: [String]) -> [TranscriptLine] {
        show(lines, isError: false)
        return lines.map { TranscriptLine(.answer, $0) }
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
                // The server refuses by how things stand (not your turn, not playing, the room is full).
                show([line.text], isError: true, isAboutTheMoment: true)
            case .turn, .chat, .board, .answer:
                break
            }
        }
        if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
        return lines
    }
}
