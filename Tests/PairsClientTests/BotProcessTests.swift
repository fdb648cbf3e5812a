import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsServer
import Testing
import PairsTestSupport

@Test("two pairs bot processes play full games against a server, classic and three-card Matchismo with playing cards: every game ends and both tell it alike", .ownThread,
      .timeLimit(.minutes(3)), arguments: [
          ([String](), 10, 2 as Int?),
          // Matchismo's scores are anything (flips cost, matches earn): only that they mirror is checked.
          (["--match", "3", "--deck", "cards", "--scoring", "matchismo", "--pairs", "6"], 4, nil),
      ])
func botsPlayFullGames(rules: [String], games: Int, pairs: Int?) async throws {
    let pairsBinary = try Tools.pairs()
    let server = try startServer(pairs: 2, revealMilliseconds: 0, seed: nil)
    defer { server.stop() }
    let common = ["--host", "127.0.0.1", "--port", String(server.port), "--room", "many", "--games", String(games), "--think-ms", "0"]
        + rules
    let alpha = try Subprocess(pairsBinary, ["bot"] + common + ["--name", "alpha", "--strategy", "memory", "--seed", "1"])
    defer { alpha.terminate() }
    let beta = try Subprocess(pairsBinary, ["bot"] + common + ["--name", "beta", "--strategy", "random", "--seed", "2"])
    defer { beta.terminate() }

    #expect(try await alpha.waitForExit(timeout: .seconds(150)) == 0, "alpha: \(alpha.errorText)")
    #expect(try await beta.waitForExit(timeout: .seconds(30)) == 0, "beta: \(beta.errorText)")

    #expect(seriesDisagreements(alpha.lines.compactMap(GameLine.init), beta.lines.compactMap(GameLine.init),
                                names: ("alpha", "beta"), games: games, pairs: pairs) == [])
    #expect(alpha.lines.last?.hasPrefix("total: \(games) games") == true)
    // Even without thinking, the bots keep under the server's rate limit, and nothing else goes wrong.
    #expect(alpha.errorText.isEmpty && beta.errorText.isEmpty, "\(alpha.errorText)\(beta.errorText)")
    #expect(server.statistics().gamesFinished == games)
}

@Test("pairs bot --solo plays solo games to the end: cleared without a clock, time's up against a short one", .ownThread,
      .timeLimit(.minutes(2)))
func botPlaysSoloGames() async throws {
    let pairs = try Tools.pairs()
    let server = try startServer(pairs: 3, revealMilliseconds: 0, seed: nil)
    defer { server.stop() }
    let common = ["--host", "127.0.0.1", "--port", String(server.port), "--games", "3", "--solo"]
    let clearing = try Subprocess(pairs, ["bot"] + common + ["--think-ms", "0", "--name", "sol", "--seed", "1"])
    defer { clearing.terminate() }
    // Sixteen cards at 300 ms a flip take at least 4.8 s: a one-second clock always runs out first.
    let hurried = try Subprocess(pairs, ["bot"] + common + ["--think-ms", "300", "--game-seconds", "1", "--pairs", "8",
                                                            "--name", "dash", "--seed", "2"])
    defer { hurried.terminate() }

    #expect(try await clearing.waitForExit(timeout: .seconds(60)) == 0, "sol: \(clearing.errorText)")
    #expect(try await hurried.waitForExit(timeout: .seconds(60)) == 0, "dash: \(hurried.errorText)")
    let cleared = clearing.lines.compactMap(SoloLine.init)
    #expect(cleared.map(\.number) == [1, 2, 3])
    #expect(cleared.allSatisfy { $0.name == "sol" && $0.how == "cleared the board" && $0.points == 3 && $0.result == "won" },
            "\(clearing.lines)")
    #expect(clearing.lines.last == "total: 3 games, 3 won, 0 lost, 0 drawn")
    let timedOut = hurried.lines.compactMap(SoloLine.init)
    #expect(timedOut.count == 3)
    #expect(timedOut.allSatisfy { $0.how == "did not clear the board, time's up" && $0.result == "lost" }, "\(hurried.lines)")
    #expect(hurried.lines.last == "total: 3 games, 0 won, 3 lost, 0 drawn")
    #expect(server.statistics().gamesFinished == 6)
}

@Test("pairs bot plays full games against a server whose events are just their kind, and that sends fields, event kinds and messages it does not know, and says so once", .ownThread,
      .timeLimit(.minutes(2)))
