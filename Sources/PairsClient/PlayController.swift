import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsPolling
import PairsRules
import PairsWire

/// `pairs play`: connects, joins, and then turns session events into screen updates and typed lines into
/// requests.
///
/// On a terminal the screen is redrawn in place every time something happens and once a second for the
/// turn clock; anywhere else each thing that happens is printed as one plain line. Standard input is read
/// by a Dispatch source on the main queue, like everything else here, so the screen keeps moving while
/// the player thinks.
///
/// Confinement: the controller lives on the main queue (signals and the terminal belong to the process
/// anyway). That is the `@unchecked Sendable` promise.
public final class PlayController: @unchecked Sendable {
    /// Where the game is shown.
    public enum Display: Sendable, Hashable {
        /// A terminal: the full screen, redrawn in place.
        case terminal(TextStyle)
        /// A pipe or a file: one plain line per event.
        case plain
    }

    /// Chooses the display for the process: the full screen when standard output is a terminal, with
    /// color unless `NO_COLOR` is set (to anything non-empty, as https://no-color.org says).
    public static func standardDisplay(environment: [String: String]) -> Display {
        guard TerminalScreen.isTerminal(1) else { return .plain }
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        if dumb { return .plain }
        return .terminal(TextStyle(usesEscapes: true, usesColor: !noColor))
    }

    /// Exit status after Ctrl-C (128 + SIGINT, as shells report it).
    static let interruptedStatus: Int32 = 128 + SIGINT
    /// Exit status after SIGTERM.
    static let terminatedStatus: Int32 = 128 + SIGTERM
    /// Exit status after SIGHUP (the terminal went away): the seat is left held, to be taken back.
    static let hungUpStatus: Int32 = 128 + SIGHUP
    /// Exit status when the server refused what the command line asked for (a room to watch that does not
    /// exist), in plain output where nobody could type anything else.
    static let refusedStatus: Int32 = 1
    /// Bytes read from standard input at a time; a typed line is far shorter.
    static let inputChunkBytes = 4096
    /// Games or places /history and /top ask for: a title and these fit the event area of an 80x24 terminal
    /// during a game, so the answer is seen whole where most people play; `pairs history` and `pairs
    /// leaderboard` show more.
    static let answerLimit = 8

    /// What the program asked the server for on its own at the start, by the request's id, so its refusal
    /// can be told apart from the refusal of something typed.
    enum StartRequest: Hashable {
        case resume(SavedSeats.Key)
        case join
        case watch
        case tournament
    }

    public let options: PlayOptions
    public let display: Display
    let queue = DispatchQueue.main
    let session: ClientSession
    var model: PlayModel
    var renderer: ScreenRenderer
    let screen = TerminalScreen()
    private var inputFramer = LineFramer()
    var inputSource: DispatchSourceRead?
    var tickTimer: DispatchSourceTimer?
    /// The signals held for this controller since before it was made (`signals(for:)`).
    let signals: SignalWatcher
    private var exitHandler: ((Int32) -> Void)?
    /// The last result seen, said again on the normal screen after leaving the full screen.
    private var lastResult: [String] = []
    private var isFinished = false
    /// What the program exits with once a quit has run its course: 0, or Ctrl-C's status when that was how
    /// the player said yes.
    var quitStatus: Int32 = 0
    /// Whether a person types the input, who can answer a question (a script's input cannot).
    let asksBeforeForfeiting: Bool
    /// The request the program sent at the start, while its answer is awaited.
    var startRequest: (id: RequestID, kind: StartRequest)?
    /// Which saved seat the last `join` or `resume` was for, and which one is held now.
    var requestedSeat: SavedSeats.Key?
    var heldSeat: SavedSeats.Key?
    /// Whether a failure to save a token was said already: once is enough.
    var hasReportedSaveFailure = false
    private var passwordDialog: PasswordDialog

