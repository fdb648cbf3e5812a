import Foundation
import PairsClient
import PairsServer
import PairsTestSupport
import PairsWire
import Synchronization
import Testing

/// Rewrites the first `joined` a server sends on a connection into a `redirect` to another server, as an
/// instance of a cluster that does not own the room answers (protocol.md, "Several instances"). The rest of
/// the first server's lines come through untouched, as they would: the client must ignore them.
private final class RedirectingLines: @unchecked Sendable {
    // @unchecked: one per proxied connection, called on that connection's thread only.
    private let target: Int
    private var hasRedirected = false

    init(to port: Int) {
        target = port
    }

    func rewrite(_ line: [UInt8]) -> [UInt8] {
        guard !hasRedirected, case .joined(let joined)? = try? ServerMessageDecoder.decode(line: line) else { return line + [UInt8(ascii: "\n")] }
        hasRedirected = true
        return ServerMessageEncoder.encode(.redirect(Redirect(host: "127.0.0.1", port: target, request: .join, room: joined.room, id: joined.id)))
    }
}

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
        let proxy = try TCPProxy(serverPort: first.port) { let lines = RedirectingLines(to: port); return { lines.rewrite($0) } }
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