func botsPlayAForeignServer() async throws {
    let foreign = try ForeignServer(pairs: 3)
    defer { foreign.stop() }
    let common = ["--host", "127.0.0.1", "--port", String(foreign.port), "--room", "foreign", "--games", "6", "--think-ms", "0"]
    let alpha = try Subprocess(try Tools.pairs(), ["bot"] + common + ["--name", "alpha", "--strategy", "memory", "--seed", "1"])
    defer { alpha.terminate() }
    let beta = try Subprocess(try Tools.pairs(), ["bot"] + common + ["--name", "beta", "--strategy", "random", "--seed", "2"])
    defer { beta.terminate() }

    #expect(try await alpha.waitForExit(timeout: .seconds(60)) == 0, "alpha: \(alpha.errorText)")
    #expect(try await beta.waitForExit(timeout: .seconds(30)) == 0, "beta: \(beta.errorText)")
    #expect(seriesDisagreements(alpha.lines.compactMap(GameLine.init), beta.lines.compactMap(GameLine.init),
                                names: ("alpha", "beta"), games: 6, pairs: 3) == [])
    // The first line through the proxy is a message of an unknown type; everything unknown after it goes
    // unsaid.
    let notice = "pairs bot: ignored parts of the server's messages it does not know (first: unknown message type \"\(ForeignServerLines.inventedType)\")\n"
    #expect(alpha.errorText == notice)
    #expect(beta.errorText == notice)
    #expect(foreign.tally.states > 6 * 3 * 2 && foreign.tally.inventedStates > 0 && foreign.tally.inventedMessages > 0)
}

@Test("pairs bot exits 1 with a clear message when nothing listens on the port", .ownThread)
func botCannotConnect() async throws {
    let (socket, port) = try Loopback.bind()
    defer { close(socket) }
    let bot = try Subprocess(try Tools.pairs(), ["bot", "--host", "127.0.0.1", "--port", String(port), "--games", "1"])
    defer { bot.terminate() }
    #expect(try await bot.waitForExit() == 1)
    #expect(bot.errorText == "pairs bot: cannot connect to 127.0.0.1:\(port): connection refused (is the server running, on that port?)\n")
    #expect(bot.lines.isEmpty)
}

@Test("pairs play exits 1 with a clear message when nothing listens on the port", .ownThread)
func playCannotConnect() async throws {
    let (socket, port) = try Loopback.bind()
    defer { close(socket) }
    let play = try Subprocess(try Tools.pairs(), ["play", "--host", "127.0.0.1", "--port", String(port)])
    defer { play.terminate() }
    #expect(try await play.waitForExit() == 1)
    #expect(play.errorText == "pairs play: cannot connect to 127.0.0.1:\(port): connection refused (is the server running, on that port?)\n")
}

@Test("pairs tournament join is pairs play entering a tournament: it says it cannot connect as pairs play does, under its own name, and exits 1", .ownThread)
func tournamentJoinCannotConnect() async throws {
    let (socket, port) = try Loopback.bind()
    defer { close(socket) }
    let join = try Subprocess(try Tools.pairs(), ["tournament", "join", "cup", "--host", "127.0.0.1", "--port", String(port)])
    defer { join.terminate() }
    #expect(try await join.waitForExit() == 1)
    #expect(join.errorText == "pairs tournament: cannot connect to 127.0.0.1:\(port): connection refused (is the server running, on that port?)\n")
}

@Test("bad options are refused with a message and exit status 2, before anything connects", .ownThread,
      arguments: [
          (["bot", "--strategy", "psychic"], "--strategy must be memory or random, not 'psychic'"),
          (["bot", "--games", "-1"], "--games must be a whole number from 0 to 1000000, not '-1'"),
          (["bot", "--think-ms", "soon"], "--think-ms must be a whole number from 0 to 10000, not 'soon'"),
          (["bot", "--room", "no way"], "--room must be 1-32 letters, digits, - or _, not 'no way'"),
          (["bot", "--colour", "red"], "unknown option --colour"),
          (["play", "--port", "99999"], "--port must be a whole number from 1 to 65535, not '99999'"),
          (["play", "--room", "a", "--watch", "b"], "--room and --watch cannot go together"),
          (["play", "--name", "\u{1B}"], "--name needs at least one printable character"),
          (["play", "kitchen"], "unexpected argument 'kitchen'"),
          (["play", "-x", "1"], "unknown option -x"),
          (["play", "-p"], "-p needs a value"),
          (["play", "-n", "abcdefghijklmnopqrstuvwxyz"], "--name 'abcdefghijklmnopqrstuvwxyz' is too long: a name is 24 characters at most"),
          (["bot", "-r", "no way"], "--room must be 1-32 letters, digits, - or _, not 'no way'"),
          (["load", "-n", "ann"], "unknown option -n"),
          (["serve", "-r", "kitchen"], "unknown option -r"),
          (["tournament", "join", "cup", "--rounds", "3"], "unknown option --rounds"),
          (["tournament", "join", "cup", "--password", "hunter2"],
           "--password takes no value (it would show in the process list): it asks for the password, or set PAIRS_PASSWORD"),
      ])
func badOptions(arguments: [String], message: String) async throws {
    let process = try Subprocess(try Tools.pairs(), arguments)
    defer { process.terminate() }
    #expect(try await process.waitForExit() == 2)
    // One line that says what is wrong, and where the options are: the mistake is not buried under the usage.
    #expect(process.errorText == "pairs \(arguments[0]): \(message)\nsee pairs \(arguments[0]) --help\n")
    #expect(process.lines.isEmpty)
}