    /// A controller for `options` on `display`, answering the signals `signals` holds, which must be
    /// `PlayController.signals(for: display)`.
    public init(options: PlayOptions, display: Display, signals: SignalWatcher) {
        self.options = options
        self.display = display
        self.signals = signals
        let password: String? = if case .given(let password) = options.password { password } else { nil }
        self.session = ClientSession(endpoint: options.endpoint, name: options.name, password: password, queue: .main)
        // A person can be asked for the password, unless it came from the environment.
        self.passwordDialog = PasswordDialog(name: options.name ?? "", canAsk: password == nil && TerminalScreen.isTerminal(0))
        self.model = PlayModel(endpoint: options.endpoint, askedRules: options.rules)
        let style: TextStyle = if case .terminal(let style) = display { style } else { .plain }
        let size = TerminalScreen.size()
        self.renderer = ScreenRenderer(style: style, rows: size.rows, columns: size.columns)
        self.asksBeforeForfeiting = TerminalScreen.isTerminal(0)
    }

    /// Starts playing. Call on the main queue, then run it (`dispatchMain()`); `exit` is called with the
    /// exit status once the player is done.
    public func start(exit: @escaping (Int32) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        exitHandler = exit
        installSignalHandlers()
        if isTerminal { StandardStream.writeLine("connecting to \(options.endpoint)…") }
        session.onEvent = { [unowned self] event in handle(event) }
        if options.password == .ask, options.name != nil {
            askPassword(passwordDialog.firstQuestion(), thenStart: true)
        } else {
            session.start()
        }
    }

    /// Asks for the password without echo and says hello with it (starting the session first, when asked
    /// before connecting); the end of input at the question quits.
    private func askPassword(_ question: String, thenStart: Bool) {
        PasswordPrompt.ask(question, queue: queue) { [unowned self] password in
            guard !isFinished else { return }
            guard let password else { return finish(.quit) }
            session.sayHello(password: password)
            if thenStart { session.start() }
        }
    }

    /// The server refused the name: ask again, or stop with its reason and status 1.
    private func nameRefused(_ error: RequestError) {
        switch passwordDialog.next(after: error) {
        case .ask(let question):
            askPassword(question, thenStart: false)
        case .giveUp(let reason):
            StandardStream.writeErrorLine("\(options.command): \(reason)")
            session.close()
            finish(.quit, status: 1)
        }
    }

    var isTerminal: Bool {
        if case .terminal = display { true } else { false }
    }

    // MARK: Session events

    private func handle(_ event: SessionEvent) {
        if case .ended(let end) = event {
            return finish(end)
        }
        if case .nameRefused(let error) = event {
            return nameRefused(error)
        }
        if case .message(.error(let error)) = event, let start = startRequest, error.id == start.id {
            return refused(start.kind, error)
        }
        if case .message(.joined) = event { startRequest = nil }
        if case .message(.tournament(let view)) = event, view.id != nil, view.id == startRequest?.id { startRequest = nil }
        keepSeat(event)
        let turnsBefore = model.turnsBegun
        let lines = model.apply(event, at: MonotonicClock.now())
        if case .ready = event {
            if isTerminal { screen.enter() }
            startInput()
            startTicking()
            begin()
        }
        if let state = model.state, state.phase == .over {
            lastResult = [model.narrator.result(of: state)] + (Narrator.series(of: state).map { [$0] } ?? [])
        }
        // A question about forfeiting a game that has ended meanwhile has nothing left to ask.
        if model.confirmation != nil, !model.isInGame { model.dismissConfirmation() }
        if model.turnsBegun > turnsBefore, isTerminal, !options.isQuiet { StandardStream.write(Self.bell) }
        show(lines, full: false)
    }

    /// The terminal's bell: the attention sequence every terminal knows.
    static let bell = "\u{07}"

    /// The first request: enter a tournament, watch, take back a saved seat, or join.
    private func begin() {
        if let tournament = options.tournament {
            // As `/tournament join` typed in the lobby: the tournament screen follows, and the server seats
            // the player in each game (no seat is saved: the tournament seats them again).
            startRequest = session.send(.tournament(.join(tournament: tournament))).map { ($0, .tournament) }
        } else if let watch = options.watch {
            startRequest = session.send(.watch(room: watch)).map { ($0, .watch) }
        } else if let key = savedSeatKey(room: options.room), let saved = usableSavedSeat(key) {
            model.resumeSavedSeat()
            requestedSeat = key
            startRequest = session.send(.resume(token: saved.token)).map { ($0, .resume(key)) }
        } else {
            join(options.room, isStart: true)
        }
    }

