import Foundation
import Testing
import PairsTestSupport

/// The face-down cards of a plain `board:` line (`board: 0 1 2=cat¹ 3 4=[dog] 5` gives 0, 1, 3, 5).
private func faceDownCards(_ line: String) -> [Int] {
    line.dropFirst("board: ".count).split(separator: " ").compactMap { Int($0) }
}

@Test("with its output in a pipe, pairs play prints one plain line per event and can be played by a script", .ownThread,
      .timeLimit(.minutes(2)))
func playIsScriptable() async throws {
    let pairs = try Tools.pairs()
    let server = try startServer(pairs: 3, revealMilliseconds: 0, seed: 5)
    defer { server.stop() }
    let endpoint = ["--host", "127.0.0.1", "--port", String(server.port), "--room", "plain"]
    let bot = try Subprocess(pairs, ["bot"] + endpoint + ["--games", "2", "--think-ms", "20", "--name", "robo", "--seed", "8"])
    defer { bot.terminate() }
    let ann = try Subprocess(pairs, ["play"] + endpoint + ["--name", "ann"], environment: ["NO_COLOR": "", "TERM": "xterm"])
    defer { ann.terminate() }

    try await ann.waitForLine("joining") { $0.hasPrefix("you joined room plain as player") }
    var next = 0
    var over: String?
    // A turn is two flips; a 3-pair game has at most a handful of turns each. The bound only stops a
    // runaway loop; the deadline of each wait stops a stuck one.
    for _ in 0..<40 {
        let (index, line) = try await ann.waitForLine(from: next, timeout: .seconds(20), "my turn or the end") {
            $0.hasPrefix("board: ") || $0.hasPrefix("game over: ")
        }
        next = index + 1
        if line.hasPrefix("game over: ") { over = line; break }
        let cards = faceDownCards(line)
        #expect(cards.count >= 2, "\(line)")
        ann.write("\(cards[0])\n\(cards[1])\n")
    }
    let result = try #require(over)
    #expect(result.contains("you win") || result.contains("robo wins") || result.contains("a draw"))
    try await ann.waitForLine(from: next, "the series") { $0.hasPrefix("series: ann ") || $0.hasPrefix("series: robo ") }

    ann.write("banana\n/quit\n")
    #expect(try await ann.waitForExit() == 0, "\(ann.errorText)")
    let transcript = ann.lines
    #expect(transcript.first == "connected to 127.0.0.1:\(server.port) (pairs dev)")
    #expect(transcript.contains("game 1 started: robo goes first") || transcript.contains("game 1 started: you go first"))
    #expect(transcript.contains { $0.hasPrefix("you flipped ") })
    #expect(transcript.contains { $0.hasPrefix("robo flipped ") })
    #expect(transcript.contains("error: \"banana\" is not a command: type a card number to flip it, or /help"))
    // Plain means plain: no JSON and no escape sequences, only words.
    #expect(!transcript.contains { $0.contains("{") || $0.contains("\u{1B}") })
}
