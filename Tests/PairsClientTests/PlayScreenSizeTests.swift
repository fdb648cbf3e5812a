import Foundation
import PairsClient
import Testing
import PairsTestSupport

// The real `pairs play` in real terminals of the sizes people have: the standard 80x24, the smallest it
// promises to fit (40x12), and a tall one, against a real server and bot.

/// What a person would see go wrong if a line wrapped: the title not on the first row, the prompt not on the
/// row above the spare one, a row running into the last column. Nil when the screen is whole.
private func wrapProblem(_ screen: String, columns: Int, rows: Int) -> String? {
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.first?.hasPrefix("Pairs · room ") == true else { return "the title is not on the first row" }
    guard lines.count >= rows - 1, lines[rows - 2].hasPrefix(">") else { return "the prompt is not on row \(rows - 1)" }
    if let wide = lines.first(where: { TerminalText.width($0) > columns - 1 }) { return "a row reaches the last column: \(wide)" }
    return nil
}

@Test("the screen fits 80x24, 40x12 and a tall terminal: the title stays on top, the prompt keeps its row, typed digits land on it, both names show", .ownThread,
      Tools.needs("tmux"), .timeLimit(.minutes(2)),
      arguments: [(80, 24), (40, 12), (100, 45)])
func screenFitsTheTerminal(columns: Int, rows: Int) async throws {
    let pairs = try Tools.pairs()
    // A mismatch stays up long enough for the screen to be seen with it.
    let server = try startServer(pairs: 8, revealMilliseconds: 1_000, seed: 7)
    defer { server.stop() }
    let room = "size\(columns)x\(rows)"
    let endpoint = ["--host", "127.0.0.1", "--port", String(server.port), "--room", room]
    let bot = try Subprocess(pairs, ["bot"] + endpoint + ["--think-ms", "50", "--name", "robo", "--seed", "3"])
    defer { bot.terminate() }
    try await withTmux([pairs.path, "play"] + endpoint + ["--name", "ann"], environment: ["TERM": "xterm-256color"],
                       columns: columns, rows: rows) { terminal in
        var screen = try await terminal.waitForScreen("the game") { $0.contains("game 1") && $0.contains("robo") }
        #expect(wrapProblem(screen, columns: columns, rows: rows) == nil, "\(screen)")
        // Whoever sat down first has seat 1.
        #expect(screen.contains("robo¹ 0") && screen.contains("ann² (you) 0") || screen.contains("ann¹ (you) 0") && screen.contains("robo² 0"))
        #expect(screen.contains("/help"))

        // /help's lines are more than a small screen has: the notice says how many did not fit.
        try await terminal.type("/help")
        screen = try await terminal.waitForScreen("the help") { $0.contains("» N + Enter") }
        #expect(wrapProblem(screen, columns: columns, rows: rows) == nil, "\(screen)")
        if rows < 20 { #expect(screen.contains("more lines: enlarge the terminal")) }

        // A digit typed (not yet entered) shows on the prompt, and a redraw leaves it there.
        try await terminal.press("7")
        screen = try await terminal.waitForScreen("the digit on the prompt") { screen in
            screen.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(rows - 2).first == "> 7"
        }
        try await terminal.press("BSpace")

        // Play on to the end, turn by turn: the screen stays whole all along, and on a tall terminal the
        // event log shows more than the six lines it once had.
        var mostEvents = 0
        for _ in 0..<80 {
            screen = try await terminal.waitForScreen("my turn or the end", timeout: .seconds(20)) {
                $0.contains("YOUR TURN") || $0.contains("GAME OVER")
            }
            #expect(wrapProblem(screen, columns: columns, rows: rows) == nil, "\(screen)")
            mostEvents = max(mostEvents, screen.components(separatedBy: " flipped ").count - 1)
            if screen.contains("GAME OVER") { break }
            let card = try #require(faceDownCards(on: screen).first, "no face-down card on:\n\(screen)")
            // The flip shows as the card face up, or, once a mismatch has turned it back (a poll of a busy
            // machine can miss the reveal), as one more "you flipped N:" line in the log.
            let flipLine = "you flipped \(card):"
            let flipsBefore = screen.components(separatedBy: flipLine).count
            try await terminal.type(String(card))
            try await terminal.waitForScreen("card \(card) to turn") {
                !faceDownCards(on: $0).contains(card) || $0.components(separatedBy: flipLine).count > flipsBefore || $0.contains("GAME OVER")
            }
        }
        #expect(screen.contains("GAME OVER"))
        if rows >= 40 { #expect(mostEvents > 6, "\(screen)") }
    }
}