    /// Sends a `join` for `room` (nil: quick match) with the rules asked for.
    func join(_ room: String?, isStart: Bool) {
        requestedSeat = savedSeatKey(room: room)
        let id = send(.join(JoinRequest(room: room, rules: options.rules)))
        if isStart { startRequest = id.map { ($0, .join) } }
    }

    /// The server refused the request the program started with.
    private func refused(_ request: StartRequest, _ error: RequestError) {
        startRequest = nil
        switch request {
        case .resume(let key):
            // The saved seat is gone (the server restarted, or its grace period ran out): a normal join.
            options.savedSeats?.forget(key)
            let lines = model.savedSeatGone(room: options.room, error)
            show(lines, full: false)
            join(options.room, isStart: true)
        case .join, .watch, .tournament:
            // Plain output has nobody to type another room: what the command line asked for cannot be done.
            guard isTerminal else { return fail(PlayModel.explain(error)) }
            show(model.apply(.message(.error(error)), at: MonotonicClock.now()), full: false)
        }
    }

    private func show(_ lines: [TranscriptLine], full: Bool) {
        switch display {
        case .terminal:
            screen.draw(renderer.render(model, at: MonotonicClock.now()), full: full)
        case .plain:
            for line in PlainTranscript.render(lines, model: model) { StandardStream.writeLine(line) }
        }
    }

    /// Redraws the screen (on a terminal) or prints the notice (in plain output) after the player typed.
    func showNotice() {
        switch display {
        case .terminal:
            // The Enter key moved the cursor off the prompt: draw it all, prompt included.
            show([], full: true)
        case .plain:
            for line in model.notice { StandardStream.writeLine(model.noticeIsError ? "error: \(line)" : line) }
        }
    }

    // MARK: Typed lines

