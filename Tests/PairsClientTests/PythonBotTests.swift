import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import PairsTestSupport

/// python3 and the bot's script.
private func pythonBotFiles() throws -> (python: URL, script: URL) {
    (try Tools.external("python3"), Tools.clientsDirectory.appendingPathComponent("python/pairs_bot.py"))
}

@Test("the Python bot plays full games against pairs bot, classic or three-card Matchismo with playing cards, and both report the same games", .ownThread,
      Tools.needs("python3"), .timeLimit(.minutes(2)), arguments: [
          ("memory", [String]()), ("random", []),
          ("memory", ["--match", "3", "--deck", "cards", "--scoring", "matchismo", "--pairs", "5", "--again-on-match", "false"]),
      ])
func pythonBotPlaysPairsBot(strategy: String, rules: [String]) async throws {
    let (python, script) = try pythonBotFiles()
    let server = try startServer(pairs: 3, revealMilliseconds: 0, seed: nil)
    defer { server.stop() }
    let room = "python-\(strategy)"
    let common = ["--host", "127.0.0.1", "--port", String(server.port), "--room", room, "--games", "4", "--think-ms", "0"] + rules
    let swiftBot = try Subprocess(try Tools.pairs(), ["bot"] + common + ["--name", "swift", "--seed", "3"])
    defer { swiftBot.terminate() }
    let pythonBot = try Subprocess(python, [script.path] + common + ["--strategy", strategy, "--name", "snake", "--seed", "4"])
    defer { pythonBot.terminate() }

    #expect(try await pythonBot.waitForExit(timeout: .seconds(60)) == 0, "python: \(pythonBot.errorText)")
    #expect(try await swiftBot.waitForExit(timeout: .seconds(30)) == 0, "swift: \(swiftBot.errorText)")
    // With classic scoring a point is a set: the scores cover the board. Matchismo's are anything.
    #expect(seriesDisagreements(pythonBot.lines.compactMap(GameLine.init), swiftBot.lines.compactMap(GameLine.init),
                                names: ("snake", "swift"), games: 4, pairs: rules.isEmpty ? 3 : nil) == [])
    #expect(pythonBot.lines.last?.hasPrefix("total: 4 games") == true)
    // A variant is nothing unknown to it: nothing is said on stderr.
    #expect(pythonBot.errorText.isEmpty, "\(pythonBot.errorText)")
}

@Test("the Python bot plays solo games with the rule flags it shares with pairs bot, and says how each ended", .ownThread,
      Tools.needs("python3"), .timeLimit(.minutes(2)))
func pythonBotPlaysSolo() async throws {
    let (python, script) = try pythonBotFiles()
    let server = try startServer(pairs: 3, revealMilliseconds: 0, seed: nil)
    defer { server.stop() }
    let bot = try Subprocess(python, [script.path, "--host", "127.0.0.1", "--port", String(server.port), "--games", "3",
                                      "--think-ms", "0", "--solo", "--deck", "cards", "--pairs", "6", "--peek-ms", "200",
                                      "--name", "snake", "--seed", "4"])
    defer { bot.terminate() }
    #expect(try await bot.waitForExit(timeout: .seconds(60)) == 0, "python: \(bot.errorText)")
    let games = bot.lines.compactMap(SoloLine.init)
    #expect(games.map(\.number) == [1, 2, 3], "\(bot.lines)")
    for game in games {
        #expect(game.name == "snake")
        // Won means cleared; a deal of playing cards that cannot be cleared ends when no set is left.
        #expect((game.result == "won" && game.how == "cleared the board" && game.points == 6)
                || (game.result == "lost" && game.how == "did not clear the board, no set left"), "\(game)")
    }
    #expect(bot.lines.last?.hasPrefix("total: 3 games, ") == true)
    #expect(server.statistics().gamesFinished == 3)
}

@Test("the Python bot refuses rule flags that contradict each other, before it connects", .ownThread, Tools.needs("python3"),
      arguments: [["--solo", "--seats", "2"], ["--flip-cost", "3"], ["--match", "4"], ["--again-on-match", "maybe"]])
