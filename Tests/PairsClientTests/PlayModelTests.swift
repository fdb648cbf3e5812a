import PairsClient
import PairsRules
import PairsWire
import Testing

/// A model for ann in seat 0 of room kitchen, after `states`.
private func model(after states: [WireState], seat: Seat? = .first, at now: Moment = Moment(milliseconds: 0)) -> (PlayModel, [TranscriptLine]) {
    var model = PlayModel(endpoint: ServerEndpoint(host: "localhost", port: 7777))
    var lines = model.apply(.ready(Welcome(server: "pairs test", session: "c1", hint: "")), at: now)
    lines += model.apply(.message(.joined(Joined(room: "kitchen", seat: seat, token: seat == nil ? nil : "t"))), at: now)
    for state in states { lines += model.apply(.message(stateMessage(state)), at: now) }
    return (model, lines)
}

/// A game's start, then bob's flip and mismatch, the hide, and ann's match.
private func aTurnOfEach() -> [WireState] {
    var cards: [CardView] = Array(repeating: .down, count: 6)
    cards[1] = .up(face: "cat")
    let flip = makeState(seq: 4, cards: cards, turn: .second, event: .flip(.second, card: 1))
    var both = cards
    both[3] = .up(face: "dog")
    let mismatch = makeState(seq: 5, phase: .reveal, cards: both, turn: .second, event: .mismatch(.second, cards: [1, 3], points: 0))
    let hide = makeState(seq: 6, turn: .first, event: .hide(cards: [1, 3]))
    var taken = Array(repeating: CardView.down, count: 6)
    taken[0] = .matched(face: "ant", by: .first)
    taken[5] = .matched(face: "ant", by: .first)
    let match = makeState(seq: 7, cards: taken, scores: [1, 0], turn: .first, event: .match(.first, cards: [0, 5], points: 1))
    return [makeState(seq: 3), flip, mismatch, hide, match]
}

@Test("every move is told in words, with 'you' for the player and names for the others")
func movesAreToldInWords() {
    let (_, lines) = model(after: aTurnOfEach())
    #expect(lines.map(\.description) == [
        "connected to localhost:7777 (pairs test)",
        "game 1 started: you go first",
        "your turn",
        "bob flipped 1: cat",
        "bob flipped 3: dog",
        "no match (cat and dog)",
        "cards 1 and 3 turned back",
        "your turn",
        "you flipped 5: ant",
        "you found a pair (ant)",
        "your turn",
    ])
}

/// `state` as a server that leaves out everything protocol.md lets it sends it: an event of only its kind.
private func bare(_ state: WireState) -> WireState {
    state.describing(StateEvent(kind: state.event.kind))
}

@Test("moves are told from the board when events are only their kind: who from the turn and the takers, cards from what turned")
func movesAreToldFromTheBoard() {
    let states = aTurnOfEach()
    var unknown = bare(states[states.count - 1])
    unknown.seq += 1
    unknown.event.kind = .unknown("x_juggle")
    let (_, lines) = model(after: states.map(bare) + [unknown])
    #expect(lines.map(\.description) == [
        "connected to localhost:7777 (pairs test)",
        "game 1 started: you go first",
        "your turn",
        "bob flipped 1: cat",
        "no match (cat and dog)",
        "cards 1 and 3 turned back",
        "your turn",
        "you found a pair (ant)",
        "your turn",
    ])
}

@Test("a game ended by a forfeit is told from the outcome when the event does not say who forfeited")
func forfeitIsToldFromTheOutcome() {
    let forfeit = makeState(seq: 6, phase: .over, turn: nil, outcome: .win(.first), event: .forfeit(.second, .left))
    let (_, lines) = model(after: [makeState(seq: 3), bare(forfeit)])
    #expect(lines.map(\.description).suffix(4).first == "bob forfeited the game")
    #expect(lines.map(\.description).contains("game over: you win by forfeit, 0 to 0"))
    #expect(GameRecord(number: 1, state: bare(forfeit), seat: .first)?.forfeitedBy == "bob")
}

