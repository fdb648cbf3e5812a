import Foundation
import Testing
import PairsTestSupport

/// The face-down cards on a `pairs play` screen: each shows its number and `···`.
func faceDownCards(on screen: String) -> [Int] {
    let words = screen.split(whereSeparator: { $0 == " " || $0 == "\n" })
    return words.indices.dropLast().compactMap { index in
        words[index + 1] == "···" ? Int(words[index]) : nil
    }
}

@Test("a person plays a whole game of pairs play in a terminal against a bot: board, scores, turn, clock, result", .ownThread,
      Tools.needs("tmux"), .timeLimit(.minutes(2)))
func playAWholeGameInATerminal() async throws {
    let pairs = try Tools.pairs()
    let server = try startServer(pairs: 3, revealMilliseconds: 300, seed: 21)
    defer { server.stop() }
    let endpoint = ["--host", "127.0.0.1", "--port", String(server.port), "--room", "tty"]
    let bot = try Subprocess(pairs, ["bot"] + endpoint + ["--games", "2", "--think-ms", "100", "--name", "robo", "--seed", "5"])
    defer { bot.terminate() }
    try await withTmux([pairs.path, "play"] + endpoint + ["--name", "ann"], environment: ["TERM": "xterm-256color"]) { terminal in

    var screen = try await terminal.waitForScreen("the game to start") { $0.contains("game 1") && $0.contains("robo") }
    #expect(try await terminal.isAlternateScreenOn())
    #expect(screen.contains("room tty"))
    #expect(screen.contains("ann² (you) 0") || screen.contains("ann¹ (you) 0"))
    #expect(screen.contains("series: "))

    // Nonsense gets an answer in words.
    try await terminal.type("banana")
    try await terminal.waitForScreen("the complaint") { $0.contains("\"banana\" is not a command") }
    try await terminal.type("/say good luck")
    try await terminal.waitForScreen("the chat line") { $0.contains(": good luck") }

    var sawMyTurn = false
    var sawClock = false
    for _ in 0..<60 {
        screen = try await terminal.waitForScreen("my turn or the end", timeout: .seconds(20)) {
            $0.contains("YOUR TURN") || $0.contains("GAME OVER")
        }
        if screen.contains("GAME OVER") { break }
        sawMyTurn = true
        sawClock = sawClock || screen.range(of: #"\d:\d\d left"#, options: .regularExpression) != nil
        let card = try #require(faceDownCards(on: screen).first, "no face-down card on:\n\(screen)")
        try await terminal.type(String(card))
        // The card turns over (or the game moves on) before the next look.
        try await terminal.waitForScreen("card \(card) to turn") { !faceDownCards(on: $0).contains(card) || $0.contains("GAME OVER") }
    }
    #expect(sawMyTurn)
    #expect(sawClock)
    #expect(screen.contains("GAME OVER: "))
    #expect(screen.contains("you win") || screen.contains("robo wins") || screen.contains("a draw"))
    #expect(faceDownCards(on: screen).isEmpty)
    #expect(screen.contains("¹") && screen.contains("²") || screen.filter { $0 == "¹" }.count >= 6 || screen.filter { $0 == "²" }.count >= 6)
    #expect(screen.contains("flipped"))
    #expect(screen.contains("series: ann ") || screen.contains("series: robo "))
    #expect(!screen.contains("{\""), "raw JSON on screen")

    // Quitting puts the terminal back and says how the last game went.
    try await terminal.type("/quit")
    let after = try await terminal.waitForScreen("the exit") { $0.contains("[exit ") }
    #expect(after.contains("[exit 0]"))
    #expect(try await !terminal.isAlternateScreenOn())
    #expect(after.contains("game over: "))
    #expect(after.contains("connecting to 127.0.0.1:\(server.port)…"))
    #expect(!after.contains("YOUR TURN"))
    }
}
