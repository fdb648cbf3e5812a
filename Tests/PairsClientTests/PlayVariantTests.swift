@testable import PairsClient
import PairsRules
import PairsWire
import Testing

// How `pairs play` tells and draws the variants: Matchismo's points, sets of three, playing cards, solo
// games against the clock, the peek, and a room whose rules are not the ones asked for.

private func rules(seats: SeatCount = .two, size: SetSize = .pair, deck: Deck = .words, scoring: Scoring = .classic,
                   gameSeconds: Int = 0, peekMilliseconds: Int = 0) -> RuleSet {
    RuleSet(variant: Variant(seats: seats, setSize: size, deck: deck, scoring: scoring, gameSeconds: gameSeconds,
                             peekMilliseconds: peekMilliseconds),
            pairs: 3, turnSeconds: 30, revealMilliseconds: 1000, againOnMatch: true)
}

private let matchismoCards = rules(deck: .cards, scoring: .matchismo(.standard))
private let soloClock = rules(seats: .one, gameSeconds: 60)

/// Ann's model in seat `seat` of room kitchen, of `rules`, after `states` (each at its moment, in ms).
private func play(_ rules: RuleSet, _ states: [(at: Int64, state: WireState)], seat: Seat? = .first,
                  asked: RuleChoices = RuleChoices()) -> (PlayModel, [TranscriptLine]) {
    var model = PlayModel(endpoint: ServerEndpoint(host: "localhost", port: 7777), askedRules: asked)
    let start = Moment(milliseconds: 0)
    var lines = model.apply(.ready(Welcome(server: "pairs test", session: "c1", hint: "")), at: start)
    lines += model.apply(.message(.joined(Joined(room: "kitchen", seat: seat, token: "t", rules: rules))), at: start)
    for (at, state) in states { lines += model.apply(.message(stateMessage(state, rules: rules)), at: Moment(milliseconds: at)) }
    return (model, lines)
}

@Test("Matchismo turns are told with their points: rank or suit match, the set's value times the bonus, the flips, a mismatch's cost")
func matchismoPointsAreTold() {
    var cards: [CardView] = Array(repeating: .down, count: 6)
    cards[1] = .up(face: "K♠")
    let flip = makeState(seq: 4, cards: cards, scores: [0, -1], turn: .second, event: .flip(.second, card: 1), rules: matchismoCards)
    cards[1] = .matched(face: "K♠", by: .second)
    cards[3] = .matched(face: "K♥", by: .second)
    let rank = makeState(seq: 5, cards: cards, scores: [0, 14], turn: .second, event: .match(.second, cards: [1, 3], points: 14),
                         rules: matchismoCards)
    var missed = cards
    missed[0] = .up(face: "3♠")
    missed[5] = .up(face: "9♥")
    let mismatch = makeState(seq: 7, phase: .reveal, cards: missed, scores: [-4, 14], turn: .first,
                             event: .mismatch(.first, cards: [0, 5], points: -4), rules: matchismoCards)
    var suited = cards
    suited[0] = .matched(face: "3♠", by: .first)
    suited[2] = .matched(face: "7♠", by: .first)
    let suit = makeState(seq: 9, cards: suited, scores: [-2, 14], event: .match(.first, cards: [2, 0], points: 2), rules: matchismoCards)
    let (_, lines) = play(matchismoCards, [(0, makeState(seq: 3, rules: matchismoCards)), (0, flip), (0, rank), (0, mismatch), (0, suit)])
    let told = lines.map(\.description)
    #expect(told.contains("bob flipped 1: K♠"))
    #expect(told.contains("bob scored +14: rank match K♠ K♥, 16 less 2 for the flips"))
    #expect(told.contains("you scored -4: no match 3♠ 9♥, 2 for the flips and 2 for the mismatch"))
    #expect(told.contains("you scored +2: suit match 7♠ 3♠, 4 less 2 for the flips"))
}

