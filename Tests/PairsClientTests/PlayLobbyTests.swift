import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import PairsTestSupport

// The lobby of `pairs play`, driven through its plain output: what there is to see before and between games.

@Test("/list, /who and /stats answer in words in a room and in the lobby; /watch shows a spectator the board at every turn; nothing is hinted after /quit", .ownThread,
      .timeLimit(.minutes(1)))
func lobbyCommands() async throws {
    let pairs = try Tools.pairs()
    let server = try startServer(pairs: 3, seed: 9)
    defer { server.stop() }
    let endpoint = ["--host", "127.0.0.1", "--port", String(server.port)]
    let robo = try Subprocess(pairs, ["bot"] + endpoint + ["--room", "den", "--think-ms", "150", "--name", "robo", "--seed", "1"])
    defer { robo.terminate() }
    let zed = try Subprocess(pairs, ["bot"] + endpoint + ["--room", "den", "--think-ms", "150", "--name", "zed", "--seed", "2"])
    defer { zed.terminate() }
    let ann = try Subprocess(pairs, ["play"] + endpoint + ["--room", "lob", "--name", "ann"])
    defer { ann.terminate() }
    try await ann.waitForLine("ann's seat") { $0 == "you joined room lob as player 1" }
    try await waitUntil("the bots' game") { server.statistics().gamesActive == 1 }

    ann.write("/list\n")
    var (at, _) = try await ann.waitForLine("the rooms") { $0 == "2 rooms:" }
    // Rooms with a free seat come first.
    try await ann.waitForLine(from: at, "lob") { $0 == "lob · waiting · ann, (free seat) · 3 pairs" }
    // The bots sat down in either order.
    try await ann.waitForLine(from: at, "den") {
        $0.hasPrefix("den · ") && ($0.contains(" · robo, zed · 3 pairs") || $0.contains(" · zed, robo · 3 pairs"))
    }
    ann.write("/who\n")
    try await ann.waitForLine(from: at, "who is here") { $0 == "in room lob: ann¹ (you) and a free seat" }
    ann.write("/leave\n")
    (at, _) = try await ann.waitForLine(from: at, "the lobby") { $0 == "you left room lob; type /join [ROOM] to play again, or /quit" }
    ann.write("/who\n")
    try await ann.waitForLine(from: at, "who is where") { $0.hasPrefix("robo and zed in den (") || $0.hasPrefix("zed and robo in den (") }
    ann.write("/stats\n")
    try await ann.waitForLine(from: at, "the counters") { $0.hasPrefix("server: 3 connections, 1 room, ") }

    ann.write("/watch den\n")
    (at, _) = try await ann.waitForLine(from: at, "watching") { $0 == "watching room den" }
    try await ann.waitForLine(from: at, "the board on arrival") { $0.hasPrefix("board: 0") }
    // At every turn a spectator is shown the board.
    let (turn, _) = try await ann.waitForLine(from: at + 2, timeout: .seconds(20), "a turn") {
        $0 == "robo's turn" || $0 == "zed's turn"
    }
    try await waitUntil("the board after the turn line") { ann.lines.count > turn + 1 }
    #expect(ann.lines[turn + 1].hasPrefix("board: "), "\(ann.lines.suffix(8))")

    ann.write("/quit\n")
    #expect(try await ann.waitForExit() == 0, "\(ann.errorText)")
    let afterQuit = ann.lines.suffix(from: ann.lines.lastIndex(where: { $0.hasPrefix("board: ") }) ?? 0)
    #expect(!afterQuit.contains { $0.contains("type /") }, "\(afterQuit)")
}

@Test("pairs play --watch of a room that is not there, printing plain lines, says so and exits 1 instead of waiting", .ownThread)
func watchingNothingExits() async throws {
    let server = try startServer()
    defer { server.stop() }
    // Standard input stays open, as a terminal's does under `pairs play --watch nosuch | cat`.
    let watcher = try Subprocess(try Tools.pairs(), ["play", "--host", "127.0.0.1", "--port", String(server.port), "--watch", "nosuch"])
    defer { watcher.terminate() }
    #expect(try await watcher.waitForExit() == 1)
    #expect(watcher.errorText == "pairs play: no room is called nosuch\n")
}
