import PairsBots
import PairsClient
import PairsRules
import PairsWire
import Testing

private func bot(games: Int = 2, strategy: StrategyKind = .memory, room: String? = "kitchen") -> BotMachine {
    BotMachine(configuration: BotConfiguration(room: room, games: games, strategy: strategy, thinkMilliseconds: 0, name: "robo", seed: 5))
}

/// The requests among `actions`.
private func sent(_ actions: [BotAction]) -> [ClientMessage] {
    actions.compactMap { if case .send(let message) = $0 { message } else { nil } }
}

/// A bot seated in seat 0 of room "kitchen" that has seen the first game start on its turn.
private func seatedBot(games: Int = 2) -> (BotMachine, [BotAction]) {
    var machine = bot(games: games)
    _ = machine.handle(.ready)
    _ = machine.handle(.sent(.join(JoinRequest(room: "kitchen")), id: .integer(1)))
    _ = machine.handle(.message(.joined(Joined(room: "kitchen", seat: .first, token: "t", id: .integer(1)))))
    let actions = machine.handle(.message(stateMessage(makeState(seq: 3))))
    return (machine, actions)
}

@Test("a bot joins the room it was given as soon as the server greets it")
func botJoinsOnReady() {
    var machine = bot()
    #expect(machine.handle(.ready) == [.send(.join(JoinRequest(room: "kitchen")))])
    var quick = bot(room: nil)
    #expect(quick.handle(.ready) == [.send(.join(JoinRequest()))])
}

@Test("on its turn a bot thinks first, then flips, and flips nothing for a thought about an old state")
func botThinksThenFlips() {
    var (machine, actions) = seatedBot()
    #expect(actions == [.think(aboutState: 3)])
    #expect(machine.handle(.thoughtElapsed(aboutState: 2)) == [])
    let flip = machine.handle(.thoughtElapsed(aboutState: 3))
    #expect(sent(flip).count == 1)
    guard case .flip(let card)? = sent(flip).first else { Issue.record("expected a flip, got \(flip)"); return }
    #expect((0..<6).contains(card))
}

@Test("a bot keeps one flip in flight: states that are not its answer start no new thinking")
func botWaitsForTheAnswerToItsFlip() {
    var (machine, _) = seatedBot()
    let flip = machine.handle(.thoughtElapsed(aboutState: 3))
    guard case .flip(let card)? = sent(flip).first else { Issue.record("no flip"); return }
    _ = machine.handle(.sent(.flip(card: card), id: .integer(2)))
    // The opponent's connection drops: still the bot's turn, but its flip is on the way.
    #expect(machine.handle(.message(stateMessage(makeState(seq: 4, event: .disconnect(.second))))) == [])
    // The answer: the card is up, and the bot thinks about its second card.
    var cards: [CardView] = Array(repeating: .down, count: 6)
    cards[card] = .up(face: "ant")
    let answer = machine.handle(.message(stateMessage(makeState(seq: 5, cards: cards, event: .flip(.first, card: card)), id: .integer(2))))
    #expect(answer == [.think(aboutState: 5)])
    // With its flip answered, the bot flips again once it has thought.
    #expect(sent(machine.handle(.thoughtElapsed(aboutState: 5))).count == 1)
}

@Test("a bot does nothing while it is the opponent's turn")
func botWaitsForItsTurn() {
    var (machine, _) = seatedBot()
    #expect(machine.handle(.message(stateMessage(makeState(seq: 4, turn: .second, event: .hide(cards: [0, 1]))))) == [])
    #expect(machine.handle(.thoughtElapsed(aboutState: 3)) == [])
}

