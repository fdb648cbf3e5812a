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

    /// Exit status when the player stops the program with a signal (128 + SIGINT, as shells report it).
    static let interruptedStatus: Int32 = 130
    /// Bytes read from standard input at a time; a typed line is far shorter.
    static let inputChunkBytes = 4096
    /// Games or places /history and /top ask for: a title and these fill the event area
    /// (`ScreenRenderer.eventLines`).
    static let answerLimit = ScreenRenderer.eventLines - 1

    public let options: PlayOptions
    public let display: Display
    private let queue = DispatchQueue.main
    private let session: ClientSession
    private var model: PlayModel
    private var renderer: ScreenRenderer
    private let screen = TerminalScreen()
    private var inputFramer = LineFramer()
    private var inputSource: DispatchSourceRead?
    private var tickTimer: DispatchSourceTimer?
    private var signalSources: [DispatchSourceSignal] = []
    private var exitHandler: ((Int32) -> Void)?
    /// The last result seen, said again on the normal screen after leaving the full screen.
    private var lastResult: [String] = []
    private var isFinished = false
    private var passwordDialog: PasswordDialog

    public init(options: PlayOptions, display: Display) {
        self.options = options
        self.display = display
        let password: String? = if case .given(let password) = options.password { password } else { nil }
        self.session = ClientSession(endpoint: options.endpoint, name: options.name, password: password, queue: .main)
        // A person can be asked for the password, unless it came from the environment.
        self.passwordDialog = PasswordDialog(name: options.name ?? "", canAsk: password == nil && TerminalScreen.isTerminal(0))
        self.model = PlayModel(endpoint: options.endpoint, askedRules: options.rules)
        let style: TextStyle = if case .terminal(let style) = display { style } else { .plain }
        let size = TerminalScreen.size()
        self.renderer = ScreenRenderer(style: style, rows: size.rows, columns: size.columns)
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
            StandardStream.writeErrorLine("pairs play: \(reason)")
            session.close()
            finish(.quit, status: 1)
        }
    }

    private var isTerminal: Bool {
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
        let lines = model.apply(event, at: MonotonicClock.now())
        if case .ready = event {
            if isTerminal { screen.enter() }
            startInput()
            startTicking()
            if let watch = options.watch {
                session.send(.watch(room: watch))
            } else {
                session.send(.join(JoinRequest(room: options.room, rules: options.rules)))
            }
        }
        if let state = model.state, state.phase == .over {
            lastResult = [model.narrator.result(of: state), Narrator.series(of: state)]
        }
        show(lines, full: false)
    }

    private func show(_ lines: [TranscriptLine], full: Bool) {
        switch display {
        case .terminal:
            screen.draw(renderer.render(model, at: MonotonicClock.now()), full: full)
        case .plain:
            for line in PlainTranscript.render(lines, model: model) { StandardStream.writeLine(line) }
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
        guard count > 0 else {
            // End of input (Ctrl-D, or a script's input ran out). A spectator has nothing to type, so
            // watching goes on; a player is done.
            inputSource?.cancel()
            inputSource = nil
            if options.watch == nil { quit() }
            return
        }
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
        if let line {
            do throws(InputError) {
                if let command = try InputCommand.parse(line) { perform(command) }
            } catch {
                model.show([error.description], isError: true)
            }
        } else {
            model.show(["that line is too long to be a command"], isError: true)
        }
        switch display {
        case .terminal:
            // The Enter key moved the cursor off the prompt: draw it all, prompt included.
            show([], full: true)
        case .plain:
            for line in model.notice { StandardStream.writeLine(model.noticeIsError ? "error: \(line)" : line) }
        }
    }

    private func perform(_ command: InputCommand) {
        switch command {
        case .flip(let card):
            if let refusal = model.refusal(toFlip: card) { return model.show([refusal], isError: true) }
            send(.flip(card: card))
        case .say(let text):
            guard model.room != nil else { return model.show(["join a room to chat: /join [ROOM]"], isError: true) }
            send(.say(text: text))
        case .rematch:
            guard model.seat != nil, let state = model.state else {
                return model.show(["you are not playing in a room"], isError: true)
            }
            guard state.phase == .over else { return model.show(["the game is not over yet"], isError: true) }
            send(.rematch)
        case .leave:
            guard model.room != nil else { return model.show(["you are not in a room"], isError: true) }
            send(.leave)
        case .join(let room):
            guard model.room == nil else { return model.show(["leave this room first: /leave"], isError: true) }
            send(.join(JoinRequest(room: room, rules: options.rules)))
        case .watch(let room):
            guard model.room == nil else { return model.show(["leave this room first: /leave"], isError: true) }
            send(.watch(room: room))
        case .help:
            model.show(InputCommand.helpLines, isError: false)
        case .history(let name):
            send(.history(HistoryQuery(name: name, limit: Self.answerLimit)))
        case .top:
            // The ladder of the game played here: the room's rules, the classic game's outside a room.
            send(.leaderboard(LeaderboardQuery(rules: model.rules.map(RuleChoices.init), limit: Self.answerLimit)))
        case .profile(let name):
            send(.profile(name: name))
        case .quit:
            quit()
        }
    }

    private func send(_ message: ClientMessage) {
        if session.send(message) == nil {
            model.show(["not connected right now; try again once the connection is back"], isError: true)
        }
    }

    /// Leaves the room (so the opponent is not kept waiting for the grace period) and says goodbye.
    private func quit() {
        if model.room != nil { session.send(.leave) }
        session.quit()
    }

    // MARK: Time and signals

    private func startTicking() {
        guard isTerminal, tickTimer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // Once a second for the turn, game and peek clocks; a little leeway lets the system batch the wake-ups.
        timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1), leeway: .milliseconds(50))
        timer.setEventHandler { [unowned self] in show([], full: false) }
        timer.activate()
        tickTimer = timer
    }

    private func installSignalHandlers() {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN) // delivered to the source below instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [unowned self] in interrupted() }
            source.activate()
            signalSources.append(source)
        }
        if isTerminal {
            // Ctrl-Z: give the shell its normal screen back while stopped, and take it again on `fg`.
            signal(SIGTSTP, SIG_IGN)
            let suspend = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: queue)
            suspend.setEventHandler { [unowned self] in
                screen.restore()
                kill(getpid(), SIGSTOP) // returns once the shell continues the process
                screen.enter()
                show([], full: true)
            }
            suspend.activate()
            signalSources.append(suspend)
            signal(SIGWINCH, SIG_IGN)
            let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: queue)
            resize.setEventHandler { [unowned self] in
                let size = TerminalScreen.size()
                renderer.rows = size.rows
                renderer.columns = size.columns
                show([], full: true)
            }
            resize.activate()
            signalSources.append(resize)
        }
        signal(SIGPIPE, SIG_IGN)
    }

    /// Ctrl-C: give up the seat if there is one, put the terminal back, and go.
    private func interrupted() {
        if model.room != nil { session.send(.leave) }
        session.close()
        finish(.quit, status: Self.interruptedStatus)
    }

    private func finish(_ end: SessionEnd, status: Int32? = nil) {
        guard !isFinished else { return }
        isFinished = true
        tickTimer?.cancel()
        inputSource?.cancel()
        screen.restore()
        TerminalInputMode.restore()
        let code: Int32
        switch end {
        case .quit:
            code = status ?? 0
            if isTerminal { for line in lastResult { StandardStream.writeLine(line) } }
        case .cannotConnect(let error):
            code = 1
            StandardStream.writeErrorLine("pairs play: \(error)")
        case .bye, .gaveUp:
            code = 1
            if isTerminal { for line in lastResult { StandardStream.writeLine(line) } }
            StandardStream.writeErrorLine("pairs play: \(end)")
        }
        exitHandler?(code)
    }
}