@Test("something the server sent that this client does not know is said in words")
func unknownPartsAreSaid() {
    var (model, _) = model(after: [makeState(seq: 3)])
    let lines = model.apply(.skippedUnknown(.eventKind("x_juggle")), at: Moment(milliseconds: 0))
    #expect(lines.map(\.description) == [#"ignored parts of the server's messages this client does not know (first: unknown event kind "x_juggle")"#])
}

@Test("the end of a game says who won by how much, the series, and what to type next")
func gameOverIsTold() {
    let over = makeState(seq: 20, phase: .over, cards: [.matched(face: "ant", by: .second), .matched(face: "ant", by: .second)],
                         scores: [0, 1], turn: nil, outcome: .win(.second), series: SeriesTally(wins: [0, 1]),
                         event: .over(.second, cards: [0, 1], points: 1))
    let (model, lines) = model(after: [over])
    #expect(lines.map(\.description).suffix(5) == [
        "bob flipped 1: ant",
        "bob found the last pair (ant)",
        "game over: bob wins 1 to 0",
        "series: ann 0, bob 1, draws 0",
        "type /rematch to play again, /leave or /quit",
    ])
    #expect(model.notice == ["type /rematch to play again, /leave or /quit"])
}

@Test("players coming, going, dropping and asking for rematches are told, a leaver by the name they had")
func comingsAndGoings() {
    let started = makeState(seq: 3)
    let away = makeState(seq: 4, event: .disconnect(.second))
    let back = makeState(seq: 5, event: .reconnect(.second))
    let forfeit = makeState(seq: 6, phase: .over, turn: nil, outcome: .win(.first), event: .forfeit(.second, .left))
    let left = makeState(seq: 7, phase: .waiting, names: ["ann", nil], turn: nil, event: .leave(.second))
    let (_, lines) = model(after: [started, away, back, forfeit, left])
    let told = lines.map(\.description)
    #expect(told.contains("bob lost the connection; the seat is kept for the server's grace period (60 s by default)"))
    #expect(told.contains("bob is back"))
    #expect(told.contains("bob forfeited the game"))
    #expect(told.contains("game over: you win by forfeit, 0 to 0"))
    #expect(told.contains("bob left"))
    #expect(told.last == "waiting for a new opponent to join room kitchen")
}

@Test("server errors and chat are shown in words, never as JSON")
func errorsAndChat() {
    var (model, _) = model(after: [makeState(seq: 3)])
    let error = model.apply(.message(.error(RequestError(.notYourTurn, "it is not your turn", id: .integer(4)))), at: Moment(milliseconds: 0))
    #expect(error.map(\.description) == ["error: it is not your turn"])
    #expect(model.notice == ["it is not your turn"] && model.noticeIsError)
    let full = model.apply(.message(.error(RequestError(.roomFull, "room kitchen is full; you can watch it"))), at: Moment(milliseconds: 0))
    #expect(full.map(\.text) == ["room kitchen is full; you can watch it (/watch ROOM)"])
    let chat = model.apply(.message(.chat(ChatMessage(room: "kitchen", from: "bob", seat: .second, text: "good luck"))), at: Moment(milliseconds: 0))
    #expect(chat.map(\.description) == ["bob says: good luck"])
    #expect(model.chat.last?.text == "good luck")
    let odd = model.apply(.unreadableLine(reason: "unknown message type: news"), at: Moment(milliseconds: 0))
    #expect(odd.map(\.description) == ["error: could not read a message from the server (unknown message type: news)"])
}

@Test("a flip the rules would refuse is refused before it is sent, saying why")
func flipsAreCheckedLocally() {
    var cards: [CardView] = Array(repeating: .down, count: 6)
    cards[1] = .up(face: "cat")
    cards[2] = .matched(face: "dog", by: .second)
    let (mine, _) = model(after: [makeState(seq: 4, cards: cards)])
    #expect(mine.refusal(toFlip: 0) == nil)
    #expect(mine.refusal(toFlip: 1) == "card 1 is already face up (cat)")
    #expect(mine.refusal(toFlip: 2) == "card 2 is already taken (dog)")
    #expect(mine.refusal(toFlip: 6) == "there is no card 6: the cards are 0 to 5")
    let (theirs, _) = model(after: [makeState(seq: 4, turn: .second)])
    #expect(theirs.refusal(toFlip: 0) == "it is bob's turn")
    let (over, _) = model(after: [makeState(seq: 9, phase: .over, turn: nil, outcome: .draw)])
    #expect(over.refusal(toFlip: 0) == "the game is over: type /rematch to play again")
    let (watching, _) = model(after: [makeState(seq: 4)], seat: nil)
    #expect(watching.refusal(toFlip: 0) == "you are watching: spectators cannot flip")
    #expect(PlayModel(endpoint: ServerEndpoint()).refusal(toFlip: 0) == "you are not in a room: type /join [ROOM] first")
}

