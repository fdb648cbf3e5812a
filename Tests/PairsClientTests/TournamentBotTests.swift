import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
import PairsRules
import PairsServer
import PairsTestSupport
import Testing

/// A server on two loops whose tournaments keep a short pace: half a second between rounds, two seconds
/// to be seated and a two-second grace period, so a bot that is gone forfeits soon.
func tournamentServer() throws -> Server {
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.loops = 2
    configuration.lobby.defaultRules = RuleSet(pairs: 3, turnSeconds: 30, revealMilliseconds: 0, againOnMatch: true)
    configuration.lobby.graceSeconds = 2
    configuration.lobby.tournaments.roundBreakMilliseconds = 500
    configuration.lobby.tournaments.startGraceMilliseconds = 2_000
    configuration.log.level = .error
    let server = Server(configuration: configuration)
    try server.start()
    return server
}

@Test("eight pairs bot processes play a three-round Swiss to its end, one of them killed after its first game: the others exit 0, and the watcher's final standings hold all eight, the killed one withdrawn", .ownThread,
      .timeLimit(.minutes(3)))
func eightBotsPlayASwiss() async throws {
    let pairs = try Tools.pairs()
    let server = try tournamentServer()
    defer { server.stop() }
    let where_ = ["--host", "127.0.0.1", "--port", String(server.port)]
    let create = try Subprocess(pairs, ["tournament", "create", "cup", "--rounds", "3", "--players", "8", "--name", "host"] + where_)
    #expect(try await create.waitForExit(timeout: .seconds(20)) == 0, "create: \(create.errorText)")
    #expect(create.lines.first == "cup: swiss, open, 0 entrants")
    let watcher = try Subprocess(pairs, ["tournament", "watch", "cup", "--name", "screen"] + where_)
    defer { watcher.terminate() }
    try await watcher.waitForLine("the first standings") { $0.hasPrefix("cup: swiss, open") }
    let names = (1...8).map { "b\($0)" }
    let bots = try names.enumerated().map { index, name in
        try Subprocess(pairs, ["bot", "--tournament", "cup", "--name", name, "--think-ms", "0", "--seed", String(index)] + where_)
    }
    defer { for bot in bots { bot.terminate() } }
    let doomed = bots[7]
    try await doomed.waitForLine(timeout: .seconds(60), "its first game") { $0.hasPrefix("game 1:") }
    doomed.kill()

    for (name, bot) in zip(names, bots).dropLast() {
        #expect(try await bot.waitForExit(timeout: .seconds(120)) == 0, "\(name): \(bot.errorText)")
        #expect(bot.lines.last?.hasPrefix("total: ") == true, "\(name): \(bot.lines)")
    }
    #expect(try await watcher.waitForExit(timeout: .seconds(20)) == 0, "the watcher: \(watcher.errorText)")
    let lines = watcher.lines
    let end = try #require(lines.lastIndex { $0.hasPrefix("cup: swiss, finished, round 3 of 3, 8 entrants") }, "\(lines)")
    // "8  b8 (withdrawn)  1  3  ...": rank, name, score, games, tie-breaks; the mark apart.
    let table: [String] = Array(lines[(end + 2)...].prefix { !$0.isEmpty && !$0.hasPrefix("cup-") })
    let rows: [[String]] = table.map { line in line.split(separator: " ").map(String.init) }
    #expect(rows.count == 8, "\(lines[end...])")
    #expect(Set(rows.compactMap { $0.count > 1 ? $0[1] : nil }) == Set(names))
    // Every game gives out one point (a win, a forfeit's win, or two halves): twelve games in three rounds.
    var points = 0.0
    for row in rows {
        let cells = row.filter { $0 != "(withdrawn)" }
        if cells.count > 2, let score = Double(cells[2]) { points += score }
    }
    #expect(points == 12)
    let killed = try #require(rows.first { $0.count > 2 && $0[1] == "b8" })
    #expect(killed.contains("(withdrawn)"), "two forfeits withdraw a player: \(killed)")
}

@Test("two Python bots and two pairs bots play a two-round Swiss to its end: each plays both its games and exits 0", .ownThread,
      Tools.needs("python3"), .timeLimit(.minutes(2)))
