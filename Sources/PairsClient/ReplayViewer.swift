import PairsPolling
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsRules

/// `pairs replay` on a terminal: a finished game drawn state by state with the game screen of `pairs play`.
/// Space or Enter steps forward, `b` steps back, `q` quits (see `ReplayKeys` for the rest). With a speed,
/// the game plays on by itself at that many times its own pace, and the keys still work; it stops on the
/// last state.
///
/// Keys are read as they are pressed (`TerminalInputMode.keys`), and the terminal is put back on every way
/// out: `q`, the end of input, Ctrl-C, SIGTERM, SIGHUP.
///
/// Confinement: the viewer lives on the main queue, like the terminal and the signals it answers. That is
/// the `@unchecked Sendable` promise.
public final class ReplayViewer: @unchecked Sendable {
    /// Exit status when stopped by a signal (128 + SIGINT, as shells report it).
    static let interruptedStatus: Int32 = 130
    /// Bytes read from standard input at a time: a few keys.
    static let inputChunkBytes = 64

    public let timeline: ReplayTimeline
    /// How many times the game's own pace it plays at by itself; nil waits for keys.
    public let speed: Double?
    private let queue = DispatchQueue.main
    private var renderer: ScreenRenderer
    private let screen = TerminalScreen()
    private var keys = ReplayKeys()
    private var index: Int
    private var inputSource: DispatchSourceRead?
    private let signals: SignalWatcher
    private var nextStep: DispatchWorkItem?
    private var exitHandler: ((Int32) -> Void)?
    private var isFinished = false

    /// The signals to hold for a viewer (`SignalWatcher`), before making it.
    public static let heldSignals = TerminalSignals.all

    public init(timeline: ReplayTimeline, speed: Double?, style: TextStyle, signals: SignalWatcher) {
        self.signals = signals
        self.timeline = timeline
        self.speed = speed
        self.index = timeline.firstShown
        let size = TerminalScreen.size()
        renderer = ScreenRenderer(style: style, rows: size.rows, columns: size.columns)
        screen.prompt = ""
    }

    /// Shows the game. Call on the main queue, then run it (`dispatchMain()`); `exit` gets the exit status.
    public func start(exit: @escaping (Int32) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        exitHandler = exit
        TerminalSignals.install(
            signals, on: queue, stop: { [unowned self] in finish(status: Self.interruptedStatus) },
            suspend: (leave: { [unowned self] in
                screen.restore()
                TerminalInputMode.restore()
            }, resume: { [unowned self] in
                TerminalInputMode.keys.enter()
                screen.enter()
                draw()
            }),
            resize: { [unowned self] in
                let size = TerminalScreen.size()
                renderer.rows = size.rows
                renderer.columns = size.columns
                draw()
            })
        TerminalInputMode.keys.enter()
        screen.enter()
        let source = DispatchSource.makeReadSource(fileDescriptor: 0, queue: queue)
        source.setEventHandler { [unowned self] in readKeys() }
        source.activate()
        inputSource = source
        show(index)
    }

    private func show(_ step: Int) {
        index = min(max(step, timeline.firstShown), timeline.steps.count - 1)
        draw()
        schedulePlayback()
    }

    private func draw() {
        let step = timeline.steps[index]
        let shown = index - timeline.firstShown + 1
        let total = timeline.steps.count - timeline.firstShown
        var status = "replay of game \(timeline.replay.summary.game) · step \(shown) of \(total) · "
            + Narrator.clock(milliseconds: Int(step.moment.milliseconds))
        if let speed { status += index + 1 < timeline.steps.count ? " · playing at \(Self.describe(speed))x" : " · the end" }
        renderer.labels = ScreenLabels(status: status, hint: "space/Enter: next · b: back · g/G: start/end · q: quit")
        screen.draw(renderer.render(step.model, at: step.moment), full: true)
    }

    /// With a speed, the next state comes after the time it took in the game, divided by the speed.
    private func schedulePlayback() {
        nextStep?.cancel()
        nextStep = nil
        guard let speed, index + 1 < timeline.steps.count else { return }
        let gap = timeline.steps[index].moment.milliseconds(until: timeline.steps[index + 1].moment)
        let item = DispatchWorkItem { [unowned self] in show(index + 1) }
        nextStep = item
        queue.asyncAfter(deadline: .now() + .milliseconds(Int(Double(max(0, gap)) / speed)), execute: item)
    }

    private func readKeys() {
        var buffer = [UInt8](repeating: 0, count: Self.inputChunkBytes)
        let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR || errno == EAGAIN { return }
        guard count > 0 else {
            // The end of input: a replay playing by itself goes on; one waiting for keys has nothing to wait for.
            inputSource?.cancel()
            inputSource = nil
            if speed == nil { finish(status: 0) }
            return
        }
        for key in keys.take(buffer[..<count]) {
            switch key {
            case .forward: show(index + 1)
            case .back: show(index - 1)
            case .first: show(timeline.firstShown)
            case .last: show(timeline.steps.count - 1)
            case .quit: return finish(status: 0)
            }
        }
    }

    private func finish(status: Int32) {
        guard !isFinished else { return }
        isFinished = true
        nextStep?.cancel()
        inputSource?.cancel()
        screen.restore()
        TerminalInputMode.restore()
        StandardStream.writeLine("replay of \(timeline.title)")
        exitHandler?(status)
    }

    /// "2", "0.5": a speed as typed.
    static func describe(_ speed: Double) -> String {
        speed == speed.rounded() ? String(Int(speed)) : String(speed)
    }
}
