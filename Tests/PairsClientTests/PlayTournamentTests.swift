import Foundation
@testable import PairsClient
import PairsRecords
import PairsRules
import PairsWire
import PairsTestSupport
import Testing

/// A Swiss of four as ann sees it: round `round` of 3, with `pairings` under way.
private func swiss(round: Int, status: TournamentPhase = .running, pairings: [TournamentBoard], bye: String? = nil,
                   more: Bool = false, standings: [TournamentStanding]? = nil) -> TournamentView {
    let rows = standings ?? ["ann", "bob", "cat", "dan"].enumerated().map { index, name in
        TournamentStanding(rank: index + 1, name: name, score: QuarterPoints(halves: 4 - index), games: round - 1,
                           buchholz: QuarterPoints(halves: 3), sonnebornBerger: QuarterPoints(quarters: 2))
    }
    return TournamentView(name: "cup", format: .swiss, status: status, creator: "host", rules: .standard, round: round, rounds: 3,
                          entrants: 4, standings: rows, pairings: pairings, bye: bye, more: more)
}

/// Ann's model, welcomed under her name.
private func annsModel() -> PlayModel {
    var model = PlayModel(endpoint: ServerEndpoint(host: "localhost", port: 7777))
    _ = model.apply(.ready(Welcome(server: "pairs test", session: "c1", hint: "", name: "ann")), at: Moment(milliseconds: 0))
    return model
}

private func screen(_ model: PlayModel, at milliseconds: Int64, rows: Int = 40) -> String {
    ScreenRenderer(style: .plain, rows: rows, columns: 100).render(model, at: Moment(milliseconds: milliseconds)).joined(separator: "\n")
}

