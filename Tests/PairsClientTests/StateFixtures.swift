import PairsRules
import PairsWire

/// States built by hand for the unit tests, shaped like the server's: with every field the rules' event
/// has.
func makeState(
    game: Int = 1, seq: Int = 1, phase: Phase = .playing, cards: [CardView] = Array(repeating: .down, count: 6),
    names: [String?] = ["ann", "bob"], scores: [Int] = [0, 0], turn: Seat? = .first,
    turnMillisecondsLeft: Int? = 30_000, gameMillisecondsLeft: Int? = nil, outcome: Outcome? = nil,
    series: SeriesTally? = nil, event: GameEvent = .start(turn: .first), rules: RuleSet = .standard
) -> WireState {
    WireState(PublicState(
        game: game, seq: seq, phase: phase, layout: BoardLayout(cardCount: cards.count), cards: cards,
        players: names.enumerated().map { index, name in
            name.map { PlayerView(name: $0, score: scores[index], connected: true) }
        },
        turn: turn, turnMillisecondsLeft: turnMillisecondsLeft, gameMillisecondsLeft: gameMillisecondsLeft, outcome: outcome,
        series: series ?? SeriesTally(seats: SeatCount(rawValue: names.count) ?? .two), event: event),
        rules: rules)
}

/// The state as a server message in room "kitchen" of `rules`, caused by request `id`.
func stateMessage(_ state: WireState, id: RequestID? = nil, rules: RuleSet = .standard) -> ServerMessage {
    .state(StateMessage(room: "kitchen", spectators: 0, state: state, rules: rules, id: id))
}

/// `text` without its escape sequences, as a person sees it on a monochrome terminal.
func visible(_ text: String) -> String {
    var result = ""
    var inEscape = false
    for character in text {
        if character == "\u{1B}" { inEscape = true; continue }
        if inEscape { if character.isLetter { inEscape = false }; continue }
        result.append(character)
    }
    return result
}
