import PairsClient
import PairsRules
import PairsWire
import Testing

/// A finished game for the tables, started at a time given as words so that no time zone changes it.
private func game(_ number: Int64, _ players: [(String, Int)], winner: Seat?, end: GameEnd, variant: Variant = .classic) -> FinishedGameSummary {
    FinishedGameSummary(game: number, room: "r", rules: RuleSet(variant: variant, pairs: 4, turnSeconds: 30, revealMilliseconds: 0, againOnMatch: true),
                        players: players.map { FinishedPlayer(name: $0.0, claimed: true, score: $0.1) }, winner: winner, end: end,
                        started: "yesterday", ended: "yesterday", flips: 10, rated: false)
}

private let soloVariant = Variant(seats: .one, setSize: .pair, deck: .words, scoring: .classic, gameSeconds: 90, peekMilliseconds: 0)

@Test("the history table aligns its columns, says who won and how each game ended, and shows the rules only of the games not classic")
func historyTable() {
    let games = [
        game(112, [("sol", 3)], winner: nil, end: .timeUp, variant: soloVariant),
        game(111, [("ann", 1), ("bob", 0)], winner: .first, end: .forfeit(.left)),
        game(9, [("ann", 2), ("bob", 2)], winner: nil, end: .cleared),
        game(8, [("ann", 0), ("bob", 1)], winner: .second, end: .forfeit(.timeouts)),
    ]
    #expect(HistoryTable.lines(games) == [
        "game  when       players        result                       ended                  rules",
        " 112  yesterday  sol 3          sol did not clear the board  time up                solo, 1:30 game clock",
        " 111  yesterday  ann 1 - 0 bob  ann won                      bob left",
        "   9  yesterday  ann 2 - 2 bob  draw                         cleared",
        "   8  yesterday  ann 0 - 1 bob  bob won                      ann timed out 3 times",
    ])
    #expect(HistoryTable.lines([]) == ["no finished games yet"])
    // Without a game of other rules, no rules column.
    #expect(HistoryTable.lines([games[2]]).first == "game  when       players        result  ended")
}

@Test("a leaderboard's ratings carry a ? while provisional, and a solo ladder shows times and flips")
func leaderboardTable() {
    let rated = Leaderboard(variant: .classic, places: .rated([
        Place(rank: 1, standing: LadderStanding(name: "ann", rating: 1662, deviation: 90, provisional: false, games: 40, wins: 30, losses: 8, draws: 2)),
        Place(rank: 2, standing: LadderStanding(name: "bob", rating: 1338, deviation: 290, provisional: true, games: 1, wins: 0, losses: 1, draws: 0)),
    ]))
    #expect(LeaderboardTable.lines(rated) == [
        "the classic game's ladder",
        "rank  name  rating  games  won  lost  drawn",
        "   1  ann     1662     40   30     8      2",
        "   2  bob    1338?      1    0     1      0",
    ])
    let solo = Leaderboard(variant: soloVariant, places: .solo([
        Place(rank: 1, standing: SoloStanding(name: "sol", played: 3, cleared: 2, bestMilliseconds: 61_590, fewestFlips: 14)),
        Place(rank: 2, standing: SoloStanding(name: "zed", played: 1, cleared: 0, bestMilliseconds: nil, fewestFlips: nil)),
    ], by: .time))
    #expect(LeaderboardTable.lines(solo) == [
        "the ladder of solo, 1:30 game clock, by time",
        "rank  name  played  cleared  best time  fewest flips",
        "   1  sol        3        2     1:01.5            14",
        "   2  zed        1        0          -             -",
    ])
    #expect(LeaderboardTable.lines(Leaderboard(variant: .classic, places: .rated([]))).last == "nobody is rated on this ladder yet")
    // An empty solo ladder says why a name that cleared a board is not on it, and how to get there.
    #expect(LeaderboardTable.lines(Leaderboard(variant: soloVariant, places: .solo([], by: .time))) == [
        "the ladder of solo, 1:30 game clock, by time",
        "no claimed name has played on this ladder yet: only claimed names are ranked",
        "(claim yours with pairs play --name NAME --password)",
    ])
    #expect(LeaderboardTable.time(milliseconds: 41_399) == "41.3 s")
}