@Test("the turn clock counts down locally from the server's figure and stops at zero")
func turnClockCountsDown() {
    let (model, _) = model(after: [makeState(seq: 3, turnMillisecondsLeft: 30_000)], at: Moment(milliseconds: 1_000))
    #expect(model.turnMillisecondsLeft(at: Moment(milliseconds: 1_000)) == 30_000)
    #expect(model.turnMillisecondsLeft(at: Moment(milliseconds: 13_500)) == 17_500)
    #expect(model.turnMillisecondsLeft(at: Moment(milliseconds: 99_000)) == 0)
}

@Test("a dropped connection, the reconnection and the seat coming back are each said once")
func reconnectionIsTold() {
    var (model, _) = model(after: [makeState(seq: 3)])
    let now = Moment(milliseconds: 0)
    var lines = model.apply(.connectionLost(.endOfStream), at: now)
    lines += model.apply(.reconnecting(attempt: 1, delayMilliseconds: 250), at: now)
    #expect(model.link == .reconnecting(attempt: 1))
    lines += model.apply(.reconnected, at: now)
    lines += model.apply(.message(.joined(Joined(room: "kitchen", seat: .first, token: "t2"))), at: now)
    #expect(lines.map(\.description) == [
        "connection lost: the server closed the connection; reconnecting",
        "reconnected",
        "back in room kitchen",
    ])
    #expect(model.link == .connected)
    let lost = model.apply(.seatLost(RequestError(.badToken, "that token is unknown, expired or already used")), at: now)
    #expect(lost.map(\.description) == ["your seat in room kitchen and game 1 are lost: the server restarted, or gave the seat away after its grace period",
                                        "type /join kitchen to play again, or /quit"])
    #expect(model.room == nil && model.seat == nil)
}

@Test("plain output adds a one-line board when the turn comes to the player")
func plainOutputShowsTheBoardOnYourTurn() {
    var cards: [CardView] = Array(repeating: .down, count: 6)
    cards[2] = .matched(face: "cat", by: .first)
    cards[4] = .matched(face: "cat", by: .first)
    cards[5] = .up(face: "dog")
    var (model, _) = model(after: [makeState(seq: 3)])
    let state = makeState(seq: 8, cards: cards, event: .match(.first, cards: [2, 4], points: 1))
    let lines = model.apply(.message(stateMessage(state)), at: Moment(milliseconds: 0))
    #expect(PlainTranscript.render(lines, model: model) == [
        "you flipped 4: cat", "you found a pair (cat)", "your turn", "board: 0 1 2=cat¹ 3 4=cat¹ 5=[dog]",
    ])
}

@Test("the player is warned when one more timeout would forfeit the game; a flip of theirs starts the count again")
func timeoutsAreWarned() {
    var (model, _) = model(after: [makeState(seq: 3)])
    let now = Moment(milliseconds: 0)
    func timeout(_ seq: Int, _ seat: Seat) -> [String] {
        model.apply(.message(stateMessage(makeState(seq: seq, turn: seat.opponent, event: .timeout(seat, hidden: [])))), at: now)
            .map(\.description)
    }
    #expect(!timeout(4, .first).contains { $0.contains("forfeits") })
    #expect(!timeout(5, .second).contains { $0.contains("forfeits") })
    #expect(timeout(6, .first).contains("you ran out of time 2 turns in a row: one more forfeits the game"))
    #expect(model.notice == ["you ran out of time 2 turns in a row: one more forfeits the game"])
    #expect(model.timeoutsInARow == 2)
    var cards = Array(repeating: CardView.down, count: 6)
    cards[0] = .up(face: "cat")
    _ = model.apply(.message(stateMessage(makeState(seq: 7, cards: cards, event: .flip(.first, card: 0)))), at: now)
    #expect(model.timeoutsInARow == 0)
    #expect(!timeout(8, .first).contains { $0.contains("forfeits") })
}