@Test("sets of three and classic scoring with playing cards are told by what matched; a timeout says which cards turned back")
func triplesAndCardsAreTold() {
    let triples = rules(size: .triple)
    var cards: [CardView] = Array(repeating: .down, count: 9)
    for card in [0, 4, 8] { cards[card] = .matched(face: "cat", by: .first) }
    let match = makeState(seq: 5, cards: cards, scores: [1, 0], event: .match(.first, cards: [0, 4, 8], points: 1), rules: triples)
    let timeout = makeState(seq: 6, cards: cards, scores: [1, 0], turn: .second, event: .timeout(.first, hidden: [1, 3]), rules: triples)
    let (_, tripleLines) = play(triples, [(0, makeState(seq: 3, cards: Array(repeating: .down, count: 9), rules: triples)), (0, match), (0, timeout)])
    #expect(tripleLines.map(\.description).contains("you flipped 8: cat"))
    #expect(tripleLines.map(\.description).contains("you found a triple (cat)"))
    #expect(tripleLines.map(\.description).contains("you ran out of time; cards 1 and 3 turned back"))

    let playingCards = rules(deck: .cards)
    var dealt: [CardView] = Array(repeating: .down, count: 6)
    dealt[2] = .matched(face: "3♠", by: .second)
    dealt[4] = .matched(face: "7♠", by: .second)
    let suit = makeState(seq: 5, cards: dealt, scores: [0, 1], turn: .second, event: .match(.second, cards: [2, 4], points: 1),
                         rules: playingCards)
    let (_, cardLines) = play(playingCards, [(0, makeState(seq: 3, rules: playingCards)), (0, suit)])
    #expect(cardLines.map(\.description).contains("bob found a pair (suit match 3♠ 7♠)"))
}

@Test("a solo game against the clock is told in words: the goal, the time it took to clear, or time's up")
func soloGamesAreTold() {
    let solo: [String?] = ["ann"]
    let start = makeState(seq: 2, names: solo, scores: [0], gameMillisecondsLeft: 60_000, event: .start(turn: .first), rules: soloClock)
    var cleared: [CardView] = Array(repeating: .matched(face: "ant", by: .first), count: 6)
    cleared[2] = .matched(face: "bee", by: .first)
    cleared[3] = .matched(face: "bee", by: .first)
    let won = makeState(seq: 20, phase: .over, cards: cleared, names: solo, scores: [3], turn: nil, outcome: .win(.first),
                        series: SeriesTally(wins: [1]), event: .over(.first, cards: [0, 1], points: 1), rules: soloClock)
    let (model, lines) = play(soloClock, [(1_000, start), (42_000, won)])
    let told = lines.map(\.description)
    #expect(told.contains("game 1 started: you clear the board within 1:00"))
    #expect(told.contains("you found the last pair (ant)"))
    #expect(told.contains("game over: you cleared the board in 0:41 with 3 points"))
    #expect(told.contains("cleared 1 of 1"))
    #expect(GameRecord(number: 1, state: won, seat: .first)?.description == "game 1: ann cleared the board, 3 points (won)")
    let screen = ScreenRenderer(style: .plain).render(model, at: Moment(milliseconds: 42_000)).joined(separator: "\n")
    #expect(screen.contains("GAME OVER: you cleared the board in 0:41 with 3 points"))

    let timeUp = makeState(seq: 9, phase: .over, names: solo, scores: [1], turn: nil, outcome: .loss, event: .timeUp, rules: soloClock)
    let (_, lost) = play(soloClock, [(0, start), (60_000, timeUp)])
    #expect(lost.map(\.description).suffix(4).prefix(3) == ["time's up", "game over: time's up, you did not clear the board (1 point)", "cleared 0 of 1"])
    #expect(GameRecord(number: 1, state: timeUp, seat: .first)?.description
        == "game 1: ann did not clear the board, time's up, 1 point (lost)")
}

@Test("the solo screen has one player, the rules in the header, and both the turn clock and the game clock")
func soloScreen() {
    let start = makeState(seq: 2, names: ["ann"], scores: [0], turnMillisecondsLeft: 30_000, gameMillisecondsLeft: 60_000,
                          rules: soloClock)
    let (model, _) = play(soloClock, [(0, start)])
    let lines = ScreenRenderer(style: .plain, rows: 30, columns: 100).render(model, at: Moment(milliseconds: 2_500))
    #expect(lines[0].contains("room kitchen") && lines[0].contains("solo, 1:00 game clock"))
    #expect(lines[2] == "▶ ann¹ (you) 0    first game")
    #expect(lines[3] == "▶ YOUR TURN: pick a card   0:28 left in the turn   0:58 left in the game")
    // The classic game keeps its single clock as it was.
    let (classic, _) = play(.standard, [(0, makeState(seq: 3))])
    let classicLines = ScreenRenderer(style: .plain).render(classic, at: Moment(milliseconds: 2_500))
    #expect(classicLines[3] == "▶ YOUR TURN: pick a card   0:28 left")
    #expect(!classicLines[0].contains("solo"))
}

