import Foundation
import PairsClient
import PairsTestSupport
import PairsWire
import Testing

/// Claims `name` with `password` on `server` by playing one quick solo game under it.
private func claim(_ name: String, password: String, on server: KeptGamesServer) async throws {
    let bot = try Subprocess(try Tools.pairs(), ["bot"] + server.endpoint + ["--solo", "--games", "1", "--think-ms", "0", "--name", name],
                             environment: ["PAIRS_PASSWORD": password])
    defer { bot.terminate() }
    #expect(try await bot.waitForExit(timeout: .seconds(60)) == 0, "\(bot.errorText)")
}

/// Small boards shown without a reveal pause: what these tests check is the names, not the games that claim
/// them, and a server's default board of eight pairs with a second's reveal made each game take seconds.
private let quickGames = ["--pairs", "3", "--reveal-ms", "0"]

@Suite("Claimed names in pairs bot and pairs play", .ownThread)
struct ClaimedNameTests {
    @Test("pairs bot with a claimed name stops at once with status 1: without the password name_taken's words, with a wrong one bad_password's")
    func botRefusedName() async throws {
        try await withKeptGamesServer(quickGames) { server in
        try await claim("ann", password: "ann's secret", on: server)
        for (environment, expected) in [([:], "the name ann belongs to someone"), (["PAIRS_PASSWORD": "guess"], "that is not the password of ann")] {
            let bot = try Subprocess(try Tools.pairs(), ["bot"] + server.endpoint + ["--room", "nope", "--name", "ann"], environment: environment)
            defer { bot.terminate() }
            #expect(try await bot.waitForExit() == 1)
            #expect(bot.errorText.hasPrefix("pairs bot: \(expected)"), "\(bot.errorText)")
            #expect(!bot.errorText.contains("guess"), "the password is never printed")
        }
        // Nobody sat down under the name, nor under another one.
        guard case .history(let page) = try server.ask(.history(HistoryQuery())) else { Issue.record("no history"); return }
        #expect(page.games.count == 1)
        }
    }

    @Test("pairs bot --password reads the password from its input when that is not a terminal, and its games are rated")
    func botPasswordFromInput() async throws {
        try await withKeptGamesServer(quickGames) { server in
        let first = try Subprocess(try Tools.pairs(), ["bot"] + server.endpoint + ["--room", "piped", "--games", "1", "--think-ms", "0",
                                                                                     "--name", "zoë", "--password"])
        defer { first.terminate() }
        first.write("correct horse\n")
        let second = try Subprocess(try Tools.pairs(), ["bot"] + server.endpoint + ["--room", "piped", "--games", "1", "--think-ms", "0",
                                                                                      "--name", "yan"], environment: ["PAIRS_PASSWORD": "battery staple"])
        defer { second.terminate() }
        #expect(try await first.waitForExit(timeout: .seconds(60)) == 0, "\(first.errorText)")
        #expect(try await second.waitForExit(timeout: .seconds(60)) == 0, "\(second.errorText)")
        guard case .profile(let profile) = try server.ask(.profile(name: "zoë")) else { Issue.record("no profile"); return }
        #expect(profile.claimed)
        #expect(profile.games.first?.rated == true)
        #expect(profile.ratings.map(\.standing.games) == [1])
        // The name is now zoë's: the same password proves it, another does not.
        let wrong = try await server.run(["bot", "--name", "zoë", "--room", "again"], environment: ["PAIRS_PASSWORD": "staple battery"])
        #expect(wrong.status == 1 && wrong.errors.contains("that is not the password of zoë"), "\(wrong.errors)")
        }
    }

    @Test("pairs play with a claimed name: a wrong PAIRS_PASSWORD is said in a line and exits 1, the right one plays under the name")
    func playWithPasswordFromTheEnvironment() async throws {
        try await withKeptGamesServer(quickGames) { server in
        try await claim("ann", password: "ann's secret", on: server)
        let wrong = try await server.run(["play", "--name", "ann", "--room", "den"], environment: ["PAIRS_PASSWORD": "guess"])
        #expect(wrong.status == 1)
        #expect(wrong.errors == "pairs play: that is not the password of ann\n")
        #expect(!wrong.lines.contains { $0.contains("joined") })
        // Nobody can be asked when the input is not a terminal: a claimed name without its password stops.
        let none = try await server.run(["play", "--name", "ann", "--room", "den"])
        #expect(none.status == 1 && none.errors.contains("the name ann belongs to someone"), "\(none.errors)")

        let right = try Subprocess(try Tools.pairs(), ["play"] + server.endpoint + ["--name", "ann", "--room", "den"],
                                   environment: ["PAIRS_PASSWORD": "ann's secret"])
        defer { right.terminate() }
        try await right.waitForLine("the seat") { $0 == "you joined room den as player 1" }
        right.write("/quit\n")
        #expect(try await right.waitForExit() == 0)
        #expect(!right.lines.contains { $0.contains("ann's secret") } && !right.errorText.contains("ann's secret"))
        }
    }
}
