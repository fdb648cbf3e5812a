import PairsPolling
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsClient
import PairsWire

/// `pairs replay GAME`: asks a server for a finished game and shows it again, move by move, with the game
/// screen of `pairs play`; or, when the output is not a terminal, tells it in plain lines.
enum ReplayCommand {
    /// The speeds `--speed` takes, in times the game's own pace: from a hundredth (a slow study of a fast
    /// game) to a thousand (a long game in seconds).
    static let speedRange = 0.01...1000.0

    static let usage = """
    usage: pairs replay GAME [options]

    \(QueryCommand.serverUsage)
      --speed X       play the game by itself at X times its own pace: 1 as fast as it was played, 2 twice
                      as fast, 0.5 half (\(speedRange.lowerBound) to \(Int(speedRange.upperBound)); default: one step per key)
      --json          print the server's answer lines as they came (one JSON object a line), for scripts

    GAME is a game's number, as pairs history lists it. On a terminal the game is drawn with the screen
    of pairs play, one state at a time: space or Enter steps forward, b steps back, g and G go to the
    start and the end, q quits (the keys work with --speed too). When the output is not a terminal, the
    game is told in plain lines as pairs play prints them, ending with the board it ended on.
    Exits 1 if the server cannot be asked or has no such game, 2 on a bad option.
    """

    struct Options {
        var endpoint: ServerEndpoint
        var game: Int64
        var speed: Double?
        var json: Bool
    }

    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        let options: Options
        switch invocation(of: "replay", arguments, usage: usage, parse: parse) {
        case .exit(let status): return status
        case .run(let parsed): options = parsed
        }
        let answer: ServerQuery.Answer
        switch QueryCommand.ask("replay", .replay(game: options.game), at: options.endpoint) {
        case .failure(let status): return status.code
        case .success(let success): answer = success
        }
        if options.json {
            QueryCommand.printLines(of: answer)
            return 0
        }
        guard case .replay(let replay) = answer.message else { return 1 }
        let timeline: ReplayTimeline
        do {
            timeline = try ReplayTimeline(replay, from: options.endpoint)
        } catch {
            printError("pairs replay: game \(options.game) cannot be played again by this client's rules (\(error))")
            return 1
        }
        switch PlayController.standardDisplay(environment: environment) {
        case .plain:
            tell(timeline, speed: options.speed)
            return 0
        case .terminal(let style):
            // Dispatch's threads, the only ones so far, block every signal: holding them now loses none.
            let signals = SignalWatcher(ReplayViewer.heldSignals)
            let viewer = ReplayViewer(timeline: timeline, speed: options.speed, style: style, signals: signals)
            viewer.start { status in exit(status) }
            // The viewer's handlers refer to it without owning it; this keeps it for the life of the process.
            withExtendedLifetime(viewer) { dispatchMain() }
        }
    }

    /// The game in plain lines, at `speed` times its pace if given, else at once.
    static func tell(_ timeline: ReplayTimeline, speed: Double?) {
        StandardStream.writeLine("replay of \(timeline.title)")
        for index in timeline.steps.indices {
            if let speed, index > 0 {
                let gap = timeline.steps[index - 1].moment.milliseconds(until: timeline.steps[index].moment)
                usleep(useconds_t(min(Double(UInt32.max), Double(max(0, gap)) * 1000 / speed)))
            }
            for line in timeline.printedLines(at: index) { StandardStream.writeLine(line) }
        }
        if let board = timeline.finalBoard { StandardStream.writeLine(board) }
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let (raw, rest) = try QueryCommand.positional(arguments, what: "game", valueFlags: QueryCommand.serverFlags.union(["speed"]))
        let flags = try Flags(rest, known: QueryCommand.serverFlags.union(["speed"]), switches: ["json"])
        guard let game = Int64(raw), game >= 1 else { throw UsageError("a game is given by its number (pairs history lists them), not '\(raw)'") }
        var speed: Double?
        if let text = flags.string("speed") {
            guard let value = Double(text), speedRange.contains(value) else {
                throw UsageError("--speed must be a number from \(speedRange.lowerBound) to \(Int(speedRange.upperBound)), not '\(text)'")
            }
            speed = value
        }
        return Options(endpoint: try flags.endpoint(), game: game, speed: speed, json: flags.isSet("json"))
    }
}