@Test("a refused flip is thought about again, and too many refusals in a row end the run")
func botRetriesRefusedFlipsBoundedly() {
    var (machine, _) = seatedBot()
    var id: Int64 = 10
    for attempt in 1...BotMachine.maxConsecutiveRefusals {
        let flip = machine.handle(.thoughtElapsed(aboutState: 3))
        guard let message = sent(flip).first else { Issue.record("no flip on attempt \(attempt)"); return }
        _ = machine.handle(.sent(message, id: .integer(id)))
        let answer = machine.handle(.message(.error(RequestError(.rateLimited, "slow down", id: .integer(id)))))
        id += 1
        if attempt < BotMachine.maxConsecutiveRefusals {
            #expect(answer == [.think(aboutState: 3)])
        } else {
            #expect(answer.contains(.send(.leave)))
            guard case .finish(.failed(let reason))? = answer.last else { Issue.record("expected a failure, got \(answer)"); return }
            #expect(reason.contains("slow down"))
        }
    }
    #expect(machine.isFinished)
    #expect(machine.handle(.message(stateMessage(makeState(seq: 9)))) == [])
}

@Test("a finished game is reported once, then a rematch is asked for until the games are played")
func botReportsGamesAndAsksForRematches() {
    var (machine, _) = seatedBot(games: 2)
    let cleared: [CardView] = [.matched(face: "ant", by: .first), .matched(face: "ant", by: .first),
                               .matched(face: "bee", by: .second), .matched(face: "bee", by: .second),
                               .matched(face: "cat", by: .first), .matched(face: "cat", by: .first)]
    let over = makeState(seq: 20, phase: .over, cards: cleared, scores: [2, 1], turn: nil, outcome: .win(.first),
                         series: SeriesTally(wins: [1, 0]), event: .over(.first, cards: [4, 5], points: 1))
    let first = machine.handle(.message(stateMessage(over)))
    #expect(first == [
        .report(GameRecord(number: 1, game: 1, name: "ann", score: 2, opponentName: "bob", opponentScore: 1, result: .won)),
        .send(.rematch),
    ])
    // The opponent's rematch request is another state of the same finished game: no second report.
    var rematch = over
    rematch.seq = 21
    rematch.event = StateEvent(.rematch(.second))
    #expect(machine.handle(.message(stateMessage(rematch))) == [])

    let second = makeState(game: 2, seq: 30, phase: .over, cards: cleared, scores: [1, 2], turn: nil, outcome: .win(.second),
                           event: .over(.second, cards: [0, 1], points: 1))
    let last = machine.handle(.message(stateMessage(second)))
    #expect(last.count == 3)
    #expect(last.dropFirst() == [.send(.leave), .finish(.done)])
    #expect(machine.gamesPlayed == 2)
}

@Test("a rematch lost with the connection is asked for again once the bot is back")
func botAsksForRematchAgainAfterReconnecting() {
    var (machine, _) = seatedBot(games: 3)
    let over = makeState(seq: 20, phase: .over, scores: [1, 2], turn: nil, outcome: .win(.second), event: .over(.second, cards: [0, 1], points: 1))
    #expect(sent(machine.handle(.message(stateMessage(over)))) == [.rematch])
    _ = machine.handle(.sent(.rematch, id: nil)) // the connection was already gone
    _ = machine.handle(.connectionLost)
    _ = machine.handle(.message(.joined(Joined(room: "kitchen", seat: .first, token: "t2"))))
    var back = over
    back.seq = 21
    back.event = StateEvent(.reconnect(.first))
    #expect(sent(machine.handle(.message(stateMessage(back)))) == [.rematch])
}

@Test("a bot that cannot join says why and stops")
func botStopsWhenItCannotJoin() {
    var machine = bot()
    _ = machine.handle(.ready)
    _ = machine.handle(.sent(.join(JoinRequest(room: "kitchen")), id: .integer(1)))
    let actions = machine.handle(.message(.error(RequestError(.roomFull, "room kitchen is full; you can watch it", id: .integer(1)))))
    #expect(actions == [.finish(.failed("cannot join: room kitchen is full; you can watch it"))])
}

@Test("a bot whose seat is gone after a reconnect joins again")
func botRejoinsAfterLosingItsSeat() {
    var (machine, _) = seatedBot()
    _ = machine.handle(.connectionLost)
    #expect(machine.handle(.seatLost) == [.send(.join(JoinRequest(room: "kitchen")))])
    #expect(machine.seat == nil)
}

