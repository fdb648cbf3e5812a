import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

@Suite("Rate limits, on a manual clock")
struct RateLimitTests {
    @Test("a burst of twice the rate is answered, the next message is dropped with rate_limited and its id")
    func burstThenRateLimited() {
        let lobby = LobbyHarness { $0.rateLimit = RateLimit(messagesPerSecond: 10) }
        let client = lobby.connect()
        _ = lobby.take(client)
        for number in 1...20 { lobby.send(#"{"type":"ping","id":\#(number)}"#, from: client) }
        #expect(lobby.take(client).count == 20)
        lobby.send(#"{"type":"ping","id":21}"#, from: client)
        let answer = lobby.take(client)
        guard case .error(let error)? = answer.first else { Issue.record("expected an error, got \(answer)"); return }
        #expect(error.code == .rateLimited)
        #expect(error.id == .integer(21))
    }

    @Test("the allowance comes back at the rate: a tenth of a second later one more message is answered")
    func allowanceRefills() {
        let lobby = LobbyHarness { $0.rateLimit = RateLimit(messagesPerSecond: 10) }
        let client = lobby.connect()
        for _ in 1...21 { lobby.send("ping", from: client) }
        _ = lobby.take(client)
        lobby.advance(by: 99)
        lobby.send("ping", from: client)
        #expect(lobby.errors(client) == [.rateLimited])
        lobby.advance(by: 1)
        lobby.send("ping", from: client)
        #expect(lobby.take(client) == [.pong(id: nil)])
    }

    @Test("a client that keeps sending after being told is disconnected with bye flooding, and its last lines are ignored")
    func floodingIsCutOff() {
        let lobby = LobbyHarness { $0.rateLimit = RateLimit(messagesPerSecond: 10) }
        let client = lobby.connect()
        // 20 answered, then 20 dropped with rate_limited (the drops' own allowance), then cut off.
        for _ in 1...40 { lobby.send("ping", from: client) }
        #expect(lobby.closed.isEmpty)
        lobby.send("ping", from: client)
        #expect(lobby.closed == [client: .flooding])
        _ = lobby.take(client)
        lobby.send("ping", from: client)
        #expect(lobby.take(client).isEmpty)
    }

    @Test("blank lines and lines over the limit count against the rate like any other message")
    func blankAndTooLongLinesCount() {
        let lobby = LobbyHarness { $0.rateLimit = RateLimit(messagesPerSecond: 10) }
        let client = lobby.connect()
        _ = lobby.take(client)
        for _ in 1...19 { lobby.send("", from: client) }
        lobby.sendTooLong(from: client)
        #expect(lobby.errors(client) == [.tooLong])
        lobby.send("ping", from: client)
        #expect(lobby.errors(client) == [.rateLimited])
    }

    @Test("with the rate limit off, thousands of messages in the same millisecond are all answered")
    func noLimit() {
        let lobby = LobbyHarness { $0.rateLimit = nil }
        let client = lobby.connect()
        _ = lobby.take(client)
        for _ in 1...5000 { lobby.send("ping", from: client) }
        #expect(lobby.take(client).count == 5000)
        #expect(lobby.closed.isEmpty)
    }
}
