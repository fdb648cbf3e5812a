import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsRecords
import PairsRules
import PairsServer
import PairsStorage
import PairsTestSupport
import PairsWire
import Testing

/// A client of a tournament over TCP: every message is read through `pump`, which keeps the last
/// `tournament` message whatever the test was waiting for.
private final class Follower {
    let name: String
    let client: TestClient
    private(set) var last: TournamentView?

    init(_ name: String, port: Int) throws {
        self.name = name
        client = try TestClient(port: port)
        client.send(#"{"type":"hello","name":"\#(name)"}"#)
        _ = try pump("welcome as \(name)") { if case .welcome(let welcome) = $0 { welcome.name == name } else { false } }
    }

    /// Reads until a message matches, within `seconds`, noting every `tournament` message on the way.
    @discardableResult
    func pump(_ what: String, within seconds: Double = 10, _ matches: (ServerMessage) -> Bool) throws -> ServerMessage {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw TestTimeout(what: "\(what) for \(name)") }
            let message = try client.next(within: remaining)
            if case .tournament(let view) = message { last = view }
            if case .error(let error) = message { throw TestTimeout(what: "\(what) for \(name), got \(error.code.rawValue): \(error.message)") }
            if matches(message) { return message }
        }
    }

    /// Waits for a `tournament` message that satisfies `condition`.
    @discardableResult
    func view(_ what: String, within seconds: Double = 10, where condition: (TournamentView) -> Bool) throws -> TournamentView {
        if let last, condition(last) { return last }
        let message = try pump(what, within: seconds) { if case .tournament(let view) = $0 { condition(view) } else { false } }
        guard case .tournament(let view) = message else { fatalError("unreachable") }
        return view
    }
}

@Suite("Tournaments over TCP", .ownThread)
struct TournamentTests {
    @Test("a Swiss of four is played to its end by real clients seated by the server, and every entrant and watcher ends with the same standings")
    func swissPlayedToTheEnd() throws {
        let server = try startServer { $0.lobby.tournaments.roundBreakMilliseconds = 200 }
        defer { server.stop() }
        _ = try playSwissOfFour(port: server.port)
    }

