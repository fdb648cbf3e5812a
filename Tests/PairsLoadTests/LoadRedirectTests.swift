import Foundation
import PairsLoad
import PairsServer
import PairsTestSupport
import PairsWire
import Testing

@Suite(.serialized, .ownThread)
struct LoadRedirectTests {
    @Test("--follow-redirects: every join answered with a redirect is sent again where it names, and every game is played there")
    func followsRedirects() throws {
        let first = try startServer()
        defer { first.stop() }
        let second = try startServer()
        defer { second.stop() }
        let proxy = try TCPProxy.redirecting(from: first.port, to: second.port)
        var configuration = loadConfiguration(port: proxy.port, concurrency: 3, games: 6)
        configuration.followsRedirects = true
        let report = try runToEnd(try LoadRunner(configuration: configuration))
        #expect(report.games == 6)
        #expect(report.errorCount == 0, "errors: \(report.errors)")
        #expect(report.connectionFailureCount == 0 && report.connectionDropCount == 0)
        #expect(second.statistics().gamesFinished == 6, "the games were played where the redirects said")
    }
}
