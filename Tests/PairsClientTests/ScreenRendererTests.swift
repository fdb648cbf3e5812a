@testable import PairsClient
import PairsRules
import PairsWire
import Testing

private let colors = TextStyle(usesEscapes: true, usesColor: true)
private let noColor = TextStyle(usesEscapes: true, usesColor: false)

/// Ann's screen in the middle of game 2: she took ant, bob took bee, cat is face up, her turn.
private func midGame() -> PlayModel {
    var model = PlayModel(endpoint: ServerEndpoint(host: "localhost", port: 7777))
    let now = Moment(milliseconds: 0)
    _ = model.apply(.ready(Welcome(server: "pairs test", session: "c1", hint: "")), at: now)
    _ = model.apply(.message(.joined(Joined(room: "kitchen", seat: .first, token: "t"))), at: now)
    let cards: [CardView] = [.matched(face: "ant", by: .first), .down, .matched(face: "bee", by: .second), .up(face: "cat"),
                             .down, .matched(face: "ant", by: .first), .matched(face: "bee", by: .second), .down]
    let state = makeState(game: 2, seq: 9, cards: cards, scores: [1, 1], turnMillisecondsLeft: 27_000,
                          series: SeriesTally(wins: [1, 0], draws: 0), event: .flip(.first, card: 3))
    _ = model.apply(.message(stateMessage(state)), at: now)
    _ = model.apply(.message(.chat(ChatMessage(room: "kitchen", from: "bob", seat: .second, text: "hurry up"))), at: now)
    return model
}

@Test("the screen shows the room, both names and scores, whose turn with the clock, the board, events and chat")
func screenShowsTheGame() {
    let lines = ScreenRenderer(style: colors, rows: 40, columns: 100).render(midGame(), at: Moment(milliseconds: 2_000)).map(visible)
    let screen = lines.joined(separator: "\n")
    #expect(lines[0].contains("room kitchen") && lines[0].contains("game 2") && lines[0].contains("connected to localhost:7777"))
    #expect(screen.contains("ann¹ (you) 1"))
    #expect(screen.contains("bob² 1"))
    #expect(screen.contains("series: ann 1, bob 0, draws 0"))
    #expect(screen.contains("▶ YOUR TURN: pick the second card   0:25 left"))
    #expect(screen.contains(" 0 ant¹   1 ···    2 bee²   3 [cat]"))
    #expect(screen.contains(" 4 ···    5 ant¹   6 bee²   7 ···"))
    #expect(screen.contains("you flipped 3: cat"))
    #expect(screen.contains("bob²: hurry up"))
    #expect(screen.contains("card number + Enter · /say TEXT"))
}

@Test("matched cards show who took them by color and by a mark that survives without color")
func matchedCardsAreMarked() {
    let colored = ScreenRenderer(style: colors).render(midGame(), at: Moment(milliseconds: 0)).joined(separator: "\n")
    #expect(colored.contains("\u{1B}[36mant¹\u{1B}[0m"))
    #expect(colored.contains("\u{1B}[35mbee²\u{1B}[0m"))
    let monochrome = ScreenRenderer(style: noColor).render(midGame(), at: Moment(milliseconds: 0)).joined(separator: "\n")
    #expect(monochrome.contains("ant¹") && monochrome.contains("bee²"))
    #expect(monochrome.contains("YOUR TURN"))
    // NO_COLOR: attributes such as bold and reverse remain, colors (30-37) do not.
    for code in 30...37 { #expect(!monochrome.contains("\u{1B}[\(code)m") && !monochrome.contains(";\(code)m")) }
    let plain = ScreenRenderer(style: .plain).render(midGame(), at: Moment(milliseconds: 0)).joined(separator: "\n")
    #expect(!plain.contains("\u{1B}"))
}

@Test("the opponent's turn, a reveal, a finished game and a lost connection each read differently")
func statusLines() {
    var model = midGame()
    let now = Moment(milliseconds: 0)
    // Ann's mismatch on show: her turn still, but nothing to pick until the cards turn back.
    let mismatch: [CardView] = [.matched(face: "ant", by: .first), .up(face: "dog"), .matched(face: "bee", by: .second), .up(face: "cat"),
                                .down, .matched(face: "ant", by: .first), .matched(face: "bee", by: .second), .down]
    _ = model.apply(.message(stateMessage(makeState(game: 2, seq: 10, cards: mismatch, scores: [1, 1], turnMillisecondsLeft: 20_000,
                                                    event: .mismatch(.first, cards: [3, 1], points: 0)))), at: now)
    let reveal = ScreenRenderer(style: .plain).render(model, at: now).joined(separator: "\n")
    #expect(reveal.contains("no match: the cards turn back"))
    #expect(!reveal.contains("YOUR TURN"), "\(reveal)")
    _ = model.apply(.message(stateMessage(makeState(game: 2, seq: 11, turn: .second, turnMillisecondsLeft: 4_000, event: .hide(cards: [1, 3])))), at: now)
    var screen = ScreenRenderer(style: .plain).render(model, at: now).joined(separator: "\n")
    #expect(screen.contains("bob's turn   0:04 left"))
    #expect(!screen.contains("YOUR TURN"))
    _ = model.apply(.message(stateMessage(makeState(game: 2, seq: 12, phase: .over, turn: nil, outcome: .draw, event: .over(.second, cards: [0, 1], points: 1)))), at: now)
    screen = ScreenRenderer(style: .plain).render(model, at: now).joined(separator: "\n")
    #expect(screen.contains("GAME OVER: a draw, 0 to 0 · /rematch to play again"))
    _ = model.apply(.connectionLost(.failed("Connection reset by peer")), at: now)
    _ = model.apply(.reconnecting(attempt: 2, delayMilliseconds: 500), at: now)
    screen = ScreenRenderer(style: .plain).render(model, at: now).joined(separator: "\n")
    #expect(screen.contains("connection lost, reconnecting (attempt 2)…"))
}

@Test("a short terminal gets fewer event and chat lines, never a screen taller than itself")
func screenFitsTheTerminal() {
    for rows in [16, 20, 24, 40] {
        let lines = ScreenRenderer(style: .plain, rows: rows, columns: 80).render(midGame(), at: Moment(milliseconds: 0))
        #expect(lines.count + 2 <= max(rows, 17), "\(lines.count) lines on a \(rows)-row terminal")
    }
}

@Test("the largest board fits an 80-column terminal")
func largestBoardFits() {
    let state = makeState(cards: Array(repeating: .matched(face: "ant", by: .second), count: 64))
    let rows = ScreenRenderer(style: .plain).board(state)
    #expect(rows.count == 8)
    #expect(rows.allSatisfy { $0.count <= 80 })
}