@Test("two bots play a series to the end against the real rules, and every game adds up, also when events are only their kind and carry no id",
      arguments: [[StrategyKind.memory, .memory], [.memory, .random], [.random, .random]], [false, true])
func botsPlayASeriesAgainstTheRules(strategies: [StrategyKind], bareEvents: Bool) {
    var table = BotTable(games: 10, strategies: strategies)
    table.sendsBareEvents = bareEvents
    let steps = table.run(maxSteps: 100_000)
    #expect(steps < 100_000, "the table never went quiet")
    #expect(table.finished == [.done, .done])
    #expect(table.records[0].count == 10)
    #expect(table.records[1].count == 10)
    for (mine, theirs) in zip(table.records[0], table.records[1]) {
        #expect(mine.score + mine.opponentScore == 4)
        #expect(mine.score == theirs.opponentScore)
        #expect(mine.game == theirs.game)
        switch mine.result {
        case .won: #expect(theirs.result == .lost)
        case .lost: #expect(theirs.result == .won)
        case .draw: #expect(theirs.result == .draw)
        }
    }
}

@Test("a memory bot beats a random one over a long series")
func memoryBeatsRandom() {
    var table = BotTable(games: 60, strategies: [.memory, .random])
    _ = table.run(maxSteps: 1_000_000)
    let wins = table.records[0].count { $0.result == .won }
    let losses = table.records[0].count { $0.result == .lost }
    #expect(table.records[0].count == 60)
    #expect(wins > losses * 2, "memory won \(wins) and lost \(losses)")
}

@Test("a game's line says who played, the score and the result, and names a forfeit")
func gameRecordLines() {
    let won = GameRecord(number: 3, game: 7, name: "bot-memory", score: 5, opponentName: "ann", opponentScore: 3, result: .won)
    #expect(won.description == "game 3: bot-memory 5 - 3 ann (won)")
    let forfeit = GameRecord(number: 4, game: 8, name: "bot-memory", score: 1, opponentName: "ann", opponentScore: 2,
                             result: .won, forfeitedBy: "ann")
    #expect(forfeit.description == "game 4: bot-memory 1 - 2 ann (won, ann forfeited)")
}

@Test("a tournament bot enters the tournament, reports each game of each room it is seated in without a rematch, and finishes when the tournament does")
func tournamentBotPlaysItsPairings() {
    var configuration = BotConfiguration(games: 1, thinkMilliseconds: 0, name: "robo", seed: 5)
    configuration.tournament = "cup"
    var machine = BotMachine(configuration: configuration)
    #expect(machine.handle(.ready) == [.send(.tournament(.join(tournament: "cup", standings: 0)))])
    _ = machine.handle(.sent(.tournament(.join(tournament: "cup", standings: 0)), id: .integer(1)))
    let cleared: [CardView] = (0..<6).map { .matched(face: "f\($0 / 2)", by: .first) }
    let over = makeState(seq: 20, phase: .over, cards: cleared, scores: [3, 0], turn: nil, outcome: .win(.first),
                         event: .over(.first, cards: [4, 5], points: 1))
    for room in ["cup-1", "cup-5"] {
        _ = machine.handle(.message(.joined(Joined(room: room, seat: .first, token: "t"))))
        let ended = machine.handle(.message(stateMessage(over)))
        #expect(ended.contains { if case .report = $0 { true } else { false } }, "game 1 of \(room) is reported")
        #expect(sent(ended).isEmpty, "no rematch, and --games does not end a tournament: \(ended)")
    }
    #expect(machine.gamesPlayed == 2)
    let view = TournamentView(name: "cup", format: .swiss, status: .finished, creator: "host", rules: .standard, entrants: 2)
    #expect(machine.handle(.message(.tournament(view))) == [.finish(.done)])
    #expect(machine.isFinished)
}
