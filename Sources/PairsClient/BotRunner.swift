import Dispatch
import PairsPolling
import PairsRules
import PairsWire

/// Runs a `BotMachine` against a server: feeds it what the `ClientSession` reports, carries out its
/// actions (sending, thinking, reporting), and finishes when the machine does or the session ends.
///
/// Confinement: everything runs on the runner's own serial queue; `start` and `stop` hop onto it.
public final class BotRunner: @unchecked Sendable {
    /// The shortest gap between two requests, in milliseconds. The server allows 40 messages a second per
    /// connection (`pairs serve --rate-limit`); a bot that thinks for 0 ms would otherwise answer every
    /// state at once and be rate limited, then cut off. 30 ms keeps it at 33 a second, under the limit.
    public static let minimumSendIntervalMilliseconds = 30

    /// How a run ended.
    public struct Outcome: Sendable, Hashable {
        /// Every game finished, in order.
        public var records: [GameRecord]
        /// Why the bot stopped before its games were done; nil when it finished them (or was stopped).
        public var failure: String?
    }

    public let configuration: BotConfiguration
    private let queue = DispatchQueue(label: "pairs.bot")
    private let output: @Sendable (String) -> Void
    private let diagnostics: @Sendable (String) -> Void
    private var session: ClientSession?
    private var machine: BotMachine
    private var outbox: [ClientMessage] = []
    private var lastSendAt: Moment?
    private var isDrainScheduled = false
    private var finish: BotFinish?
    private var records: [GameRecord] = []
    private var completion: (@Sendable (Outcome) -> Void)?
    /// Says when the room the bot sat down in plays other rules than it asked for.
    private var rulesCheck: AskedRulesCheck

    /// A runner that prints game lines with `output` and connection trouble with `diagnostics`.
    public init(configuration: BotConfiguration, output: @escaping @Sendable (String) -> Void,
                diagnostics: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.output = output
        self.diagnostics = diagnostics
        self.machine = BotMachine(configuration: configuration)
        self.rulesCheck = AskedRulesCheck(asked: configuration.rules)
    }

    /// Connects and plays; `completion` is called once, on the runner's queue, when the run is over.
    public func start(completion: @escaping @Sendable (Outcome) -> Void) {
        queue.async { [self] in
            self.completion = completion
            let session = ClientSession(endpoint: configuration.endpoint, name: configuration.name,
                                        password: configuration.password, queue: queue)
            session.onEvent = { [unowned self] event in handle(event) }
            self.session = session
            session.start()
        }
    }

    /// Plays until done and returns how it went. Blocks the calling thread, which must not be the main
    /// queue's if anything else needs the main queue meanwhile.
    public func run() -> Outcome {
        let done = DispatchSemaphore(value: 0)
        let box = OutcomeBox()
        start { outcome in
            box.outcome = outcome
            done.signal()
        }
        done.wait()
        return box.outcome ?? Outcome(records: [], failure: "stopped")
    }

    /// Leaves the room and disconnects; the run completes without a failure.
    public func stop() {
        queue.async { [self] in
            guard finish == nil else { return }
            finish = .done
            session?.send(.leave)
            session?.quit()
        }
    }

    // MARK: Session events

    private func handle(_ event: SessionEvent) {
        switch event {
        case .ready:
            feed(.ready)
        case .nameRefused(let error):
            // Nobody is there to type a password: the bot stops with the server's words.
            var dialog = PasswordDialog(name: configuration.name, canAsk: false)
            if case .giveUp(let reason) = dialog.next(after: error) { finish = .failed(reason) }
            session?.quit()
        case .message(let message):
            switch message {
            case .error(let error) where error.code == .rateLimited:
                diagnostics("the server is rate limiting this bot: \(error.message)")
            case .joined(let joined):
                if let warning = rulesCheck.joined(joined) { diagnostics(warning) }
            case .state(let state):
                if let warning = rulesCheck.state(state) { diagnostics(warning) }
            default:
                break
            }
            feed(.message(message))
        case .unreadableLine(let reason):
            diagnostics("ignored a line from the server: \(reason)")
        case .skippedUnknown(let part):
            diagnostics("ignored parts of the server's messages it does not know (first: \(part))")
        case .connectionLost(let end):
            diagnostics("\(end); reconnecting")
            outbox.removeAll()
            feed(.connectionLost)
        case .reconnecting:
            break
        case .reconnected:
            diagnostics("reconnected")
            feed(.reconnected)
        case .seatLost(let error):
            diagnostics("could not get the seat back (\(error.message)); joining again")
            feed(.seatLost)
        case .ended(let end):
            complete(end)
        }
    }

    private func complete(_ end: SessionEnd) {
        let failure: String?
        switch (finish, end) {
        case (.done?, _): failure = nil
        case (.failed(let reason)?, _): failure = reason
        case (nil, let end): failure = "\(end)"
        }
        completion?(Outcome(records: records, failure: failure))
        completion = nil
    }

    // MARK: Machine actions

    private func feed(_ input: BotInput) {
        for action in machine.handle(input) {
            perform(action)
        }
    }

    private func perform(_ action: BotAction) {
        switch action {
        case .send(let message):
            outbox.append(message)
            drain()
        case .think(let seq):
            let delay = configuration.thinkMilliseconds
            queue.asyncAfter(deadline: .now() + .milliseconds(delay)) { [self] in
                feed(.thoughtElapsed(aboutState: seq))
            }
        case .report(let record):
            records.append(record)
            output(record.description)
        case .finish(let finish):
            self.finish = finish
            drain()
        }
    }

    /// Sends what is queued, no faster than the minimum interval; once everything is out and the machine
    /// has finished, says goodbye.
    private func drain() {
        guard !isDrainScheduled, let session else { return }
        while let message = outbox.first {
            let now = MonotonicClock.now()
            if let last = lastSendAt {
                let wait = Self.minimumSendIntervalMilliseconds - Int(last.milliseconds(until: now))
                if wait > 0 {
                    isDrainScheduled = true
                    queue.asyncAfter(deadline: .now() + .milliseconds(wait)) { [self] in
                        isDrainScheduled = false
                        drain()
                    }
                    return
                }
            }
            outbox.removeFirst()
            let id = session.send(message)
            lastSendAt = now
            feed(.sent(message, id: id))
        }
        if finish != nil { session.quit() }
    }
}

/// Carries the outcome from the runner's queue to the thread waiting in `run()`, which reads it only after
/// the semaphore says it was written.
private final class OutcomeBox: @unchecked Sendable {
    var outcome: BotRunner.Outcome?
}