@Suite("pairs play between a tournament's games")
struct PlayTournamentTests {
    @Test("a round's pairing names the player's next game in the events and on the screen, with the standings")
    func nextGameAndStandings() {
        var model = annsModel()
        let events = model.apply(.message(.tournament(swiss(round: 2, pairings: [
            TournamentBoard(room: "cup-3", players: ["ann", "cat"]), TournamentBoard(room: "cup-4", players: ["dan", "bob"]),
        ]))), at: Moment(milliseconds: 0)).map(\.text)
        #expect(events.contains("following tournament cup: swiss, running, 4 entered"))
        #expect(events.contains("your next game: cup-3 against cat"))
        let shown = screen(model, at: 0)
        #expect(shown.contains("between games of cup: the server seats you when your next game is made"))
        #expect(shown.contains("your game: cup-3 against cat"))
        #expect(shown.contains("cup: swiss, running, round 2 of 3, 4 entrants"))
        #expect(shown.contains("cup-4: dan - bob"))
        for name in ["ann", "bob", "cat", "dan"] { #expect(shown.contains(name)) }
    }

    @Test("once a round's games are over the screen counts down the break to the next round; a new round is news")
    func breakCountsDown() {
        var model = annsModel()
        _ = model.apply(.message(.tournament(swiss(round: 1, pairings: [TournamentBoard(room: "cup-1", players: ["ann", "bob"])]))),
                        at: Moment(milliseconds: 0))
        _ = model.apply(.message(.tournament(swiss(round: 1, pairings: []))), at: Moment(milliseconds: 1_000))
        #expect(screen(model, at: 1_000).contains("the next round starts in 10 s"))
        #expect(screen(model, at: 5_500).contains("the next round starts in 6 s"))
        let news = model.apply(.message(.tournament(swiss(round: 2, pairings: [TournamentBoard(room: "cup-3", players: ["cat", "ann"])]))),
                               at: Moment(milliseconds: 11_000)).map(\.text)
        #expect(news == ["cup: round 2 of 3 begins", "your next game: cup-3 against cat"])
    }

    @Test("a game of the tournament says the tournament and round in the screen's header")
    func headerNamesTheRound() {
        var model = annsModel()
        _ = model.apply(.message(.tournament(swiss(round: 2, pairings: [TournamentBoard(room: "cup-3", players: ["ann", "cat"])]))),
                        at: Moment(milliseconds: 0))
        _ = model.apply(.message(.joined(Joined(room: "cup-3", seat: .first, token: "t"))), at: Moment(milliseconds: 0))
        let header = screen(model, at: 0).split(separator: "\n")[0]
        #expect(header.contains("room cup-3") && header.contains("cup, round 2 of 3"))
    }

    @Test("an arena counts its time down; the bye, a pause and the end each read differently")
    func arenaByeAndEnd() {
        var model = annsModel()
        let arena = TournamentView(name: "bots", format: .arena, status: .running, creator: "host", rules: .standard,
                                   millisecondsLeft: 90_000, entrants: 3,
                                   standings: [TournamentStanding(rank: 1, name: "ann", score: QuarterPoints(points: 4), games: 2, streak: 2)])
        _ = model.apply(.message(.tournament(arena)), at: Moment(milliseconds: 0))
        #expect(screen(model, at: 30_000).contains("waiting for an opponent; 60 s left"))

        var paused = arena
        paused.standings[0].active = false
        _ = model.apply(.message(.tournament(paused)), at: Moment(milliseconds: 31_000))
        #expect(screen(model, at: 31_000).contains("you are paused: /tournament join bots to play again"))

        var over = arena
        over.status = TournamentPhase.finished
        over.millisecondsLeft = 0
        let news = model.apply(.message(.tournament(over)), at: Moment(milliseconds: 95_000)).map(\.text)
        #expect(news == ["bots is over: 1. ann 4"])
        #expect(screen(model, at: 95_000).contains("bots is over, won by ann"))

        var withBye = annsModel()
        _ = withBye.apply(.message(.tournament(swiss(round: 1, pairings: [TournamentBoard(room: "cup-1", players: ["bob", "cat"])], bye: "ann"))),
                          at: Moment(milliseconds: 0))
        #expect(screen(withBye, at: 0).contains("you have the bye this round"))
    }

    @Test("a tournament message in several lines is followed once it is whole, its standings appended in order")
    func longMessagesArePutTogether() {
        var model = annsModel()
        let first = TournamentStanding(rank: 1, name: "ann", score: QuarterPoints(points: 1), games: 1)
        let second = TournamentStanding(rank: 2, name: "bob", score: QuarterPoints(points: 0), games: 1)
        _ = model.apply(.message(.tournament(swiss(round: 1, pairings: [], more: true, standings: [first]))), at: Moment(milliseconds: 0))
        #expect(model.tournament == nil)
        _ = model.apply(.message(.tournament(swiss(round: 1, pairings: [], standings: [second]))), at: Moment(milliseconds: 0))
        #expect(model.tournament?.view.standings.map(\.name) == ["ann", "bob"])
    }

    @Test("a short terminal shows the start of the standings and says how much more there is")
    func longStandingsAreCut() {
        var model = annsModel()
        let many = (1...60).map { TournamentStanding(rank: $0, name: "p\($0)", score: QuarterPoints(points: 0), games: 0) }
        _ = model.apply(.message(.tournament(swiss(round: 1, pairings: [], standings: many))), at: Moment(milliseconds: 0))
        let lines = ScreenRenderer(style: .plain, rows: 24, columns: 80).render(model, at: Moment(milliseconds: 0))
        #expect(lines.count <= 24)
        #expect(lines.contains { $0.contains("more lines: /tournament watch cup in a taller terminal") })
        #expect(lines.contains { $0.contains("p1 ") })
        #expect(!lines.contains { $0.contains("p60") })
    }

    @Test("/tournament lines are the text protocol's tournament commands; a wrong one says what the server would")
    func typedTournamentCommands() throws {
        #expect(try InputCommand.parse("/tournament join cup") == .tournament(.join(tournament: "cup")))
        #expect(try InputCommand.parse("t watch cup") == .tournament(.watch(tournament: "cup")))
        #expect(try InputCommand.parse("/t list") == .tournament(.list))
        #expect(try InputCommand.parse("/tournament create cup swiss rounds 3")
                == .tournament(.create(TournamentCreation(name: "cup", length: .rounds(3)))))
        #expect(throws: InputError.self) { try InputCommand.parse("/tournament dance cup") }
        do {
            _ = try InputCommand.parse("/tournament")
            Issue.record("a bare /tournament parsed")
        } catch {
            #expect(error.description.contains("usage: tournament"))
        }
    }
}

// The real binaries: `pairs play` makes and enters a Swiss, a `pairs bot` enters it, the server seats both.
@Test("pairs play creates and enters a tournament from the lobby, follows it, and is told its next game when the server seats it", .ownThread,
      .timeLimit(.minutes(1)))
