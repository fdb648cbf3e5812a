import Foundation
import PairsClient
import PairsServer
import PairsTestSupport
import PairsWire
import Synchronization
import Testing

@Suite("Clients follow redirects", .ownThread)
struct RedirectTests {
    /// Bounds a bots' game that goes wrong: a debug build on a busy machine is slow.
    static let gameSeconds: TimeInterval = 120

    @Test("a bot sent to another server by a redirect plays its game there, and says nothing of it")
    func botFollowsARedirect() throws {
        let first = try startServer()
        defer { first.stop() }
        let second = try startServer()
        defer { second.stop() }
        let port = second.port
        let proxy = try TCPProxy.redirecting(from: first.port, to: port)
        let diagnostics = Mutex<[String]>([])
        let outcomes = Mutex<[String: BotRunner.Outcome]>([:])
        // Held until the games end: a runner's session refers back to it without keeping it.
        var runners: [BotRunner] = []
        for (name, endpoint) in [("ann", ServerEndpoint(host: "127.0.0.1", port: proxy.port)), ("bob", ServerEndpoint(host: "127.0.0.1", port: port))] {
            let configuration = BotConfiguration(endpoint: endpoint, room: "kitchen", games: 1, thinkMilliseconds: 0, name: name, seed: 5)
            let runner = BotRunner(configuration: configuration, output: { _ in }, diagnostics: { line in diagnostics.withLock { $0.append(line) } })
            runner.start { outcome in outcomes.withLock { $0[name] = outcome } }
            runners.append(runner)
        }
        let finished = try blockingWaitFor("both bots' games", within: Self.gameSeconds) { outcomes.withLock { $0.count == 2 ? $0 : nil } }
        for (name, outcome) in finished {
            #expect(outcome.failure == nil, "\(name): \(outcome.failure ?? "")")
            #expect(outcome.records.count == 1, "\(name) played \(outcome.records.count) games")
        }
        #expect(second.statistics().gamesFinished == 1, "the game was played on the server the redirect named")
        #expect(diagnostics.withLock { $0 }.isEmpty, "\(diagnostics.withLock { $0 })")
        withExtendedLifetime(runners) {}
    }
}