func pythonBotsPlayASwiss() async throws {
    let python = try Tools.external("python3")
    let script = Tools.clientsDirectory.appendingPathComponent("python/pairs_bot.py")
    let server = try tournamentServer()
    defer { server.stop() }
    let where_ = ["--host", "127.0.0.1", "--port", String(server.port)]
    let create = try Subprocess(try Tools.pairs(), ["tournament", "create", "mixed", "--rounds", "2", "--players", "4", "--name", "host"] + where_)
    #expect(try await create.waitForExit(timeout: .seconds(20)) == 0, "create: \(create.errorText)")
    let common = ["--tournament", "mixed", "--think-ms", "0"] + where_
    let bots = [
        try Subprocess(python, [script.path] + common + ["--name", "py1", "--seed", "1"]),
        try Subprocess(python, [script.path] + common + ["--name", "py2", "--seed", "2"]),
        try Subprocess(try Tools.pairs(), ["bot"] + common + ["--name", "sw1", "--seed", "3"]),
        try Subprocess(try Tools.pairs(), ["bot"] + common + ["--name", "sw2", "--seed", "4"]),
    ]
    defer { for bot in bots { bot.terminate() } }
    for bot in bots {
        #expect(try await bot.waitForExit(timeout: .seconds(60)) == 0, "\(bot.errorText)")
        #expect(bot.lines.last?.hasPrefix("total: 2 games") == true, "\(bot.lines)")
    }
}

@Test("six pairs bot processes play a 30-second arena, two more join once it runs: all eight play, exit 0 at its end, and the standings are ranked by arena score", .ownThread,
      .timeLimit(.minutes(3)))
func botsPlayAnArenaWithLateJoiners() async throws {
    let pairs = try Tools.pairs()
    let server = try tournamentServer()
    defer { server.stop() }
    let where_ = ["--host", "127.0.0.1", "--port", String(server.port)]
    let create = try Subprocess(pairs, ["tournament", "create", "night", "--format", "arena", "--minutes", "0.5", "--players", "6",
                                        "--name", "host"] + where_)
    #expect(try await create.waitForExit(timeout: .seconds(20)) == 0, "create: \(create.errorText)")
    let watcher = try Subprocess(pairs, ["tournament", "watch", "night", "--name", "screen"] + where_)
    defer { watcher.terminate() }
    try await watcher.waitForLine("the first standings") { $0.hasPrefix("night: arena, open") }
    func bot(_ name: String, seed: Int) throws -> Subprocess {
        try Subprocess(pairs, ["bot", "--tournament", "night", "--name", name, "--think-ms", "0", "--seed", String(seed)] + where_)
    }
    var bots = try (1...6).map { try bot("a\($0)", seed: $0) }
    defer { for bot in bots { bot.terminate() } }
    try await watcher.waitForLine(timeout: .seconds(20), "the arena running") { $0.hasPrefix("night: arena, running") }
    bots += try [bot("late1", seed: 7), bot("late2", seed: 8)]

    // The arena's 30 s, then its last games, on a busy machine.
    for bot in bots {
        #expect(try await bot.waitForExit(timeout: .seconds(120)) == 0, "\(bot.errorText)")
        #expect(bot.lines.contains { $0.hasPrefix("game 1:") }, "every bot plays, the late ones too: \(bot.lines)")
    }
    #expect(try await watcher.waitForExit(timeout: .seconds(20)) == 0, "the watcher: \(watcher.errorText)")
    let lines = watcher.lines
    let end = try #require(lines.lastIndex { $0.hasPrefix("night: arena, finished") }, "\(lines)")
    let table: [String] = Array(lines[(end + 2)...].prefix { !$0.isEmpty })
    let scores: [Int] = table.compactMap { line in
        let cells = line.split(separator: " ")
        return cells.count > 2 ? Int(cells[2]) : nil
    }
    #expect(scores.count == 8, "\(table)")
    #expect(scores == scores.sorted(by: >), "ranked by arena score: \(table)")
}

@Test("a Swiss of three-card Matchismo with playing cards: every game is played by the tournament's rules, and four pairs bots play it to its end", .ownThread,
      .timeLimit(.minutes(2)))
func botsPlayAMatchismoSwiss() async throws {
    let pairs = try Tools.pairs()
    let server = try tournamentServer()
    defer { server.stop() }
    let where_ = ["--host", "127.0.0.1", "--port", String(server.port)]
    let create = try Subprocess(pairs, ["tournament", "create", "sets", "--rounds", "2", "--players", "4", "--name", "host",
                                        "--match", "3", "--deck", "cards", "--scoring", "matchismo", "--pairs", "5"] + where_)
    #expect(try await create.waitForExit(timeout: .seconds(20)) == 0, "create: \(create.errorText)")
    let bots = try (1...4).map {
        try Subprocess(pairs, ["bot", "--tournament", "sets", "--name", "m\($0)", "--think-ms", "0", "--seed", String($0)] + where_)
    }
    defer { for bot in bots { bot.terminate() } }
    for bot in bots {
        #expect(try await bot.waitForExit(timeout: .seconds(60)) == 0, "\(bot.errorText)")
        #expect(bot.lines.last?.hasPrefix("total: 2 games") == true, "\(bot.lines)")
        // The bot says when a room plays other rules than it asked for: it asked for none.
        #expect(bot.errorText.isEmpty, "\(bot.errorText)")
    }
    #expect(server.statistics().gamesFinishedByVariant.keys.sorted() == ["duel-triples-cards-matchismo"])
}
