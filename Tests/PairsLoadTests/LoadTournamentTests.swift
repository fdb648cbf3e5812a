import PairsClient
import PairsLoad
import PairsServer
import PairsTestSupport
import PairsWire
import Testing

// `pairs load --tournament` against a real server in this process, over real TCP on 127.0.0.1.
@Suite(.serialized, .ownThread)
struct LoadTournamentTests {
    @Test("six sessions play a short arena to its end: the report's pairings and waits are the games the tournament's standings count")
    func arenaCountsItsPairings() throws {
        let server = try startServer()
        defer { server.stop() }
        let endpoint = ServerEndpoint(host: "127.0.0.1", port: server.port)
        // A six-second arena (the shortest there is), starting once all six sessions have entered.
        let creation = TournamentCreation(name: "arena", length: .milliseconds(6_000), start: .players(6))
        _ = try ServerQuery.ask(.tournament(.create(creation)), at: endpoint)
        var configuration = loadConfiguration(port: server.port, concurrency: 6, safetySeconds: 120)
        configuration.tournament = "arena"
        configuration.tournamentStandings = 0
        configuration.loops = 2
        let report = try runToEnd(LoadRunGroup(configuration: configuration), within: 180)

        // The run ended with the tournament, not at its safety limit.
        #expect(report.durationSeconds < 120)
        let answer = try ServerQuery.ask(.tournament(.watch(tournament: "arena")), at: endpoint)
        guard case .tournament(let view) = answer.message else {
            Issue.record("no tournament message: \(answer.message)")
            return
        }
        #expect(view.status == .finished)
        #expect(view.standings.count == 6)
        let seats = view.standings.map(\.games).reduce(0, +)
        #expect(seats > 0 && seats % 2 == 0)
        #expect(report.pairings == seats / 2, "a pairing per game the standings count")
        #expect(report.games == report.pairings, "every game was played to its end")
        #expect(report.gamesUnfinished == 0 && report.gamesAbandoned == 0 && report.unfinishedFlips == 0)
        #expect(report.freeToPaired.count == UInt64(seats), "a wait per seat taken")
        #expect(report.freeToPaired.max > 0)
        #expect(report.errorCount == 0, "errors: \(report.errors)")
        #expect(report.connectionsOpened == 6 && report.connectionDropCount == 0)
        #expect(report.flips > 0 && report.flips == report.flipsSent)
        #expect(report.bytesReceived > 0)
        #expect(report.tournament == "arena")
    }

    @Test("a session asking for standings 0 is sent shorter tournament messages than one asking for every row")
    func standingsZeroSendsLess() throws {
        let server = try startServer()
        defer { server.stop() }
        let endpoint = ServerEndpoint(host: "127.0.0.1", port: server.port)
        var bytes: [String: Int] = [:]
        for (name, standings) in [("all", Int?.none), ("own", Int?.some(0))] {
            let creation = TournamentCreation(name: name, length: .milliseconds(6_000), start: .players(8))
            _ = try ServerQuery.ask(.tournament(.create(creation)), at: endpoint)
            var configuration = loadConfiguration(port: server.port, concurrency: 8, safetySeconds: 120)
            configuration.tournament = name
            configuration.tournamentStandings = standings
            configuration.loops = 1
            let report = try runToEnd(LoadRunGroup(configuration: configuration), within: 180)
            #expect(report.pairings > 0)
            #expect(report.tournamentLines > 0 && report.tournamentBytes < report.bytesReceived)
            bytes[name] = report.tournamentBytes / max(1, report.tournamentLines)
        }
        // Per line, since the two arenas may push a different number of times. Each of the seven rows left
        // out is about 65 bytes (and any game but its own about 40): more than 400 fewer.
        #expect(try #require(bytes["own"]) + 400 < (try #require(bytes["all"])), "bytes per tournament line: \(bytes)")
    }
}