@Test("every turn of the player's that begins is counted once, for the bell; the opponent's are not")
func turnsBegunAreCounted() {
    var (model, _) = model(after: [makeState(seq: 3)])
    #expect(model.turnsBegun == 1)
    let now = Moment(milliseconds: 0)
    _ = model.apply(.message(stateMessage(makeState(seq: 4, turn: .second, event: .hide(cards: [0, 1])))), at: now)
    _ = model.apply(.message(stateMessage(makeState(seq: 5, turn: .first, event: .hide(cards: [2, 3])))), at: now)
    // A state that does not start a turn (the clock's tick, a chat) rings nothing.
    _ = model.apply(.message(stateMessage(makeState(seq: 6, turn: .first, event: .reconnect(.second)))), at: now)
    #expect(model.turnsBegun == 3)
}

@Test("an error made untrue by the next state is cleared; a notice stays; while disconnected, requests are refused in those words")
func staleErrorsAreCleared() {
    var (model, _) = model(after: [makeState(seq: 3, turn: .second)])
    let now = Moment(milliseconds: 0)
    model.show(["it is bob's turn"], isError: true, isAboutTheMoment: true)
    _ = model.apply(.message(stateMessage(makeState(seq: 4, turn: .second, event: .reconnect(.second)))), at: now)
    #expect(model.notice == ["it is bob's turn"])
    _ = model.apply(.message(stateMessage(makeState(seq: 5, turn: .first, event: .hide(cards: [0, 1])))), at: now)
    #expect(model.notice.isEmpty)
    // The server's refusals are about the moment too.
    _ = model.apply(.message(.error(RequestError(.notYourTurn, "it is not your turn", id: .integer(9)))), at: now)
    _ = model.apply(.message(stateMessage(makeState(seq: 6, turn: .second, event: .hide(cards: [0, 1])))), at: now)
    #expect(model.notice.isEmpty)
    // A notice, or an error about the typed line itself, stays until the next line.
    model.show(["type /rematch to play again"], isError: false)
    _ = model.apply(.message(stateMessage(makeState(seq: 7, turn: .first, event: .hide(cards: [0, 1])))), at: now)
    #expect(model.notice == ["type /rematch to play again"])
    model.show(["\"banana\" is not a command: type a card number to flip it, or /help"], isError: true)
    _ = model.apply(.message(stateMessage(makeState(seq: 8, turn: .second, event: .hide(cards: [0, 1])))), at: now)
    #expect(model.notice.count == 1)
    #expect(model.connectionRefusal == nil)
    model.show(["it is bob's turn"], isError: true, isAboutTheMoment: true)
    _ = model.apply(.connectionLost(.endOfStream), at: now)
    #expect(model.notice.isEmpty)
    #expect(model.connectionRefusal == "not connected: reconnecting… (/quit to give up)")
}

@Test("a classic room sends no rules, so the board and turn clock asked for are checked against its start")
func classicRoomIsCheckedAtTheStart() {
    var asked = RuleChoices()
    asked.pairs = 2
    asked.turnSeconds = 10
    var model = PlayModel(endpoint: ServerEndpoint(host: "localhost", port: 7777), askedRules: asked)
    let now = Moment(milliseconds: 0)
    _ = model.apply(.ready(Welcome(server: "pairs test", session: "c1", hint: "")), at: now)
    #expect(model.apply(.message(.joined(Joined(room: "kitchen", seat: .second, token: "t"))), at: now).isEmpty)
    let start = makeState(seq: 3, cards: Array(repeating: .down, count: 16), turnMillisecondsLeft: 30_000)
    let lines = model.apply(.message(stateMessage(start)), at: now).map(\.description)
    #expect(lines.contains("room kitchen plays other rules: 8 pairs, 30-second turns; your --pairs 2 --turn-seconds 10 were ignored"))
    // Only once, not at every start.
    let next = makeState(game: 2, seq: 30, cards: Array(repeating: .down, count: 16), turnMillisecondsLeft: 30_000)
    #expect(!model.apply(.message(stateMessage(next)), at: now).contains { $0.text.contains("other rules") })
}