@Test("the common options have short forms, as nc and redis-cli have: -h HOST -p PORT -r ROOM -n NAME", .ownThread,
      .timeLimit(.minutes(1)))
func shortFlags() async throws {
    let pairs = try Tools.pairs()
    let server = try startServer(pairs: 2)
    defer { server.stop() }
    let short = ["-h", "127.0.0.1", "-p", String(server.port), "-r", "short"]
    let play = try Subprocess(pairs, ["play"] + short + ["-n", "ann"])
    defer { play.terminate() }
    try await play.waitForLine("ann's seat") { $0 == "you joined room short as player 1" }
    // getopt's attached form works too.
    let bot = try Subprocess(pairs, ["bot", "-h127.0.0.1", "-p\(server.port)", "-rshort", "-nrobo", "--games", "1", "--think-ms", "0"])
    defer { bot.terminate() }
    try await play.waitForLine("the bot's name, in the game") { $0.hasPrefix("game 1 started: robo goes first") || $0 == "game 1 started: you go first" }
    play.write("/quit\n")
    #expect(try await play.waitForExit() == 0, "\(play.errorText)")
    #expect(try await bot.waitForExit() == 0, "\(bot.errorText)")

    let serve = try Subprocess(pairs, ["serve", "-h", "127.0.0.1", "-p", "0", "--data", "none"])
    defer { serve.terminate() }
    try await serve.waitForLine("the server to listen") { $0.hasPrefix("pairs listening on 127.0.0.1:") }
    serve.terminate()
    #expect(try await serve.waitForExit() == 0)
}

@Test("-h with no host after it is still help, for the habit; with a host it is the host", .ownThread, arguments: [
    ["play", "-h"], ["bot", "-h"], ["load", "-h"], ["serve", "-h"], ["play", "-h", "--room", "r"], ["play", "--help"],
])
func shortHelp(arguments: [String]) async throws {
    let process = try Subprocess(try Tools.pairs(), arguments)
    defer { process.terminate() }
    #expect(try await process.waitForExit() == 0)
    #expect(process.lines.first == "usage: pairs \(arguments[0]) [options]")
    #expect(process.lines.contains { $0.contains("--host, -h ") })
    #expect(process.lines.contains { $0.contains("this help (so is -h with no") })
}

@Test("--help describes each command's options and exits 0", .ownThread, arguments: ["play", "bot"])
func helpForCommands(command: String) async throws {
    let process = try Subprocess(try Tools.pairs(), [command, "--help"])
    defer { process.terminate() }
    #expect(try await process.waitForExit() == 0)
    let help = process.lines.joined(separator: "\n")
    #expect(help.hasPrefix("usage: pairs \(command)"))
    for flag in ["--host, -h HOST", "--port, -p N", "--room, -r ROOM", "--name, -n NAME"] { #expect(help.contains(flag)) }
}

@Test("pairs bot and pairs play say when the room they sat down in plays other rules than they asked for: a classic room's board and clock are read from its start", .ownThread,
      .timeLimit(.minutes(1)))
func otherRulesAreSaid() async throws {
    let pairs = try Tools.pairs()
    let server = try startServer(pairs: 3, turnSeconds: 30)
    defer { server.stop() }
    let endpoint = ["--host", "127.0.0.1", "--port", String(server.port)]
    // ann makes room r1 with the server's rules; a bot that asked for others sits down in it.
    let ann = try Subprocess(pairs, ["play"] + endpoint + ["--room", "r1", "--name", "ann"])
    defer { ann.terminate() }
    try await ann.waitForLine("ann's seat") { $0 == "you joined room r1 as player 1" }
    let bot = try Subprocess(pairs, ["bot"] + endpoint + ["--room", "r1", "--pairs", "2", "--turn-seconds", "10", "--think-ms", "50"])
    defer { bot.terminate() }
    try await waitUntil("the bot's warning; stderr: \(bot.errorText)") {
        bot.errorText == "pairs bot: room r1 plays other rules: 3 pairs, 30-second turns; your --pairs 2 --turn-seconds 10 were ignored\n"
    }
    ann.write("/quit\n")
    #expect(try await ann.waitForExit() == 0)

    // The other way round: a bot makes room r2, and bob asks for a board of two pairs.
    let maker = try Subprocess(pairs, ["bot"] + endpoint + ["--room", "r2", "--think-ms", "50"])
    defer { maker.terminate() }
    try await waitUntil("room r2") { server.statistics().rooms == 2 }
    let bob = try Subprocess(pairs, ["play"] + endpoint + ["--room", "r2", "--name", "bob", "--pairs", "2"])
    defer { bob.terminate() }
    try await bob.waitForLine("bob's warning") { $0 == "room r2 plays other rules: 3 pairs; your --pairs 2 was ignored" }
    bob.write("/quit\n")
    #expect(try await bob.waitForExit() == 0)
}
