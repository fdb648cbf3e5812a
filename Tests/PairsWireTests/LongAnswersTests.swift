import PairsRules
@testable import PairsWire
import Testing

/// A game summary as long as a summary gets: the longest names cleaning allows, the widest numbers, every rule
/// away from the classic game's so the rules object is written in full.
func heavyGame(_ number: Int64) -> FinishedGameSummary {
    FinishedGameSummary(
        game: number, room: String(repeating: "r", count: RoomName.maxLength),
        rules: RuleSet(variant: Variant(seats: .two, setSize: .triple, deck: .cards,
                                        scoring: .matchismo(MatchismoCosts(flipCost: 100, mismatchPenalty: 100, matchBonus: 100)),
                                        gameSeconds: 3600, peekMilliseconds: 10_000),
                       pairs: 17, turnSeconds: 3600, revealMilliseconds: 60_000, againOnMatch: false),
        players: [FinishedPlayer(name: heaviestName, claimed: true, score: Int.min), FinishedPlayer(name: heaviestName, claimed: false, score: Int.max)],
        winner: .second, end: .forfeit(.timeouts), started: "2026-11-23T19:51:39Z", ended: "2026-11-23T19:51:39Z",
        flips: Int.max, rated: false)
}

/// Every line's bytes, checked against the limit, and the messages they decode to.
func sentLines(_ message: ServerMessage) throws -> [ServerMessage] {
    try LongAnswers.lines(message).map { line in
        let bytes = ServerMessageEncoder.encode(line)
        #expect(bytes.count - 1 <= LineFramer.maxLineBytes, "a line of \(bytes.count - 1) bytes")
        #expect(bytes.last == UInt8(ascii: "\n") && !bytes.dropLast().contains(UInt8(ascii: "\n")))
        return try ServerMessageDecoder.decode(line: bytes.dropLast())
    }
}

@Test("a hundred of the heaviest games of history go out in lines that each fit, every line but the last saying more, and read back as the whole answer")
func longHistoryFitsInLines() throws {
    let games = (1...100).map { heavyGame(Int64.max - $0) }
    let lines = try sentLines(.history(HistoryPage(games: games, id: .string(String(repeating: "\\", count: 64)))))
    #expect(lines.count > 10)
    var read: [FinishedGameSummary] = []
    for (index, line) in lines.enumerated() {
        guard case .history(let page) = line else { Issue.record("not a history line"); return }
        #expect(page.more == (index < lines.count - 1))
        #expect(page.id == .string(String(repeating: "\\", count: 64)))
        read += page.games
    }
    #expect(read == games)
}

@Test("a replay of thousands of moves goes out as a replay line and replay_moves lines that each fit, and adds up to the whole game")
func longReplayFitsInLines() throws {
    let deal = PlayingCard.deck.prefix(51).map(\.face)
    let moves = (0..<3000).map { index in
        ReplayMove(milliseconds: Int64.max - Int64(index), seat: index % 2 == 0 ? .first : .second,
                   action: [.flip(card: 50), .timeout, .disconnect, .reconnect, .forfeit(.away)][index % 5])
    }
    let replay = GameReplay(summary: heavyGame(7), deal: Array(deal), moves: moves, id: .integer(-1))
    let lines = try sentLines(.replay(replay))
    guard case .replay(var whole)? = lines.first else { Issue.record("no replay line first"); return }
    for line in lines.dropFirst() {
        guard case .replayMoves(let part) = line else { Issue.record("not a replay_moves line"); return }
        #expect(part.game == 7)
        whole = whole.appending(part)
    }
    #expect(whole == replay)
}

@Test("a short answer is one line that says no more", arguments: [
    ServerMessage.history(HistoryPage(games: [])),
    .replay(GameReplay(summary: heavyGame(1), deal: ["ant", "ant", "ape", "ape"], moves: [])),
    .leaderboard(Leaderboard(variant: .classic, places: .rated([]))),
])
func shortAnswersAreOneLine(message: ServerMessage) throws {
    #expect(try sentLines(message) == [message])
}

@Test("a profile of many ladders and games, and a leaderboard of a hundred, go out in lines that each fit and read back whole")
func longProfileAndLeaderboardFitInLines() throws {
    let variants = (0..<40).map { index in
        Variant(seats: index % 2 == 0 ? .two : .one, setSize: .triple, deck: .cards, scoring: .matchismo(.standard),
                gameSeconds: index, peekMilliseconds: 10_000)
    }
    let standing = LadderStanding(name: heaviestName, rating: Int.max, deviation: Int.max, provisional: true,
                                  games: Int.max, wins: Int.max, losses: Int.max, draws: Int.max)
    let solo = SoloStanding(name: heaviestName, played: Int.max, cleared: Int.max, bestMilliseconds: Int.max, fewestFlips: Int.max)
    let profile = PlayerProfile(
        name: heaviestName, claimed: true,
        ratings: variants.filter { $0.seats == .two }.map { OnLadder(variant: $0, standing: standing) },
        solo: variants.filter { $0.seats == .one }.map { OnLadder(variant: $0, standing: solo) },
        totals: PlayerProfile.Totals(games: 1, wins: 2, losses: 3, draws: 4, soloPlayed: 5, soloCleared: 6),
        games: (1...10).map(heavyGame), id: .integer(3))
    var whole: PlayerProfile?
    for line in try sentLines(.profile(profile)) {
        guard case .profile(let part) = line else { Issue.record("not a profile line"); return }
        if var so = whole {
            so.ratings += part.ratings
            so.solo += part.solo
            so.games += part.games
            so.more = part.more
            whole = so
        } else {
            whole = part
        }
    }
    #expect(whole == profile)

    let board = Leaderboard(variant: variants[0], places: .rated((1...100).map { Place(rank: $0, standing: standing) }))
    var places: [Place<LadderStanding>] = []
    for line in try sentLines(.leaderboard(board)) {
        guard case .leaderboard(let part) = line, case .rated(let some) = part.places else { Issue.record("not a leaderboard line"); return }
        places += some
    }
    #expect(places == (1...100).map { Place(rank: $0, standing: standing) })
}