@Test("the peek is shown as it happens: every face up, with a countdown, and in plain output a board line")
func peekIsShown() {
    let peeking = rules(peekMilliseconds: 2_000)
    let faces = ["ant", "bee", "cat", "bee", "cat", "ant"]
    let peek = makeState(seq: 3, phase: .peek, cards: faces.map { .up(face: $0) }, turn: nil, turnMillisecondsLeft: nil,
                         event: .peek, rules: peeking)
    let (model, lines) = play(peeking, [(1_000, peek)])
    #expect(lines.map(\.description).contains("game 1: every card is face up for 2 seconds: remember them"))
    #expect(PlainTranscript.render(lines, model: model).suffix(2) == [
        "game 1: every card is face up for 2 seconds: remember them",
        "board: 0=[ant] 1=[bee] 2=[cat] 3=[bee] 4=[cat] 5=[ant]",
    ])
    let screen = ScreenRenderer(style: .plain).render(model, at: Moment(milliseconds: 1_700))
    #expect(screen.contains("  every card is face up: 0:02 left: remember them"))
    #expect(screen.contains(" 0 ant    1 bee    2 cat  "))
    #expect(model.peekMillisecondsLeft(at: Moment(milliseconds: 2_500)) == 500)
    #expect(model.refusal(toFlip: 0) == "wait: every card is on show until play starts")
}

@Test("joining a room that plays other rules than asked says which, and which flags were ignored; the same rules say nothing")
func otherRulesAreWarned() {
    var asked = RuleChoices()
    asked.setSize = .pair
    let (_, lines) = play(rules(size: .triple), [], asked: asked)
    #expect(lines.map(\.description).contains("room kitchen plays other rules: 3-card sets; your --match 2 was ignored"))

    // A room of the classic game sends no rules: what makes another game is told apart all the same.
    var solo = RuleChoices()
    solo.seats = .one
    solo.deck = .cards
    solo.pairs = 5
    let (model, classicLines) = play(.standard, [], asked: solo)
    #expect(classicLines.map(\.description).contains("room kitchen plays other rules: two players, words; your --solo --deck cards were ignored"))
    #expect(model.notice == ["room kitchen plays other rules: two players, words; your --solo --deck cards were ignored"])

    var same = RuleChoices(matchismoCards)
    same.turnSeconds = 30
    let (_, quiet) = play(matchismoCards, [], asked: same)
    #expect(!quiet.contains { $0.text.contains("other rules") })
    var differentCosts = RuleChoices()
    differentCosts.scoring = .matchismo
    differentCosts.flipCost = 3
    let (_, costs) = play(matchismoCards, [], asked: differentCosts)
    #expect(costs.map(\.description).contains("room kitchen plays other rules: flips cost 1; your --flip-cost 3 was ignored"))
}

@Test("playing cards are drawn with their suit, red for hearts and diamonds where color is on, in cells as wide as a word's")
func playingCardsAreDrawn() {
    // Five cards make one row.
    let cards: [CardView] = [.up(face: "10♥"), .down, .matched(face: "A♠", by: .first), .matched(face: "K♦", by: .second), .down]
    let words: [CardView] = [.up(face: "cat"), .down, .matched(face: "ant", by: .first), .matched(face: "bee", by: .second), .down]
    let plain = ScreenRenderer(style: .plain)
    let cardRow = plain.board(makeState(cards: cards, rules: rules(deck: .cards)))
    let wordRow = plain.board(makeState(cards: words))
    #expect(cardRow == [" 0 [10♥]  1 ···    2 A♠¹    3 K♦²    4 ···  "])
    #expect(wordRow == [" 0 [cat]  1 ···    2 ant¹   3 bee²   4 ···  "])
    // Every cell starts in the same column whatever the faces.
    #expect(cardRow[0].count == wordRow[0].count)
    for label in ["1 ", "2 ", "3 ", "4 "] {
        #expect(cardRow[0].range(of: label).map { cardRow[0].distance(from: cardRow[0].startIndex, to: $0.lowerBound) }
            == wordRow[0].range(of: label).map { wordRow[0].distance(from: wordRow[0].startIndex, to: $0.lowerBound) })
    }
    let colored = ScreenRenderer(style: TextStyle(usesEscapes: true, usesColor: true)).board(makeState(cards: cards, rules: rules(deck: .cards)))
    #expect(colored[0].contains("\u{1B}[1;7;31m[10♥]\u{1B}[0m"))
    #expect(colored[0].contains("\u{1B}[31mK♦\u{1B}[0m\u{1B}[35m²\u{1B}[0m"))
    #expect(colored[0].contains("\u{1B}[36mA♠¹\u{1B}[0m"))
    #expect(visible(colored[0]) == cardRow[0])
    let noColor = ScreenRenderer(style: TextStyle(usesEscapes: true, usesColor: false)).board(makeState(cards: cards, rules: rules(deck: .cards)))
    #expect(!noColor[0].contains("31m") && visible(noColor[0]) == cardRow[0])
}
