import PairsRules
import PairsWire

/// A finished game as `pairs play` would have shown it to a spectator, state by state: what `pairs replay`
/// steps through and narrates.
///
/// The game is played again from its deal and moves with the real rules (`GameReplay.timedStates()`), and
/// every state goes through the same `PlayModel` a spectator's screen is drawn from, so the replay looks
/// and reads like the game did, and `ScreenRenderer` draws it unchanged.
public struct ReplayTimeline: Sendable {
    /// One state of the game, with what the screen knew then.
    public struct Step: Sendable {
        /// When the game reached the state: milliseconds from its first state.
        public var moment: Moment
        /// The spectator's model with every state up to this one taken in.
        public var model: PlayModel
        /// What this state added to the story, as `pairs play` tells it.
        public var lines: [TranscriptLine]
    }

    public let replay: GameReplay
    public let steps: [Step]
    /// The first step worth showing: the game's start (or its peek), after the seats were taken.
    public let firstShown: Int

    /// Plays `replay` again; `endpoint` is the server it came from.
    public init(_ replay: GameReplay, from endpoint: ServerEndpoint) throws(GameReplay.ReplayError) {
        self.replay = replay
        let rules = replay.summary.rules
        var model = PlayModel(endpoint: endpoint)
        let start = Moment(milliseconds: 0)
        _ = model.apply(.message(.joined(Joined(room: replay.summary.room, seat: nil, token: nil, rules: rules))), at: start)
        var steps: [Step] = []
        for timed in try replay.timedStates() {
            let message = StateMessage(room: replay.summary.room, spectators: 0, state: timed.state, rules: rules)
            let lines = model.apply(.message(.state(message)), at: timed.moment)
            steps.append(Step(moment: timed.moment, model: model, lines: lines))
        }
        self.steps = steps
        firstShown = steps.firstIndex { $0.model.state?.phase != .waiting } ?? max(0, steps.count - 1)
    }

    /// What the replay is of, in a line: "game 12, room kitchen, 2026-11-23 13:54: ann 2 - 0 bob, ann won".
    public var title: String {
        let game = replay.summary
        var parts = ["game \(game.game)", "room \(game.room)", FinishedGameWords.when(game.started)]
        let rules = FinishedGameWords.rules(of: game)
        if !rules.isEmpty { parts.append(rules) }
        return parts.joined(separator: ", ") + ": \(FinishedGameWords.players(of: game)), \(FinishedGameWords.result(of: game))"
    }

    /// The lines `pairs play` prints for step `index` when its output is not a terminal.
    public func printedLines(at index: Int) -> [String] {
        PlainTranscript.render(steps[index].lines, model: steps[index].model)
    }

    /// The board the game ended on, as a plain line: `board: 0=ape¹ 1=ape¹ 2=ant² 3=ant²`.
    public var finalBoard: String? {
        steps.last?.model.state.map(PlainTranscript.board)
    }
}
