import Foundation
import PairsWire
#if canImport(Glibc)
import Glibc
#endif
import PairsClient
import Testing
import PairsTestSupport

// The terminal client at the size most terminals open at, 80x24: what a player must know is never cut
// short, and every way out says how the game went.

/// The screen's text as one flow of words: rows trimmed and joined with a space, so a sentence wrapped over
/// two rows reads as it was written.
private func flowing(_ screen: String) -> String {
    screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
}

/// The rows of `screen` that end cut short, but for the header, which gives up its least useful parts
/// first and may end in "…" when the connection is being retried.
private func cutRows(_ screen: String) -> [String] {
    screen.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("Pairs ·") && $0.trimmingCharacters(in: .whitespaces).hasSuffix("…") }
}

/// `pairs serve` keeping nothing, on `port` (0: a free one), and the port it listens on.
private func serve(port: Int = 0) async throws -> (Subprocess, Int) {
    let server = try Subprocess(try Tools.pairs(), ["serve", "--host", "127.0.0.1", "--port", String(port), "--data", "none",
                                                    "--pairs", "8", "--log-level", "error"])
    let (_, line) = try await server.waitForLine("the server to listen") { $0.hasPrefix("pairs listening on 127.0.0.1:") }
    return (server, try #require(Int(line.split(separator: ":").last ?? "")))
}

@Suite("pairs play and pairs bot at 80x24", .ownThread)
struct EightyColumnsTests {
    @Test("a seat saved from last time that is gone, and a seat and game lost to a server restart, are said whole at 80 columns",
          Tools.needs("tmux"), .timeLimit(.minutes(2)))
    func seatNewsIsWhole() async throws {
        let (first, port) = try await serve()
        defer { first.terminate() }
        let state = StateDirectory()
        defer { state.remove() }
        // A seat saved by an earlier run, whose token this server never gave out.
        let endpoint = ServerEndpoint(host: "127.0.0.1", port: port)
        try SavedSeats(directory: state.seatsDirectory).save("0123456789abcdef0123456789abcdef",
                                                            for: SavedSeats.Key(endpoint: endpoint, room: "kitchen", name: "ann"))
        // Saved by a run that has ended, not by this process (which is running, so its seat would be in use).
        for file in state.seatFiles {
            let path = state.seatsDirectory + "/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try text.replacingOccurrences(of: "pid \(getpid())\n", with: "pid 0\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        let flags = ["--host", "127.0.0.1", "--port", String(port), "--room", "kitchen"]
        // A slow bot, so the news at the start stays in the event log while the screen is read.
        let bot = try Subprocess(try Tools.pairs(), ["bot"] + flags + ["--think-ms", "1500", "--name", "robo", "--seed", "2"])
        defer { bot.terminate() }
        try await withTmux([try Tools.pairs().path, "play"] + flags + ["--name", "ann"],
                           environment: state.environment.merging(["NO_COLOR": "1"]) { $1 }, columns: 80, rows: 24) { terminal in
            let gone = "the seat saved from last time is gone (that token is unknown, expired or already used); joining room kitchen afresh"
            var screen = try await terminal.waitForScreen("the game, and the news of the seat", timeout: .seconds(30)) {
                $0.contains("game 1") && flowing($0).contains(gone)
            }
            #expect(cutRows(screen).isEmpty, "\(screen)")

            // A crash and a new server on the same port: the seat and the game are gone with the first.
            kill(first.pid, SIGKILL)
            _ = try await first.waitForExit()
            let (second, _) = try await serve(port: port)
            defer { second.terminate() }
            let lost = "your seat in room kitchen and game 1 are lost: the server restarted, or gave the seat away after its grace period"
            screen = try await terminal.waitForScreen("the news of the restart", timeout: .seconds(30)) { flowing($0).contains(lost) }
            #expect(cutRows(screen).isEmpty, "\(screen)")
        }
    }

    @Test("watching a Matchismo game of player107 and player208, each score line and a lost connection are said whole at 80 columns",
          Tools.needs("tmux"), .timeLimit(.minutes(2)))
    func gameNewsIsWhole() async throws {
        let server = try startServer(pairs: 4, revealMilliseconds: 0, seed: 7)
        defer { server.stop() }
        let flags = ["--host", "127.0.0.1", "--port", String(server.port), "--room", "cards"]
        let rules = ["--match", "3", "--deck", "cards", "--scoring", "matchismo", "--pairs", "4", "--again-on-match", "false"]
        let first = try Subprocess(try Tools.pairs(), ["bot"] + flags + rules + ["--think-ms", "300", "--name", "player107", "--seed", "1"])
        defer { first.terminate() }
        try await waitUntil("the room", timeout: .seconds(30)) { server.statistics().rooms == 1 }
        // The same game told in plain lines, whole, to hold the screen against.
        let transcript = try Subprocess(try Tools.pairs(), ["play", "--watch", "cards", "--host", "127.0.0.1", "--port", String(server.port)])
        defer { transcript.terminate() }
        try await withTmux([try Tools.pairs().path, "play", "--watch", "cards", "--host", "127.0.0.1", "--port", String(server.port)],
                           environment: ["NO_COLOR": "1"], columns: 80, rows: 24) { terminal in
            try await terminal.waitForScreen("watching") { $0.contains("watching") }
            let second = try Subprocess(try Tools.pairs(), ["bot"] + flags + ["--think-ms", "300", "--name", "player208", "--seed", "2"])
            defer { second.terminate() }
            // Every screen until the game is over: no event is ever cut, and score lines as the plain
            // transcript has them show whole.
            var wholeScoreLines: Set<String> = []
            var screen = ""
            while !screen.contains("GAME OVER") {
                screen = try await terminal.waitForScreen("the next move", timeout: .seconds(30)) { $0 != screen }
                #expect(cutRows(screen).isEmpty, "\(screen)")
                let shown = flowing(screen)
                for line in transcript.lines where line.contains(" scored ") && shown.contains(line) {
                    wholeScoreLines.insert(line)
                }
            }
            let longest = wholeScoreLines.map(\.count).max() ?? 0
            // Two columns of indent and the line would not fit 79 columns: before, it was cut.
            #expect(longest > 77, "a score line as long as the issue's: \(wholeScoreLines)")
            // In the next game (the bots ask for rematches), one of them is gone without a word (a crash):
            // the seat is kept for a while.
            try await terminal.waitForScreen("a game in play", timeout: .seconds(30)) { $0.contains("'s turn") }
            kill(second.pid, SIGKILL)
            let lost = "player208 lost the connection; the seat is kept for the server's grace period (60 s by default)"
            screen = try await terminal.waitForScreen("the drop", timeout: .seconds(30)) { flowing($0).contains(lost) }
            #expect(cutRows(screen).isEmpty, "\(screen)")
        }
    }

    @Test("Ctrl-C twice during a game leaves, and says the result on the normal screen as /quit does; exit 130",
          Tools.needs("tmux"), .timeLimit(.minutes(1)))
    func controlCTwiceSaysTheResult() async throws {
        let server = try startServer(pairs: 8, seed: 4)
        defer { server.stop() }
        let flags = ["--host", "127.0.0.1", "--port", String(server.port), "--room", "twice"]
        let bot = try Subprocess(try Tools.pairs(), ["bot"] + flags + ["--think-ms", "100", "--name", "robo"])
        defer { bot.terminate() }
        try await withTmux([try Tools.pairs().path, "play"] + flags + ["--name", "ann"], environment: ["NO_COLOR": "1"],
                           columns: 80, rows: 24) { terminal in
            try await terminal.waitForScreen("the game") { $0.contains("game 1") }
            try await terminal.press("C-c")
            try await terminal.waitForScreen("the question") { $0.contains("leave and forfeit?") }
            try await terminal.press("C-c")
            let after = try await terminal.waitForScreen("the exit") { $0.contains("[exit ") }
            #expect(after.contains("[exit 130]"))
            #expect(try await !terminal.isAlternateScreenOn())
            #expect(after.contains("connecting to 127.0.0.1:\(server.port)…"))
            #expect(after.contains("game over: robo wins by forfeit"), "\(after)")
        }
    }

    @Test("stopped with SIGTERM during a game, pairs play leaves, and says the result on the normal screen; exit 143",
          Tools.needs("tmux"), .timeLimit(.minutes(1)))
    func terminationSaysTheResult() async throws {
        let server = try startServer(pairs: 8, seed: 4)
        defer { server.stop() }
        let flags = ["--host", "127.0.0.1", "--port", String(server.port), "--room", "term"]
        let bot = try Subprocess(try Tools.pairs(), ["bot"] + flags + ["--think-ms", "100", "--name", "robo"])
        defer { bot.terminate() }
        try await withTmux([try Tools.pairs().path, "play"] + flags + ["--name", "ann"], environment: ["NO_COLOR": "1"],
                           columns: 80, rows: 24) { terminal in
            try await terminal.waitForScreen("the game") { $0.contains("game 1") }
            try await terminal.signalCommand(SIGTERM)
            let after = try await terminal.waitForScreen("the exit") { $0.contains("[exit ") }
            #expect(after.contains("[exit 143]"))
            #expect(after.contains("game over: robo wins by forfeit"), "\(after)")
        }
    }

    @Test("Ctrl-C stops pairs bot with its total line, even before a game has ended", Tools.needs("tmux"), .timeLimit(.minutes(1)))
    func botSaysItsTotalOnControlC() async throws {
        let server = try startServer(pairs: 3, seed: 4)
        defer { server.stop() }
        try await withTmux([try Tools.pairs().path, "bot", "--host", "127.0.0.1", "--port", String(server.port), "--room", "alone",
                            "--name", "robo"], columns: 80, rows: 24) { terminal in
            try await waitUntil("the bot's room", timeout: .seconds(30)) { server.statistics().rooms == 1 }
            try await terminal.press("C-c")
            let after = try await terminal.waitForScreen("the exit") { $0.contains("[exit ") }
            #expect(after.contains("total: 0 games, 0 won, 0 lost, 0 drawn"), "\(after)")
        }
    }
}