func playEntersATournament() async throws {
    let pairs = try Tools.pairs()
    let server = try startServer(pairs: 2, seed: 5)
    defer { server.stop() }
    let endpoint = ["--host", "127.0.0.1", "--port", String(server.port)]
    let ann = try Subprocess(pairs, ["play"] + endpoint + ["--room", "lob", "--name", "ann"])
    defer { ann.terminate() }
    try await ann.waitForLine("ann's seat") { $0 == "you joined room lob as player 1" }
    ann.write("/leave\n")
    var (at, _) = try await ann.waitForLine("the lobby") { $0.hasPrefix("you left room lob") }
    ann.write("/tournament create cup swiss players 2\n")
    (at, _) = try await ann.waitForLine(from: at, "the new tournament") { $0 == "following tournament cup: swiss, open, 0 entered" }
    ann.write("/t join cup\n")
    ann.write("/t list\n")
    try await ann.waitForLine(from: at, "the list") { $0.hasPrefix("cup") && $0.contains("swiss") && $0.contains("open") }

    let robo = try Subprocess(pairs, ["bot"] + endpoint + ["--tournament", "cup", "--name", "robo", "--think-ms", "50", "--seed", "1"])
    defer { robo.terminate() }
    // The seat and the news may come in either order: each is looked for from the list's line on.
    try await ann.waitForLine(from: at, timeout: .seconds(20), "the tournament starts") { $0 == "cup has started" }
    try await ann.waitForLine(from: at, "the round") { $0 == "cup: round 1 of 1 begins" }
    try await ann.waitForLine(from: at, "the pairing") { $0 == "your next game: cup-1 against robo" }
    try await ann.waitForLine(from: at, "the seat") { $0.hasPrefix("you joined room cup-1 as player ") }
    ann.write("/quit\n")
    _ = try await ann.waitForExit()
}

// The real binaries in a terminal: `pairs tournament join` is `pairs play` entering the tournament. A bot
// enters too and starts it; ann sees the tournament screen, then the game screen naming the round, leaves
// (forfeiting, as she is asked to confirm), and sees the final standings between games before quitting.
@Test("pairs tournament join plays the tournament in the pairs play screens: the standings before it starts, the game screen naming the round when seated, the final standings after",
      Tools.needs("tmux"), .timeLimit(.minutes(2)))
func tournamentJoinPlaysInTheTerminal() async throws {
    let pairs = try Tools.pairs()
    let server = try startServer(pairs: 2, turnSeconds: 0, seed: 5)
    defer { server.stop() }
    let endpoint = ["--host", "127.0.0.1", "--port", String(server.port)]
    let create = try Subprocess(pairs, ["tournament", "create", "cup", "--players", "2", "--name", "host"] + endpoint)
    #expect(try await create.waitForExit(timeout: .seconds(30)) == 0)
    try await withTmux([pairs.path, "tournament", "join", "cup", "--name", "ann"] + endpoint, environment: ["NO_COLOR": "1"],
                       columns: 100, rows: 30) { terminal in
        var screen = try await terminal.waitForScreen("the tournament screen", timeout: .seconds(30)) {
            $0.contains("cup has not started: 1 entered so far")
        }
        #expect(screen.contains("between games of cup"))
        #expect(screen.contains("cup: swiss, open, 1 entrant"))

        // A slow bot, so that ann's turn is on the screen while it is read.
        let robo = try Subprocess(pairs, ["bot", "--tournament", "cup", "--name", "robo", "--think-ms", "1000", "--seed", "1"] + endpoint)
        defer { robo.terminate() }
        screen = try await terminal.waitForScreen("the game screen", timeout: .seconds(30)) {
            $0.contains("room cup-1 · cup, round 1 of 1")
        }
        #expect(screen.contains("your next game: cup-1 against robo"))
        #expect(screen.contains("robo"))

        try await terminal.type("/leave")
        _ = try await terminal.waitForScreen("the question", timeout: .seconds(30)) { $0.contains("leave and forfeit?") }
        try await terminal.type("y")
        screen = try await terminal.waitForScreen("the final standings", timeout: .seconds(30)) { $0.contains("cup is over, won by robo") }
        #expect(screen.contains("cup: swiss, finished, round 1 of 1, 2 entrants"))
        #expect(screen.contains("1  robo"))
        try await terminal.type("/quit")
        _ = try await terminal.waitForScreen("the exit", timeout: .seconds(30)) { $0.contains("[exit 0]") }
        #expect(try await robo.waitForExit(timeout: .seconds(30)) == 0, "the bot exits 0 when the tournament is over")
    }
}