    @Test("a server that keeps games keeps a finished tournament: after a restart the store has the standings every client saw, and history and profile answer for its key")
    func finishedTournamentOutlivesTheServer() throws {
        let directory = try TemporaryDirectory()
        let rules = ["--pairs", "4", "--turn-seconds", "0", "--reveal-ms", "0", "--rate-limit", "0"]
        let standings: [TournamentStanding]
        do {
            let (server, port) = try PairsProcess.serve(["--data", directory.database] + rules)
            defer { server.terminate() }
            standings = try playSwissOfFour(port: port)
            server.send(SIGTERM)
            #expect(server.waitForExit(within: 10) == 0)
        }

        let reopened = try GameStore(path: directory.database)
        let kept = try #require(try reopened.tournaments(limit: 5, before: nil).first)
        #expect(try reopened.tournaments(limit: 5, before: nil).count == 1)
        #expect(kept.record.name == "cup" && kept.record.format == "swiss" && kept.record.creator == "host")
        #expect(kept.record.standings == standings)
        #expect(kept.record.started <= kept.record.ended)
        let games = try reopened.history(tournament: kept.record.key, limit: 10)
        #expect(games.count == 4, "two rounds of two games")
        #expect(games.allSatisfy { $0.summary.room.hasPrefix("cup-") })
        #expect(try reopened.history(limit: 10).count == 4)

        // A server on the kept file answers history and profile of the tournament's key as the store does.
        let restarted = Server(configuration: {
            var configuration = ServerConfiguration()
            configuration.host = "127.0.0.1"
            configuration.port = 0
            configuration.log.level = .error
            configuration.loops = testLoops
            return configuration
        }(), store: reopened)
        try restarted.start()
        defer { restarted.stop() }
        let asker = try TestClient(port: restarted.port)
        asker.send(#"{"type":"history","tournament":"\#(kept.record.key)","id":7}"#)
        let answer = try asker.waitFor("the tournament's history") { if case .history = $0 { true } else { false } }
        guard case .history(let page) = answer else { return }
        #expect(page.games.count == 4)
        #expect(page.games.allSatisfy { $0.tournament == kept.record.key })
        let winner = kept.record.standings[0]
        asker.send(#"{"type":"profile","name":"\#(winner.name)","tournament":"\#(kept.record.key)","id":8}"#)
        let profile = try asker.waitFor("the winner's profile in the tournament") { if case .profile = $0 { true } else { false } }
        guard case .profile(let report) = profile else { return }
        // A Swiss scores a win 1 and a draw ½: the profile's totals in the tournament add up to the standing.
        #expect(report.totals.games == 2)
        #expect(report.totals.wins * 4 + report.totals.draws * 2 == winner.score.quarters, "\(report.totals) against \(winner.score)")
    }

    @Test("on a server that keeps games, a claimed entrant enters with the rating the store has for them: a Swiss's first round is ranked by it and its bye goes to the lowest-rated")
    func claimedEntrantsAreRankedByTheirStoredRating() throws {
        let directory = try TemporaryDirectory()
        let store = try GameStore(path: directory.database) { failure in Issue.record("storage failed: \(failure)") }
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.log.level = .error
        // Three pairs: a game cannot be drawn, so it moves the two ratings apart.
        configuration.lobby.defaultRules = RuleSet(pairs: 3, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true)
        configuration.loops = testLoops
        let server = Server(configuration: configuration, store: store)
        try server.start()
        defer { server.stop() }

        // ann and bob claim their names and play a rated game: the winner goes above 1500, the loser below.
        let claimed = try ["ann", "bob"].map { name in
            let client = try TestClient(port: server.port)
            client.send(#"{"type":"hello","name":"\#(name)","password":"\#(name)'s secret"}"#)
            _ = try client.waitFor("\(name)'s welcome") { if case .welcome = $0 { true } else { false } }
            _ = try client.join("warm-up")
            return client
        }
        _ = try claimed[0].waitForState { $0.state.phase == .playing }
        let final = try playToEnd(claimed)
        guard case .win(let seat)? = final.outcome else { Issue.record("three pairs end in a win: \(final)"); return }
        let (winner, loser) = seat.index == 0 ? ("ann", "bob") : ("bob", "ann")
        for client in claimed {
            client.send(#"{"type":"leave"}"#)
            _ = try client.waitFor("left the warm-up") { if case .left = $0 { true } else { false } }
        }

        // A Swiss of three, starting by itself when the third enters: cat's name is not claimed, so 1500.
        let host = try Follower("host", port: server.port)
        host.client.send(#"{"type":"tournament_create","name":"cup","format":"swiss","start":3,"id":1}"#)
        try host.view("the tournament made") { $0.id == .integer(1) }
        host.client.send(#"{"type":"tournament_watch","tournament":"cup","id":2}"#)
        try host.view("the watch answered") { $0.id == .integer(2) }
        for client in claimed { client.send(#"{"type":"tournament_join","tournament":"cup","id":3}"#) }
        let cat = try Follower("cat", port: server.port)
        try host.view("two entered") { $0.entrants == 2 }
        cat.client.send(#"{"type":"tournament_join","tournament":"cup","id":3}"#)
        let started = try host.view("the first round", within: 30) { $0.status == .running && $0.round == 1 }
        // By rating: the winner, cat at 1500, the loser (by name it would be ann v bob, and cat's bye).
        #expect(started.pairings.map(\.players) == [[winner, "cat"]])
        #expect(started.bye == loser)
    }

    /// Host makes `cup` (a Swiss that starts at four) and watches it; ann, bob, cat and dan enter and play
    /// both rounds over TCP. Returns the final standings, checked equal on every client.
    private func playSwissOfFour(port: Int) throws -> [TournamentStanding] {
        let host = try Follower("host", port: port)
        host.client.send(#"{"type":"tournament_create","name":"cup","format":"swiss","start":4,"id":1}"#)
        try host.view("the tournament made") { $0.id == .integer(1) && $0.status == .open }
        host.client.send(#"{"type":"tournament_watch","tournament":"cup","id":2}"#)
        try host.view("the watch answered") { $0.id == .integer(2) }
        var entrants: [String: Follower] = [:]
        for name in ["ann", "bob", "cat", "dan"] {
            let entrant = try Follower(name, port: port)
            entrant.client.send(#"{"type":"tournament_join","tournament":"cup","id":3}"#)
            entrants[name] = entrant
        }
        for round in 1...2 {
            // The real binary breaks 10 s between rounds: a busy machine may add as much again.
            let view = try host.view("round \(round)", within: 60) { $0.status == .running && $0.round == round && $0.pairings.count == 2 }
            #expect(view.rounds == 2)
            for board in view.pairings {
                let players = try board.players.map { try #require(entrants[$0]) }
                for player in players {
                    try player.pump("seated in \(board.room)", within: 30) { if case .joined(let joined) = $0 { joined.room == board.room } else { false } }
                    try player.pump("the game in \(board.room)", within: 30) {
                        if case .state(let state) = $0 { state.room == board.room && state.state.phase == .playing } else { false }
                    }
                }
                let final = try playToEnd(players.map(\.client))
                #expect(final.phase == .over)
            }
        }
        let standings = try host.view("the end", within: 30, where: { $0.status == .finished }).standings
        #expect(standings.map(\.rank) == [1, 2, 3, 4])
        #expect(standings.allSatisfy { $0.games == 2 })
        #expect(standings.map(\.score.quarters).reduce(0, +) == 4 * 4, "four games, a point each")
        for (name, entrant) in entrants {
            let view = try entrant.view("the end", within: 30, where: { $0.status == .finished })
            #expect(view.standings == standings, "\(name) has the same final standings")
        }
        return standings
    }

    @Test("tournament requests are refused with their typed errors over TCP, and the list shows what the server holds")
    func refusalsAndList() throws {
        let server = try startServer()
        defer { server.stop() }
        let ann = try Follower("ann", port: server.port)
        ann.client.send(#"{"type":"tournament_join","tournament":"nope","id":1}"#)
        #expect(try ann.client.waitForError(.noSuchTournament).id == .integer(1))
        ann.client.send("tournament create bots arena minutes 0.5")
        try ann.view("the arena made") { $0.name == "bots" && $0.millisecondsLeft == 30_000 }
        ann.client.send(#"{"type":"tournament_start","tournament":"bots","id":2}"#)
        #expect(try ann.client.waitForError(.tooFewPlayers).id == .integer(2))
        ann.client.send(#"{"type":"tournament_list","id":3}"#)
        let list = try ann.client.waitFor("the list") { if case .tournaments = $0 { true } else { false } }
        guard case .tournaments(let tournaments) = list else { return }
        #expect(tournaments.tournaments.map(\.name) == ["bots"])
        #expect(tournaments.tournaments.first?.length == .milliseconds(30_000))
        #expect(tournaments.id == .integer(3))
    }
}
