import Dispatch
import Foundation
import PairsClient
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

/// Watches `room` on `port` from the moment it exists, every message landing in the log.
private func watch(room: String, port: Int) async throws -> (ClientConnection, EventLog<ConnectionEvent>) {
    for _ in 0..<200 {
        let queue = DispatchQueue(label: "test.watcher")
        let connection = try ClientConnection.open(to: ServerEndpoint(host: "127.0.0.1", port: port), queue: queue)
        let log = EventLog<ConnectionEvent>()
        queue.sync { connection.start { log.append($0) } }
        _ = try await log.waitFor("welcome") { event -> Bool? in if case .message(.welcome) = event { true } else { nil } }
        try queue.sync { try connection.send(Request(id: .integer(1), .watch(room: room))) }
        let watching = try await log.waitFor("the answer to watch") { event -> Bool? in
            switch event {
            case .message(.joined): true
            case .message(.error): false
            default: nil
            }
        }
        if watching { return (connection, log) }
        queue.sync { connection.close() }
        try await Task.sleep(for: pollInterval)
    }
    throw TimedOut(what: "room \(room) to exist")
}

@Suite("pairs history, leaderboard, profile and replay against a server that keeps its games", .ownThread)
struct KeptGamesCommandTests {
    @Test("two claimed bots' games and a solo game are in pairs history (and --json), on pairs leaderboard and in pairs profile",
          .timeLimit(.minutes(3)))
    func historyLeaderboardAndProfile() async throws {
        try await withKeptGamesServer(["--pairs", "3", "--reveal-ms", "0"]) { server in
        let (annLines, _) = try await server.playClaimedGames(2, room: "duel")
        let solo = try Subprocess(try Tools.pairs(), ["bot"] + server.endpoint + ["--solo", "--games", "1", "--think-ms", "0", "--name", "sol"],
                                  environment: ["PAIRS_PASSWORD": "sol's secret"])
        defer { solo.terminate() }
        #expect(try await solo.waitForExit(timeout: .seconds(60)) == 0, "\(solo.errorText)")

        // The table: a title line, then the games newest first.
        let history = try await server.run(["history"])
        #expect(history.status == 0, "\(history.errors)")
        let rows = Array(history.lines.dropFirst())
        #expect(history.lines.first?.split(separator: " ") == ["game", "when", "players", "result", "ended", "rules"])
        #expect(rows.compactMap { Int($0.split(separator: " ").first ?? "") } == [3, 2, 1], "\(history.lines)")
        #expect(rows.first?.contains("sol 3") == true && rows.first?.contains("sol cleared the board") == true && rows.first?.hasSuffix("solo") == true,
                "\(history.lines)")
        // Each of the duel's rows says what ann's bot said of that game: the scores and who won.
        for (row, annLine) in zip(rows.dropFirst().reversed(), annLines.compactMap(GameLine.init)) {
            let score = "\(annLine.score) - \(annLine.opponentScore)"
            #expect(row.contains("ann \(score) bob") || row.contains("bob \(annLine.opponentScore) - \(annLine.score) ann"), "\(row) against \(annLine)")
            let result = switch annLine.result { case "won": "ann won"; case "lost": "bob won"; default: "draw" }
            #expect(row.contains(result) && row.contains("cleared"), "\(row) against \(annLine)")
        }
        #expect(rows.allSatisfy { $0.contains(Self.today) }, "times in UTC: \(rows)")

        // --json: the server's own lines, which read back as the same games, and --limit.
        let json = try await server.run(["history", "--json", "--limit", "2", "--name", "ann"])
        #expect(json.status == 0)
        let pages = try json.lines.map { try ServerMessageDecoder.decode(line: Array($0.utf8)) }
        guard case .history(let page)? = pages.first, pages.count == 1 else { Issue.record("not one history line: \(json.lines)"); return }
        #expect(page.games.map(\.game) == [2, 1])
        #expect(page.games.allSatisfy { $0.rated && $0.players.map(\.name) .contains("ann") })

        let ladder = try await server.run(["leaderboard"])
        #expect(ladder.status == 0, "\(ladder.errors)")
        #expect(ladder.lines.first == "the classic game's ladder")
        #expect(ladder.lines.dropFirst().first?.split(separator: " ") == ["rank", "name", "rating", "games", "won", "lost", "drawn"])
        let places = ladder.lines.dropFirst(2).map { $0.split(separator: " ").map(String.init) }
        #expect(places.map { $0[1] }.sorted() == ["ann", "bob"], "\(ladder.lines)")
        // Two games are too few to trust a rating: both are provisional.
        #expect(places.allSatisfy { $0[2].hasSuffix("?") && $0[3] == "2" }, "\(ladder.lines)")
        #expect(places.map { $0[0] } == ["1", "2"])

        let soloLadder = try await server.run(["leaderboard", "--solo", "--by", "flips"])
        #expect(soloLadder.lines.first == "the ladder of solo, by flips")
        #expect(soloLadder.lines.last?.split(separator: " ").prefix(4) == ["1", "sol", "1", "1"], "\(soloLadder.lines)")

        let profile = try await server.run(["profile", "ann"])
        #expect(profile.status == 0, "\(profile.errors)")
        #expect(profile.lines.first == "ann (claimed)")
        #expect(profile.lines.dropFirst().first?.hasPrefix("2 games: ") == true, "\(profile.lines)")
        #expect(profile.lines.contains { $0.hasPrefix("  classic game") && $0.contains("?") }, "\(profile.lines)")
        #expect(profile.lines.contains("last games"))
        #expect(!profile.lines.contains { $0.contains("sol ") }, "sol's game is not ann's")

        // Every game replays to a cleared board, the rematch (which the other seat started) too.
        for game in 1...3 {
            let replay = try await server.run(["replay", String(game)])
            #expect(replay.status == 0, "game \(game): \(replay.errors)")
            let board = replay.lines.last?.split(separator: " ").dropFirst() ?? []
            #expect(board.count == 6 && board.allSatisfy { $0.contains("=") }, "game \(game): \(replay.lines.suffix(2))")
        }
        }
    }

    /// The date today in UTC, as the tables show it.
    static var today: String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }

    @Test("pairs replay with its output not a terminal tells the game in plain lines, ending on the board the game ended on",
          .timeLimit(.minutes(2)))
    func replayInPlainLines() async throws {
        try await withKeptGamesServer(["--pairs", "4", "--reveal-ms", "0"]) { server in
        let common = ["bot"] + server.endpoint + ["--room", "told", "--games", "1", "--think-ms", "0"]
        let ann = try Subprocess(try Tools.pairs(), common + ["--name", "ann", "--seed", "3"])
        defer { ann.terminate() }
        let (watcher, log) = try await watch(room: "told", port: server.port)
        defer { watcher.queue.sync { watcher.close() } }
        let bob = try Subprocess(try Tools.pairs(), common + ["--name", "bob", "--seed", "4"])
        defer { bob.terminate() }
        let final = try await log.waitFor("the game's last state", timeout: .seconds(60)) { event -> StateMessage? in
            if case .message(.state(let state)) = event, state.state.endsGame { state } else { nil }
        }
        #expect(try await ann.waitForExit(timeout: .seconds(30)) == 0)

        let replay = try await server.run(["replay", "1"])
        #expect(replay.status == 0, "\(replay.errors)")
        #expect(replay.lines.first?.hasPrefix("replay of game 1, room told, \(Self.today)") == true, "\(replay.lines)")
        #expect(replay.lines.last == PlainTranscript.board(final.state), "\(replay.lines.suffix(3))")
        #expect(replay.lines.contains { $0.hasPrefix("game over: ") })
        #expect(replay.lines.contains("ann flipped 0: \(Narrator.face(of: 0, in: final.state) ?? "?")")
                || replay.lines.contains("bob flipped 0: \(Narrator.face(of: 0, in: final.state) ?? "?")"), "\(replay.lines)")
        // Every flip of the game is told.
        let flips = replay.lines.count { $0.contains(" flipped ") }
        guard case .history(let page) = try server.ask(.history(HistoryQuery())) else { Issue.record("no history"); return }
        #expect(flips == page.games.first?.flips)
        }
    }

    @Test("a game number no finished game has is no_such_game in one sentence, and exit status 1")
    func replayOfNoGame() async throws {
        try await withKeptGamesServer { server in
        let replay = try await server.run(["replay", "41"])
        #expect(replay.status == 1)
        #expect(replay.lines.isEmpty)
        #expect(replay.errors == "pairs replay: no finished game is number 41 (no_such_game)\n")
        }
    }

    @Test("a server that keeps nothing says so, and the commands exit 1")
    func serverKeepingNothing() async throws {
        let server = try startServer()
        defer { server.stop() }
        for command in [["history"], ["leaderboard"], ["profile", "ann"], ["replay", "1"]] {
            let run = try Subprocess(try Tools.pairs(), command + ["--host", "127.0.0.1", "--port", String(server.port)])
            #expect(try await run.waitForExit() == 1)
            #expect(run.errorText.hasPrefix("pairs \(command[0]): this server keeps nothing") && run.errorText.contains("(no_storage)"),
                    "\(run.errorText)")
        }
    }

    @Test("a bad option gets one line and where to read more, with status 2; --help the usage, with status 0", arguments: [
        ["history", "--limit", "0"], ["history", "--colour"], ["leaderboard", "--by", "speed"], ["leaderboard", "--match", "4"],
        ["profile"], ["profile", "ann", "bob"], ["replay"], ["replay", "x"], ["replay", "3", "--speed", "0"], ["replay", "3", "--json=1"],
    ])
    func badOptions(arguments: [String]) async throws {
        let bad = try Subprocess(try Tools.pairs(), arguments)
        #expect(try await bad.waitForExit() == 2)
        let lines = bad.errorText.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("pairs \(arguments[0]): ") && lines[1] == "see pairs \(arguments[0]) --help",
                "\(bad.errorText)")
        let help = try Subprocess(try Tools.pairs(), [arguments[0], "--help"])
        #expect(try await help.waitForExit() == 0)
        #expect(help.lines.first?.hasPrefix("usage: pairs \(arguments[0])") == true)
    }
}
