import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

@Test("the Python bot plays full games against pairs bot, and both report the same games",
      .timeLimit(.minutes(2)), arguments: ["memory", "random"])
func pythonBotPlaysPairsBot(strategy: String) async throws {
    let python = try Tools.external("python3")
    let script = Tools.clientsDirectory.appendingPathComponent("python/pairs_bot.py")
    let server = try startServer(pairs: 3, revealMilliseconds: 0, seed: nil)
    defer { server.stop() }
    let room = "python-\(strategy)"
    let common = ["--host", "127.0.0.1", "--port", String(server.port), "--room", room, "--games", "6", "--think-ms", "0"]
    let swiftBot = try Subprocess(try Tools.pairs(), ["bot"] + common + ["--name", "swift", "--seed", "3"])
    defer { swiftBot.terminate() }
    let pythonBot = try Subprocess(python, [script.path] + common + ["--strategy", strategy, "--name", "snake", "--seed", "4"])
    defer { pythonBot.terminate() }

    #expect(try await pythonBot.waitForExit(timeout: .seconds(60)) == 0, "python: \(pythonBot.errorText)")
    #expect(try await swiftBot.waitForExit(timeout: .seconds(30)) == 0, "swift: \(swiftBot.errorText)")
    let pythonGames = pythonBot.lines.compactMap(GameLine.init)
    let swiftGames = swiftBot.lines.compactMap(GameLine.init)
    #expect(pythonGames.count == 6)
    #expect(swiftGames.count == 6)
    for (snake, swift) in zip(pythonGames, swiftGames) {
        #expect(snake.name == "snake" && snake.opponent == "swift")
        #expect(snake.score + snake.opponentScore == 3)
        #expect(snake.score == swift.opponentScore && snake.opponentScore == swift.score)
    }
    #expect(pythonBot.lines.last?.hasPrefix("total: 6 games") == true)
}

@Test("the Python bot exits 1 with a message when it cannot connect")
func pythonBotCannotConnect() async throws {
    let python = try Tools.external("python3")
    let script = Tools.clientsDirectory.appendingPathComponent("python/pairs_bot.py")
    let (socket, port) = try refusingPort()
    defer { close(socket) }
    let bot = try Subprocess(python, [script.path, "--host", "127.0.0.1", "--port", String(port), "--games", "1"])
    defer { bot.terminate() }
    #expect(try await bot.waitForExit() == 1)
    #expect(bot.errorText.hasPrefix("pairs_bot.py: cannot connect to 127.0.0.1:\(port): "))
}