func pythonBotRefusesBadRules(arguments: [String]) async throws {
    let (python, script) = try pythonBotFiles()
    let bot = try Subprocess(python, [script.path, "--port", "1"] + arguments)
    defer { bot.terminate() }
    #expect(try await bot.waitForExit() == 2)
    #expect(bot.errorText.contains("usage: pairs_bot.py"), "\(bot.errorText)")
}

@Test("the Python bot plays full games against a server whose events are just their kind, and that sends fields, event kinds and messages it does not know, and says so once", .ownThread,
      Tools.needs("python3"), .timeLimit(.minutes(2)))
func pythonBotPlaysAForeignServer() async throws {
    let (python, script) = try pythonBotFiles()
    let foreign = try ForeignServer(pairs: 3)
    defer { foreign.stop() }
    let common = ["--host", "127.0.0.1", "--port", String(foreign.port), "--room", "foreign", "--games", "4", "--think-ms", "0"]
    let swiftBot = try Subprocess(try Tools.pairs(), ["bot"] + common + ["--name", "swift", "--seed", "3"])
    defer { swiftBot.terminate() }
    let pythonBot = try Subprocess(python, [script.path] + common + ["--name", "snake", "--seed", "4"])
    defer { pythonBot.terminate() }

    #expect(try await pythonBot.waitForExit(timeout: .seconds(60)) == 0, "python: \(pythonBot.errorText)")
    #expect(try await swiftBot.waitForExit(timeout: .seconds(30)) == 0, "swift: \(swiftBot.errorText)")
    #expect(seriesDisagreements(pythonBot.lines.compactMap(GameLine.init), swiftBot.lines.compactMap(GameLine.init),
                                names: ("snake", "swift"), games: 4, pairs: 3) == [])
    #expect(pythonBot.errorText == "pairs_bot.py: ignored parts of the server's messages it does not know (first: unknown message type \"\(ForeignServerLines.inventedType)\")\n")
    #expect(foreign.tally.inventedStates > 0)
}

@Test("the Python bot exits 1 with a message when it cannot connect", .ownThread, Tools.needs("python3"))
func pythonBotCannotConnect() async throws {
    let (python, script) = try pythonBotFiles()
    let (socket, port) = try Loopback.bind()
    defer { close(socket) }
    let bot = try Subprocess(python, [script.path, "--host", "127.0.0.1", "--port", String(port), "--games", "1"])
    defer { bot.terminate() }
    #expect(try await bot.waitForExit() == 1)
    #expect(bot.errorText.hasPrefix("pairs_bot.py: cannot connect to 127.0.0.1:\(port): "))
}

@Test("the bash example plays a game against pairs bot and prints its result line", .ownThread, .timeLimit(.minutes(1)))
func bashExamplePlays() async throws {
    let bash = try Tools.external("bash")
    let script = Tools.clientsDirectory.appendingPathComponent("bash/pairs_random.sh")
    let server = try startServer(pairs: 3, revealMilliseconds: 0, seed: 9)
    defer { server.stop() }
    let bot = try Subprocess(try Tools.pairs(), ["bot", "--host", "127.0.0.1", "--port", String(server.port), "--room", "shell",
                                                 "--games", "1", "--think-ms", "0", "--name", "robo"])
    defer { bot.terminate() }
    let player = try Subprocess(bash, [script.path, "127.0.0.1", String(server.port), "shell", "shelly"])
    defer { player.terminate() }
    #expect(try await player.waitForExit(timeout: .seconds(30)) == 0, "\(player.errorText)")
    #expect(try await bot.waitForExit(timeout: .seconds(10)) == 0, "\(bot.errorText)")
    let line = try #require(player.lines.compactMap(GameLine.init).first, "\(player.lines)")
    let botLine = try #require(bot.lines.compactMap(GameLine.init).first)
    #expect(line.name == "shelly" && line.opponent == "robo")
    #expect(line.score + line.opponentScore == 3)
    #expect(line.score == botLine.opponentScore)
}