@Test("a profile says the name's totals, its standing on each ladder, and its last games")
func profileReport() {
    let profile = PlayerProfile(
        name: "ann", claimed: true,
        ratings: [OnLadder(variant: .classic, standing: LadderStanding(name: "ann", rating: 1500, deviation: 200, provisional: true,
                                                                        games: 1, wins: 1, losses: 0, draws: 0))],
        solo: [OnLadder(variant: soloVariant, standing: SoloStanding(name: "ann", played: 2, cleared: 1, bestMilliseconds: 9_000, fewestFlips: 8))],
        totals: PlayerProfile.Totals(games: 1, wins: 1, losses: 0, draws: 0, soloPlayed: 2, soloCleared: 1),
        games: [game(5, [("ann", 2), ("bob", 0)], winner: .first, end: .cleared)])
    #expect(ProfileReport.lines(profile) == [
        "ann (claimed)",
        "1 game: 1 won, 0 lost, 0 drawn · solo: 2 played, 1 cleared",
        "",
        "ratings",
        "  ladder        rating  games  won  lost  drawn",
        "  classic game   1500?      1    1     0      0",
        "",
        "solo records",
        "  ladder                 played  cleared  best time  fewest flips",
        "  solo, 1:30 game clock       2        1      9.0 s             8",
        "",
        "last games",
        "  game  when       players        result   ended",
        "     5  yesterday  ann 2 - 0 bob  ann won  cleared",
    ])
    #expect(ProfileReport.summaryLines(profile) == [
        "ann (claimed): 1 game: 1 won, 0 lost, 0 drawn · solo: 2 played, 1 cleared",
        "  classic game: 1500? (1 game: 1 won, 0 lost, 0 drawn)",
        "  solo, 1:30 game clock: best 9.0 s, fewest flips 8 (2 played, 1 cleared)",
    ])
}

@Test("a server's time is shown in the local time zone to the minute, and a time in another form as it came")
func times() {
    let shown = FinishedGameWords.when("2026-11-23T12:54:06Z")
    #expect(shown.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d$"#, options: .regularExpression) != nil, "\(shown)")
    #expect(FinishedGameWords.when("2026-11-23T12:54:06.042Z") == shown)
    for odd in ["yesterday", "2026-11-23T12:54:06+01:00", "2026-11-23", ""] {
        #expect(FinishedGameWords.when(odd) == odd)
    }
}

@Test("/history, /top and /profile ask for what is kept", arguments: [
    ("/history", InputCommand.history(name: nil)), ("history ann", .history(name: "ann")), ("/top", .top), ("/leaderboard", .top),
    ("/profile bob", .profile(name: "bob")),
])
func keptGamesCommands(line: String, command: InputCommand) throws {
    #expect(try InputCommand.parse(line) == command)
    #expect(throws: InputError.missingName(command: "profile")) { try InputCommand.parse("/profile") }
    #expect(throws: InputError.unexpectedArgument(command: "top")) { try InputCommand.parse("/top 3") }
}

@Test("a replay's keys are read the same whatever reads they come in: space, Enter and → forward, b and ← back, g and G, q",
      arguments: [1, 2, 3, 64])
func replayKeysInAnyChunks(chunk: Int) {
    let bytes = Array(" \r\nnbpgGq".utf8) + [0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44, 0x1B, 0x5B, 0x41, 0x78, 0x1B, 0x4F, 0x20]
    var keys = ReplayKeys()
    var read: [ReplayKeys.Key] = []
    for start in stride(from: 0, to: bytes.count, by: chunk) {
        read += keys.take(bytes[start..<min(bytes.count, start + chunk)])
    }
    // ESC [ A (↑), stray letters and the start of a sequence this reader does not know (ESC O) are nothing.
    #expect(read == [.forward, .forward, .forward, .forward, .back, .back, .first, .last, .quit, .forward, .back, .forward])
}

@Test("a refused name asks a person at most three times; without anyone to ask, or for another reason, it gives up with the server's words")
func passwordDialog() {
    let taken = RequestError(.nameTaken, "the name ann belongs to someone: say hello with its password, or pick another")
    let wrong = RequestError(.badPassword, "that is not the password of ann")
    var person = PasswordDialog(name: "ann", canAsk: true)
    #expect(person.next(after: taken) == .ask(question: "the name ann belongs to someone; password for ann: "))
    #expect(person.next(after: wrong) == .ask(question: "that is not the password of ann; try again: "))
    #expect(person.next(after: wrong) == .ask(question: "that is not the password of ann; try again: "))
    #expect(person.next(after: wrong) == .giveUp(reason: "that is not the password of ann"))
    var script = PasswordDialog(name: "ann", canAsk: false)
    #expect(script.next(after: taken) == .giveUp(reason: taken.message + " (--password asks for it, or set PAIRS_PASSWORD)"))
    var asked = PasswordDialog(name: "ann", canAsk: true)
    #expect(asked.firstQuestion() == "password for ann: ")
    #expect(asked.next(after: RequestError(.noStorage, "this server keeps nothing")) == .giveUp(reason: "this server keeps nothing"))
}
