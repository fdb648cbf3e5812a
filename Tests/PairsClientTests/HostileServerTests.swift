import Foundation
import PairsTestSupport
import PairsWire
import Testing

/// A server that keeps its games, with one game of claimed names kept, behind a proxy that makes it hostile
/// (`HostileServerLines`): `body` gets the server, the proxy's `--host`/`--port` flags and the tally.
private func withHostileServer(_ body: (KeptGamesServer, [String], HostileServerLines.Tally) async throws -> Void) async throws {
    try await withKeptGamesServer(["--pairs", "3", "--reveal-ms", "0"]) { server in
        _ = try await server.playClaimedGames(1, room: "kept")
        let tally = HostileServerLines.Tally()
        let proxy = try TCPProxy(serverPort: server.port) { HostileServerLines(tally: tally).rewrite }
        defer { proxy.close() }
        try await body(server, ["--host", "127.0.0.1", "--port", String(proxy.port)], tally)
    }
}

/// The faces still down on a plain `board:` line.
private func faceDownCards(_ line: String) -> [Int] {
    line.dropFirst("board: ".count).split(separator: " ").compactMap { Int($0) }
}

@Suite("A hostile server cannot drive the terminal of any pairs command", .ownThread)
struct HostileServerTests {
    @Test("pairs history, profile, leaderboard and replay (plain and --json), pairs bot, and pairs play in plain output print nothing of a hostile server's that drives a terminal",
          .timeLimit(.minutes(4)))
    func plainOutput() async throws {
        try await withHostileServer { _, hostile, tally in
        let pairs = try Tools.pairs()
        var outputs: [(command: String, text: String)] = []
        for command in [["history"], ["profile", "ann"], ["leaderboard"], ["replay", "1"], ["history", "--json"], ["replay", "1", "--json"]] {
            let process = try Subprocess(pairs, command + hostile, environment: ["TZ": "UTC"])
            defer { process.terminate() }
            #expect(try await process.waitForExit(timeout: .seconds(30)) == 0, "pairs \(command): \(process.errorText)")
            outputs.append(("pairs " + command.joined(separator: " "), process.lines.joined(separator: "\n") + process.errorText))
            if command.contains("--json") {
                // Escaped, not cleaned: the lines still say exactly what the server said.
                let names: [String] =
                    switch try ServerMessageDecoder.decode(line: Array(try #require(process.lines.first).utf8)) {
                    case .history(let page): page.games.flatMap { $0.players.map(\.name) }
                    case .replay(let replay): replay.summary.players.map(\.name)
                    default: []
                    }
                #expect(!names.isEmpty && names.allSatisfy { $0.hasSuffix(HostileText.payload) }, "\(names)")
            }
        }

        // A game through the hostile server: a bot, and a person in plain output who chats and asks things.
        let room = ["--room", "hostile"]
        let bot = try Subprocess(pairs, ["bot"] + hostile + room + ["--games", "1", "--think-ms", "0", "--name", "robo", "--seed", "3"])
        defer { bot.terminate() }
        let carol = try Subprocess(pairs, ["play"] + hostile + room + ["--name", "carol"], environment: ["NO_COLOR": "", "TERM": "xterm"])
        defer { carol.terminate() }
        try await carol.waitForLine("joining") { $0.hasPrefix("you joined room hostile") }
        carol.write("/say hello\n/who\n/list\n/stats\n/help\nbanana\n")
        var next = 0
        for _ in 0..<40 {
            let (index, line) = try await carol.waitForLine(from: next, timeout: .seconds(20), "my turn or the end") {
                $0.hasPrefix("board: ") || $0.hasPrefix("game over: ")
            }
            next = index + 1
            if line.hasPrefix("game over: ") { break }
            let cards = faceDownCards(line)
            if cards.count >= 2 { carol.write("\(cards[0])\n\(cards[1])\n") }
        }
        #expect(try await bot.waitForExit(timeout: .seconds(30)) == 0, "\(bot.errorText)")
        carol.write("/quit\n")
        #expect(try await carol.waitForExit() == 0, "\(carol.errorText)")
        outputs.append(("pairs bot", bot.lines.joined(separator: "\n") + bot.errorText))
        outputs.append(("pairs play", carol.lines.joined(separator: "\n") + carol.errorText))

        #expect(tally.poisoned > 50)
        for (command, text) in outputs {
            #expect(HostileText.controls(in: text).isEmpty, "\(command) printed \(HostileText.controls(in: text)):\n\(text)")
            // The hostile text was there to print, and was printed, without its controls.
            #expect(text.contains(HostileText.titleWord), "\(command):\n\(text)")
        }
        let play = carol.lines.joined(separator: "\n")
        #expect(play.contains("carol" + HostileText.cleanedPayload + " says: hello" + HostileText.cleanedPayload), "\(play)")
        #expect(play.contains("game over: "))
        }
    }

    @Test("in an 80x24 terminal, pairs history, profile, leaderboard, replay and a game of pairs play against a hostile server leave the pane's title, screen and input alone",
          Tools.needs("tmux"), .timeLimit(.minutes(4)))
    func terminal() async throws {
        try await withHostileServer { _, hostile, tally in
        let pairs = try Tools.pairs().path
        let bot = try Subprocess(try Tools.pairs(), ["bot"] + hostile + ["--room", "hostile", "--games", "1", "--think-ms", "200", "--name", "robo"])
        defer { bot.terminate() }
        let directory = try TemporaryDirectory()
        let recording = directory.file("terminal-output")
        let flags = hostile.joined(separator: " ")
        // Waits for a line first, so the recording starts before anything is printed.
        let script = "read go; \(pairs) history \(flags); \(pairs) profile ann \(flags); \(pairs) leaderboard \(flags); "
            + "\(pairs) replay 1 --speed 1000 \(flags); exec \(pairs) play --room hostile --name carol \(flags)"
        try await withTmux(["sh", "-c", script], environment: ["TERM": "xterm-256color", "TZ": "UTC"], columns: 80, rows: 24) { terminal in
        let title = try await terminal.paneTitle()
        try await terminal.recordOutput(to: recording)
        try await terminal.type("go")
        let replayEnd = try await terminal.waitForScreen("the replay's end", timeout: .seconds(30)) {
            $0.contains("GAME OVER: ") && $0.contains("q: quit")
        }
        #expect(replayEnd.contains(HostileText.titleWord))
        try await terminal.press("q")
        try await terminal.waitForScreen("the game", timeout: .seconds(30)) { $0.contains("robo") && $0.contains("carol") && $0.contains("(you)") }
        try await terminal.type("/say hello")
        try await terminal.waitForScreen("the chat line") { $0.contains("hello]52") }
        try await terminal.type("/who")
        let screen = try await terminal.waitForScreen("the answer to /who") { $0.contains("» ") && $0.contains("robo") }
        #expect(screen.contains("Pairs · room hostile"), "the screen was wiped:\n\(screen)")
        #expect(try await terminal.paneTitle() == title)
        #expect(!(try await terminal.paneTitle()).contains(HostileText.titleWord))
        }
        #expect(tally.poisoned > 20)
        let output = try [UInt8](Data(contentsOf: URL(fileURLWithPath: recording)))
        #expect(String(decoding: output, as: UTF8.self).contains(HostileText.titleWord), "the hostile text never came")
        for (what, bytes) in HostileText.rawSequences {
            #expect(output.firstRange(of: bytes) == nil, "\(what) reached the terminal")
        }
        // The client writes 7-bit escape sequences only: no C1 control (U+0080...U+009F, C2 80...C2 9F in
        // UTF-8) of any kind reached the terminal.
        #expect(!zip(output, output.dropFirst()).contains { $0 == 0xC2 && (0x80...0x9F).contains($1) })
        }
    }

    @Test("the Python bot and the bash example, playing through a hostile server, print its names without anything that drives a terminal",
          Tools.needs("python3"), .timeLimit(.minutes(2)))
    func otherClients() async throws {
        let server = try startServer(pairs: 3, revealMilliseconds: 0, seed: 9)
        defer { server.stop() }
        let tally = HostileServerLines.Tally()
        let proxy = try TCPProxy(serverPort: server.port) { HostileServerLines(tally: tally).rewrite }
        defer { proxy.close() }
        let hostile = ["--host", "127.0.0.1", "--port", String(proxy.port)]
        let players: [(name: String, executable: URL, arguments: [String])] = [
            ("pairs_bot.py", try Tools.external("python3"),
             [Tools.clientsDirectory.appendingPathComponent("python/pairs_bot.py").path] + hostile
                + ["--room", "snake", "--games", "1", "--think-ms", "0", "--name", "snake"]),
            ("pairs_random.sh", try Tools.external("bash"),
             [Tools.clientsDirectory.appendingPathComponent("bash/pairs_random.sh").path, "127.0.0.1", String(proxy.port), "shell", "shelly"]),
        ]
        for player in players {
            let room = player.name == "pairs_bot.py" ? "snake" : "shell"
            let bot = try Subprocess(try Tools.pairs(), ["bot"] + hostile + ["--room", room, "--games", "1", "--think-ms", "0", "--name", "robo"])
            defer { bot.terminate() }
            let client = try Subprocess(player.executable, player.arguments)
            defer { client.terminate() }
            #expect(try await client.waitForExit(timeout: .seconds(30)) == 0, "\(player.name): \(client.errorText)")
            #expect(try await bot.waitForExit(timeout: .seconds(30)) == 0, "\(bot.errorText)")
            let output = client.lines.joined(separator: "\n") + client.errorText
            #expect(HostileText.controls(in: output).isEmpty, "\(player.name) printed \(HostileText.controls(in: output)):\n\(output)")
            #expect(client.lines.contains { $0.hasPrefix("game 1: ") && $0.contains("robo") && $0.contains(HostileText.titleWord) },
                    "\(player.name):\n\(output)")
        }
        #expect(tally.poisoned > 20)
    }
}
