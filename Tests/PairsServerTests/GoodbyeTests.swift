import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
import PairsRules
@testable import PairsServer
import PairsTestSupport
import PairsWire
import PairsTestSupport
import Testing

@Suite("Goodbyes that arrive", .ownThread)
struct GoodbyeTests {
    @Test("a client that floods 20,000 pings in one write reads rate_limited and bye flooding, then an orderly end, not a reset",
          arguments: [TestClient.Transport.lines, .webSocket])
    func floodGetsItsGoodbye(over transport: TestClient.Transport) throws {
        let server = try startServer { $0.lobby.rateLimit = RateLimit(messagesPerSecond: 40) }
        defer { server.stop() }
        let client = try TestClient(port: server.port, transport: transport)
        client.sendRaw(transport == .lines ? Array(String(repeating: "ping\n", count: 20_000).utf8)
                       : WebSocketTestClient.encode([WebSocketTestClient.Frame](repeating: .text("ping"), count: 20_000)))
        let limited = try client.waitForError(.rateLimited)
        #expect(limited.code == .rateLimited)
        // On a WebSocket the bye is followed by a close frame saying the client broke a rule.
        #expect(try client.waitForGoodbye() == .init(reason: .flooding, closeCode: transport == .webSocket ? 1008 : nil))
        #expect(!client.wasReset)
    }

    @Test("a leave followed at once by a reset still counts, even when the server writes to the leaver before reading it")
    func leaveBeforeResetIsHandled() throws {
        let server = try startServer { $0.lobby.graceSeconds = 600 }
        defer { server.stop() }
        let (leaver, stayer) = try seatedPair(on: server, room: "reset")
        // Something for the leaver not to read, so that its close makes the kernel answer with a reset.
        stayer.send("say are you there?")
        _ = try stayer.waitFor("the chat") { if case .chat = $0 { true } else { false } }
        // Hold the server's queue while both clients act, so that when it runs again it finds the stayer's
        // chat first (its socket became ready first) and sends it to the leaver, whose reset has arrived by
        // then: the write fails before the leaver's socket is read.
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        server.queue.async { held.signal(); release.wait() }
        held.wait()
        stayer.send("say bye then")
        usleep(20_000)
        leaver.send("leave")
        leaver.close()
        usleep(50_000)
        release.signal()
        // The leave forfeits at once, where a lost leave would keep the seat for the ten-minute grace period.
        let forfeit = try stayer.waitForState(within: 5) { $0.state.event == StateEvent(.forfeit(.first, .left)) }
        #expect(forfeit.state.outcome == .win(.second))
    }
}
