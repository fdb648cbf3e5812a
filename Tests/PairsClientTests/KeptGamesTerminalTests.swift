import Foundation
import PairsTestSupport
import Testing

/// "step N of M" on a replay's screen.
private func step(on screen: String) -> (shown: Int, total: Int)? {
    guard let range = screen.range(of: #"step \d+ of \d+"#, options: .regularExpression) else { return nil }
    let numbers = screen[range].split(separator: " ").compactMap { Int($0) }
    return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
}

/// Waits for the command in `terminal` to exit with `status`, and checks the terminal is as it was: the
/// normal screen, and what is typed shows again (to the shell's `read`, without Enter). Returns the screen.
@discardableResult
private func expectRestored(_ terminal: Tmux, status: Int32) async throws -> String {
    let after = try await terminal.waitForScreen("the exit") { $0.contains("[exit ") }
    #expect(after.contains("[exit \(status)]"))
    #expect(try await !terminal.isAlternateScreenOn())
    try await terminal.press("echoing")
    try await terminal.waitForScreen("the typed word") { $0.contains("echoing") }
    return after
}

@Suite("pairs replay and claimed names in a terminal", .ownThread)
struct KeptGamesTerminalTests {
    @Test("pairs replay in a terminal draws the game with pairs play's screen: space steps forward, b back, G to the end, q quits and the terminal is back",
          Tools.needs("tmux"), .timeLimit(.minutes(3)))
    func replayStepsThroughTheGame() async throws {
        try await withKeptGamesServer(["--pairs", "3", "--reveal-ms", "0"]) { server in
        _ = try await server.playClaimedGames(1, room: "shown")
        try await withTmux([try Tools.pairs().path, "replay", "1"] + server.endpoint, environment: ["NO_COLOR": "1"]) { terminal in
        let first = try await terminal.waitForScreen("the first step") { step(on: $0)?.shown == 1 }
        #expect(try await terminal.isAlternateScreenOn())
        #expect(first.contains("replay of game 1") && first.contains("room shown"))
        #expect(first.contains("game 1 started"))
        #expect(first.contains("0 ···"), "the board, face down")
        let total = try #require(step(on: first)?.total)
        #expect(total > 3)
        try await terminal.press("Space")
        try await terminal.waitForScreen("step 2") { step(on: $0)?.shown == 2 }
        try await terminal.press("Enter")
        let third = try await terminal.waitForScreen("step 3") { step(on: $0)?.shown == 3 }
        #expect(third.contains("flipped"))
        try await terminal.press("b")
        try await terminal.waitForScreen("back to step 2") { step(on: $0)?.shown == 2 }
        try await terminal.press("G")
        let last = try await terminal.waitForScreen("the last step") { step(on: $0)?.shown == total }
        #expect(last.contains("GAME OVER: "))
        #expect(!last.contains("···"), "every card is taken at the end")
        try await terminal.press("q")
        let after = try await expectRestored(terminal, status: 0)
        #expect(after.contains("replay of game 1, room shown"))
        }
        }
    }

    @Test("pairs replay --speed plays the game to its end by itself; Ctrl-C then still puts the terminal back, with status 130",
          Tools.needs("tmux"), .timeLimit(.minutes(3)))
    func replayPlaysItself() async throws {
        try await withKeptGamesServer(["--pairs", "3", "--reveal-ms", "0"]) { server in
        _ = try await server.playClaimedGames(1, room: "fast")
        try await withTmux([try Tools.pairs().path, "replay", "1", "--speed", "20"] + server.endpoint, environment: ["NO_COLOR": "1"]) { terminal in
        let end = try await terminal.waitForScreen("the end, without a key", timeout: .seconds(60)) { $0.contains("· the end") }
        #expect(end.contains("GAME OVER: "))
        try await terminal.press("C-c")
        try await expectRestored(terminal, status: 130)
        }
        }
    }

    @Test("pairs play with a claimed name asks for its password without showing it, asks again after a wrong one, then plays; /history and /top show the answers",
          Tools.needs("tmux"), .timeLimit(.minutes(3)))
    func playAsksForThePassword() async throws {
        try await withKeptGamesServer(["--pairs", "3", "--reveal-ms", "0"]) { server in
        _ = try await server.playClaimedGames(1, room: "earlier")
        try await withTmux([try Tools.pairs().path, "play", "--name", "ann", "--room", "typed"] + server.endpoint,
                           environment: ["NO_COLOR": "1", "TZ": "UTC"]) { terminal in
        try await terminal.waitForScreen("the question") { $0.contains("the name ann belongs to someone; password for ann:") }
        try await terminal.type("not it")
        try await terminal.waitForScreen("the second question") { $0.contains("that is not the password of ann; try again:") }
        try await terminal.type("ann's secret")
        let seated = try await terminal.waitForScreen("the room") { $0.contains("room typed") && $0.contains("ann¹ (you)") }
        #expect(!seated.contains("not it") && !seated.contains("ann's secret"))
        try await terminal.type("/history")
        let history = try await terminal.waitForScreen("the history") { $0.contains("ann") && $0.contains("bob") && $0.contains("cleared") }
        #expect(history.contains("game  when"))
        try await terminal.type("/top")
        let top = try await terminal.waitForScreen("the ladder") { $0.contains("the classic game's ladder") }
        #expect(top.contains("rank  name  rating"))
        #expect(top.range(of: #"1  (ann|bob) +1\d\d\d\?"#, options: .regularExpression) != nil, "\(top)")
        try await terminal.type("/quit")
        let after = try await terminal.waitForScreen("the exit") { $0.contains("[exit ") }
        #expect(after.contains("[exit 0]"))
        #expect(!after.contains("not it") && !after.contains("ann's secret"), "the password never shows")
        }
        }
    }
}
