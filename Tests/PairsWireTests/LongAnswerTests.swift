import PairsRules
import PairsWire
import Testing

/// Long answers of every kind, each long enough to take many lines.
private let longAnswers: [ServerMessage] = {
    let standing = LadderStanding(name: heaviestName, rating: 1500, deviation: 350, provisional: true, games: 1, wins: 1, losses: 0, draws: 0)
    let solo = SoloStanding(name: heaviestName, played: 9, cleared: 3, bestMilliseconds: 41_300, fewestFlips: nil)
    let soloVariant = Variant(seats: .one, setSize: .pair, deck: .words, scoring: .classic, gameSeconds: 60, peekMilliseconds: 0)
    let moves = (0..<2000).map { ReplayMove(milliseconds: Int64($0), seat: .first, action: .flip(card: $0 % 16)) }
    return [
        .history(HistoryPage(games: (1...100).map { heavyGame(Int64($0)) }, id: .integer(4))),
        .replay(GameReplay(summary: heavyGame(9), deal: Array(repeating: "ant", count: 16), moves: moves, id: .string("r"))),
        .leaderboard(Leaderboard(variant: .classic, places: .rated((1...100).map { Place(rank: $0, standing: standing) }), id: .integer(5))),
        .leaderboard(Leaderboard(variant: soloVariant, places: .solo((1...100).map { Place(rank: $0, standing: solo) }, by: .flips))),
        .profile(PlayerProfile(name: heaviestName, claimed: true, ratings: [OnLadder(variant: .classic, standing: standing)],
                               solo: [OnLadder(variant: soloVariant, standing: solo)],
                               totals: PlayerProfile.Totals(games: 1, wins: 1, losses: 0, draws: 0, soloPlayed: 9, soloCleared: 3),
                               games: (1...30).map { heavyGame(Int64($0)) }, id: .integer(6))),
    ]
}()

/// The lines `LongAnswer` puts back together, one by one, with whether it said the answer was complete
/// after each.
private func joined(_ lines: [ServerMessage]) throws -> (message: ServerMessage?, completeAfter: [Bool]) {
    var answer = LongAnswer()
    var completeAfter: [Bool] = []
    for line in lines {
        try answer.append(line)
        completeAfter.append(answer.isComplete)
    }
    return (answer.message, completeAfter)
}

@Test("a long answer cut into lines of any size and read back from their bytes is put back together as the whole answer, complete only at its last line",
      arguments: longAnswers, [600, 1500, LineFramer.maxLineBytes])
func longAnswerIsPutBackTogether(message: ServerMessage, limit: Int) throws {
    let lines = try LongAnswers.lines(message, limit: limit).map { line in
        try ServerMessageDecoder.decode(line: ServerMessageEncoder.encode(line).dropLast())
    }
    #expect(lines.count > 1, "the fixture should take several lines")
    let (whole, completeAfter) = try joined(lines)
    #expect(whole == message)
    #expect(completeAfter == lines.indices.map { $0 == lines.count - 1 })
    #expect(lines.allSatisfy { $0.answerID == message.answerID })
}

@Test("an answer of one line, or an error, is complete at once")
func oneLineAnswersAreComplete() throws {
    for message in [ServerMessage.history(HistoryPage(games: [])), .error(RequestError(.noSuchGame, "no finished game is number 9", id: .integer(1)))] {
        let (whole, completeAfter) = try joined([message])
        #expect(whole == message)
        #expect(completeAfter == [true])
    }
}

@Test("a line that cannot continue the answer is refused: another answer's line, a line after the last, and a first line that is no answer")
func mismatchedLinesAreRefused() throws {
    let lines = LongAnswers.lines(longAnswers[0], limit: 1500)
    var answer = LongAnswer()
    try answer.append(lines[0])
    #expect(throws: LongAnswer.Mismatch.unexpectedLine) { try answer.append(.profile(PlayerProfile(
        name: "ann", claimed: false, ratings: [], solo: [], totals: PlayerProfile.Totals(games: 0, wins: 0, losses: 0, draws: 0, soloPlayed: 0, soloCleared: 0),
        games: [])))
    }
    // A replay's moves of another game do not continue this replay.
    let replayLines = LongAnswers.lines(longAnswers[1])
    guard case .replayMoves(var stranger) = replayLines[1] else { Issue.record("no replay_moves line"); return }
    stranger.game += 1
    var replay = LongAnswer()
    try replay.append(replayLines[0])
    #expect(throws: LongAnswer.Mismatch.unexpectedLine) { try replay.append(.replayMoves(stranger)) }

    var complete = LongAnswer()
    try complete.append(.history(HistoryPage(games: [])))
    #expect(throws: LongAnswer.Mismatch.alreadyComplete) { try complete.append(.history(HistoryPage(games: []))) }
    var wrong = LongAnswer()
    #expect(throws: LongAnswer.Mismatch.notAnAnswer) { try wrong.append(.pong(id: nil)) }
    #expect(wrong.message == nil)
}