    private func startInput() {
        guard inputSource == nil else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: 0, queue: queue)
        source.setEventHandler { [unowned self] in readInput() }
        source.activate()
        inputSource = source
    }

    private func readInput() {
        var buffer = [UInt8](repeating: 0, count: Self.inputChunkBytes)
        let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return }
        }
        guard count > 0 else { return endOfInput() }
        // Nil stands for a line too long to be anything the player meant.
        var typed: [String?] = []
        buffer.withUnsafeBytes { bytes in
            inputFramer.append(UnsafeRawBufferPointer(rebasing: bytes[..<count])) { frame in
                switch frame {
                case .line(let line): typed.append(String(decoding: line, as: UTF8.self))
                case .tooLong: typed.append(nil)
                }
            }
        }
        for line in typed { handleInput(line) }
    }

    private func handleInput(_ line: String?) {
        model.clearNotice()
        if let confirmation = model.confirmation {
            model.dismissConfirmation()
            if let line, ExitConfirmation.isYes(line) { return confirmed(confirmation, status: 0) }
            // Anything else stays in the game; a line that means something is still done.
            if line?.trimmingWhitespace().isEmpty ?? false {
                model.show(["staying in the game"], isError: false)
                return showNotice()
            }
        }
        if let line {
            do throws(InputError) {
                if let command = try InputCommand.parse(line) { perform(command) }
            } catch {
                model.show([error.description], isError: true)
            }
        } else {
            model.show(["that line is too long to be a command"], isError: true)
        }
        showNotice()
    }

    private func perform(_ command: InputCommand) {
        switch command {
        case .help:
            return model.show(InputCommand.helpLines, isError: false)
        case .quit:
            return requestQuit(status: 0)
        case .who where model.room != nil:
            // Who is in the room is in its state already.
            if let state = model.state, let room = model.room {
                model.show(LobbyWords.people(in: state, room: room, spectators: model.spectators, me: model.seat), isError: false)
            } else {
                model.show(["waiting for the room's state"], isError: false)
            }
            return
        default:
            break
        }
        if let refusal = model.connectionRefusal { return model.show([refusal], isError: true, isAboutTheMoment: true) }
        switch command {
        case .flip(let card):
            if let refusal = model.refusal(toFlip: card) { return model.show([refusal], isError: true, isAboutTheMoment: true) }
            send(.flip(card: card))
        case .say(let text):
            guard model.room != nil else { return model.show(["join a room to chat: /join [ROOM]"], isError: true) }
            send(.say(text: text))
        case .rematch:
            guard model.seat != nil, let state = model.state else {
                return model.show(["you are not playing in a room"], isError: true)
            }
            guard state.phase == .over else { return model.show(["the game is not over yet"], isError: true, isAboutTheMoment: true) }
            send(.rematch)
        case .leave:
            guard model.room != nil else { return model.show(["you are not in a room"], isError: true) }
            if model.isInGame, asksBeforeForfeiting { return model.ask(.leave) }
            send(.leave)
        case .join(let room):
            guard model.room == nil else { return model.show(["leave this room first: /leave"], isError: true) }
            join(room, isStart: false)
        case .watch(let room):
            guard model.room == nil else { return model.show(["leave this room first: /leave"], isError: true) }
            send(.watch(room: room))
        case .list:
            if let id = send(.list) { model.expect(.rooms, answering: id) }
        case .who:
            if let id = send(.list) { model.expect(.people, answering: id) }
        case .stats:
            send(.stats)
        case .history(let name):
            send(.history(HistoryQuery(name: name, limit: Self.answerLimit)))
        case .top:
            // The ladder of the game played here: the room's rules, the classic game's outside a room.
            send(.leaderboard(LeaderboardQuery(rules: model.rules.map(RuleChoices.init), limit: Self.answerLimit)))
        case .profile(let name):
            send(.profile(name: name))
        case .tournament(let request):
            // Entering and watching start from no room (the server says so too); the server then moves an
            // entrant between its games' rooms itself.
            switch request {
            case .join, .watch:
                guard model.room == nil else { return model.show(["leave this room first: /leave"], isError: true) }
            case .create, .leave, .start, .list: break
            }
            send(.tournament(request))
        case .help, .quit:
            break
        }
    }

    @discardableResult
    private func send(_ message: ClientMessage) -> RequestID? {
        let id = session.send(message)
        if id == nil {
            model.show([model.connectionRefusal ?? "not connected right now; try again once the connection is back"], isError: true,
                       isAboutTheMoment: true)
        }
        return id
    }

    // MARK: Time

    private func startTicking() {
        guard isTerminal, tickTimer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // Once a second for the turn, game and peek clocks; a little leeway lets the system batch the wake-ups.
        timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1), leeway: .milliseconds(50))
        timer.setEventHandler { [unowned self] in show([], full: false) }
        timer.activate()
        tickTimer = timer
    }

    // MARK: The end

    /// Ends the program: puts the terminal back, says how it ended, and exits with `status` (by default,
    /// what `end` calls for).
    func finish(_ end: SessionEnd, status: Int32? = nil) {
        guard !isFinished else { return }
        isFinished = true
        tickTimer?.cancel()
        inputSource?.cancel()
        screen.restore()
        TerminalInputMode.restore()
        let code: Int32
        switch end {
        case .quit:
            code = status ?? quitStatus
            if isTerminal { for line in lastResult { StandardStream.writeLine(line) } }
        case .cannotConnect(let error):
            code = 1
            StandardStream.writeErrorLine("\(options.command): \(error)")
        case .bye, .gaveUp:
            code = 1
            if isTerminal { for line in lastResult { StandardStream.writeLine(line) } }
            StandardStream.writeErrorLine("\(options.command): \(end)")
        }
        exitHandler?(code)
    }

    /// Ends the program because the server refused what the command line asked for.
    private func fail(_ message: String) {
        session.close()
        StandardStream.writeErrorLine("\(options.command): \(message)")
        finish(.quit, status: Self.refusedStatus)
    }
}