@Test("the lobby's answers are told in words: the rooms, who is where, the server's counters")
func lobbyAnswersAreTold() throws {
    let list = RoomList(rooms: [
        RoomSummary(name: "den", phase: .waiting, players: ["robo", nil], spectators: 0, pairs: 3),
        RoomSummary(name: "kitchen", phase: .reveal, players: ["ann", "bob"], spectators: 2, pairs: 8,
                    rules: RuleSet(variant: Variant(seats: .two, setSize: .triple, deck: .words, scoring: .classic, gameSeconds: 0,
                                                    peekMilliseconds: 0), pairs: 4, turnSeconds: 30, revealMilliseconds: 1000,
                                   againOnMatch: true)),
    ], total: 12)
    #expect(LobbyWords.rooms(list) == [
        "12 rooms, the first 2:",
        "den · waiting · robo, (free seat) · 3 pairs",
        "kitchen · playing · ann, bob · 8 triples · 3-card sets · 2 watching",
    ])
    #expect(LobbyWords.people(list) == ["robo in den (waiting)", "ann and bob in kitchen (playing, 2 watching)", "and 10 rooms more"])
    #expect(LobbyWords.rooms(RoomList(rooms: [], total: 0)) == ["no rooms yet: /join ROOM makes one"])
    // The counters as a server sends them.
    let line = #"{"type":"stats","connections":1,"rooms":3,"games_active":1,"games_finished":40,"flips":1234,"messages_in":9,"#
        + #""messages_out":9,"bytes_in":9,"bytes_out":9,"uptime_s":3723,"games_stored":0,"storage_errors":0}"#
    guard case .stats(let stats) = try ServerMessageDecoder.decode(line: Array(line.utf8)) else {
        Issue.record("not a stats message")
        return
    }
    #expect(LobbyWords.statistics(stats) == ["server: 1 connection, 3 rooms, 1 game in play, 40 finished, 1234 flips, up 1:02:03"])
    let state = makeState(names: ["ann", "bob"])
    #expect(LobbyWords.people(in: state, room: "kitchen", spectators: 1, me: .first) == ["in room kitchen: ann¹ (you) and bob²; 1 watching"])
    #expect(LobbyWords.people(in: state, room: "kitchen", spectators: 1, me: nil) == ["in room kitchen: ann¹ and bob²; 1 watching, you among them"])
}

@Test("giving up on reconnecting is said in one sentence, with the last failure in a few words")
func givingUpIsOneSentence() {
    #expect(SessionEnd.gaveUp(lastError: "connection refused").description == "could not reconnect (connection refused); giving up")
    #expect(ConnectionError.cannotConnect(ServerEndpoint(host: "h", port: 1), reason: ConnectionError.refused).description
        == "cannot connect to h:1: connection refused (is the server running, on that port?)")
}

@Test("a question before forfeiting is asked only in a game in progress, and goes away with its answer")
func confirmationIsAskedInAGame() {
    var (playing, _) = model(after: [makeState(seq: 3)])
    #expect(playing.isInGame)
    playing.ask(.quit)
    #expect(playing.confirmation == .quit && playing.notice == ["leave and forfeit? Ctrl-C again or y"])
    playing.dismissConfirmation()
    #expect(playing.confirmation == nil && playing.notice.isEmpty)
    let (over, _) = model(after: [makeState(seq: 9, phase: .over, turn: nil, outcome: .draw)])
    #expect(!over.isInGame)
    let (watching, _) = model(after: [makeState(seq: 4)], seat: nil)
    #expect(!watching.isInGame)
    #expect(ExitConfirmation.isYes(" Y ") && ExitConfirmation.isYes("yes") && !ExitConfirmation.isYes("n") && !ExitConfirmation.isYes(""))
}
