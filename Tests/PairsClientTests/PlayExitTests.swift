import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsServer
import Testing
import PairsTestSupport

// The ways out of `pairs play` in a terminal, with real keys and signals: during a game each asks before
// forfeiting; a closed terminal keeps the seat for the next run.

/// A server, a bot in `room` that plays on until stopped, and what `pairs play` needs to join it as ann.
///
/// Ann never flips, so the game lasts while the bot does not clear the board in one run of matches: on 8
/// pairs it cannot by luck (on 3 it did, now and then, before a slow machine let ann type `/leave`).
private func table(_ room: String) throws -> (server: Server, bot: Subprocess, command: [String]) {
    let pairs = try Tools.pairs()
    let server = try startServer(pairs: 8, seed: 4)
    let endpoint = ["--host", "127.0.0.1", "--port", String(server.port), "--room", room]
    let bot = try Subprocess(pairs, ["bot"] + endpoint + ["--think-ms", "100", "--name", "robo"])
    return (server, bot, [pairs.path, "play"] + endpoint + ["--name", "ann"])
}

@Test("during a game Ctrl-C asks first; Enter stays in the game; Ctrl-D and /quit ask too, and Ctrl-C then leaves, forfeits, restores the terminal and exits 130", .ownThread,
      Tools.needs("tmux"), .timeLimit(.minutes(1)))
func controlCAsksDuringAGame() async throws {
    let (server, bot, command) = try table("ctrlc")
    defer { server.stop(); bot.terminate() }
    try await withTmux(command, environment: ["NO_COLOR": "1"]) { terminal in
        try await terminal.waitForScreen("the game") { $0.contains("game 1") }
        try await terminal.press("C-c")
        try await terminal.waitForScreen("the question") { $0.contains("» leave and forfeit? Ctrl-C again or y") }
        try await terminal.type("")
        try await terminal.waitForScreen("staying") { $0.contains("» staying in the game") }
        // Ctrl-D (the end of a terminal's input, which more input may follow) asks as /quit does.
        try await terminal.press("C-d")
        try await terminal.waitForScreen("the question on Ctrl-D") { $0.contains("» leave and forfeit? Ctrl-C again or y") }
        try await terminal.type("")
        try await terminal.waitForScreen("staying again") { $0.contains("» staying in the game") }
        #expect(server.statistics().gamesFinished == 0)
        try await terminal.type("/quit")
        try await terminal.waitForScreen("the question again") { $0.contains("» leave and forfeit? Ctrl-C again or y") }
        try await terminal.press("C-c")
        let after = try await terminal.waitForScreen("the exit") { $0.contains("[exit ") }
        #expect(after.contains("[exit 130]"))
        #expect(try await !terminal.isAlternateScreenOn())
    }
    // The bot saw ann go at once, not after a grace period.
    try await waitUntil("the bot to see ann leave") { server.statistics().gamesFinished == 1 }
}

@Test("during a game /leave asks, y leaves (forfeiting) for the lobby; outside a game /quit and Ctrl-C act at once", .ownThread,
      Tools.needs("tmux"), .timeLimit(.minutes(1)))
func leaveAsksDuringAGame() async throws {
    let (server, bot, command) = try table("leave")
    defer { server.stop(); bot.terminate() }
    try await withTmux(command, environment: ["NO_COLOR": "1"]) { terminal in
        try await terminal.waitForScreen("the game") { $0.contains("game 1") }
        try await terminal.type("/leave")
        try await terminal.waitForScreen("the question") { $0.contains("» leave and forfeit? y + Enter") }
        try await terminal.type("y")
        try await terminal.waitForScreen("the lobby") { $0.contains("in the lobby: type /join [ROOM] to play") }
        #expect(server.statistics().gamesFinished == 1)
        try await terminal.type("/quit")
        let after = try await terminal.waitForScreen("the exit") { $0.contains("[exit ") }
        #expect(after.contains("[exit 0]"))
    }
    // Waiting alone in a room is no game: Ctrl-C goes at once.
    try await withTmux(Array(command.dropLast(4)) + ["--room", "alone", "--name", "ann"], environment: ["NO_COLOR": "1"]) { terminal in
        try await terminal.waitForScreen("the wait") { $0.contains("waiting for an opponent") }
        try await terminal.press("C-c")
        let after = try await terminal.waitForScreen("the exit") { $0.contains("[exit ") }
        #expect(after.contains("[exit 130]"))
    }
}

@Test("closing the terminal (SIGHUP) mid-game drops the connection without forfeiting; the same command in a new terminal takes the seat back", .ownThread,
      Tools.needs("tmux"), .timeLimit(.minutes(1)))
func hangUpKeepsTheSeat() async throws {
    let (server, bot, command) = try table("hup")
    defer { server.stop(); bot.terminate() }
    let state = StateDirectory()
    defer { state.remove() }
    let first = try await Tmux(command, environment: state.environment.merging(["NO_COLOR": "1"]) { $1 })
    do {
        try await first.waitForScreen("the game") { $0.contains("game 1") }
        #expect(state.seatFiles.count == 1)
    } catch {
        await first.kill()
        throw error
    }
    // The terminal goes away: tmux hangs up on everything in it.
    await first.kill()
    try await waitUntil("ann to be away") { server.statistics().connections == 1 }
    #expect(server.statistics().gamesFinished == 0)
    #expect(state.seatFiles.count == 1)
    try await withTmux(command, environment: state.environment.merging(["NO_COLOR": "1"]) { $1 }) { terminal in
        try await terminal.waitForScreen("the seat back") { $0.contains("back in room hup, in the seat you had") }
        #expect(server.statistics().gamesFinished == 0)
        try await terminal.type("/quit")
        try await terminal.waitForScreen("the question") { $0.contains("» leave and forfeit?") }
        try await terminal.type("y")
        try await terminal.waitForScreen("the exit") { $0.contains("[exit 0]") }
    }
    try await waitUntil("the forfeit") { server.statistics().gamesFinished == 1 }
    #expect(state.seatFiles.isEmpty)
}

@Test("the terminal's bell rings when ann's turn begins, and not with --quiet", .ownThread, Tools.needs("tmux"), .timeLimit(.minutes(1)),
      arguments: [false, true])
func bellOnYourTurn(quiet: Bool) async throws {
    let pairs = try Tools.pairs()
    let server = try startServer(pairs: 3, seed: 4)
    defer { server.stop() }
    let room = quiet ? "bellq" : "bell"
    let endpoint = ["--host", "127.0.0.1", "--port", String(server.port), "--room", room]
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("pairs-bell-\(UUID().uuidString)").path
    defer { unlink(output) }
    try await withTmux([pairs.path, "play"] + endpoint + ["--name", "ann"] + (quiet ? ["--quiet"] : []), environment: ["NO_COLOR": "1"]) { terminal in
        try await terminal.waitForScreen("the wait") { $0.contains("waiting for an opponent") }
        try await terminal.recordOutput(to: output)
        // The first game starts with ann, the room's first player: her turn begins with it.
        let bot = try Subprocess(pairs, ["bot"] + endpoint + ["--think-ms", "100", "--name", "robo"])
        defer { bot.terminate() }
        try await terminal.waitForScreen("ann's turn") { $0.contains("YOUR TURN") }
        // The screen drawn with the turn has reached the file when its clock is redrawn a second later.
        try await waitUntil("the recorded screen") {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("YOUR TURN")
        }
        let recorded = try String(contentsOfFile: output, encoding: .utf8)
        #expect(recorded.contains("\u{07}") == !quiet)
    }
}
