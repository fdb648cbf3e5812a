import Foundation
import PairsLobby
import PairsRules
@testable import PairsServer
import PairsTestSupport
import PairsWeb
import PairsWire
import Testing

private typealias Frame = WebSocketTestClient.Frame

@Suite("Playing over a WebSocket", .ownThread)
struct WebSocketTests {
    @Test("the handshake is accepted with the RFC's answer, and welcome is the first text frame")
    func handshakeThenWelcome() throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port, transport: .webSocket)
        try client.readWelcome()
        #expect(client.textFrameCount == 1)
        #expect(server.statistics().connections == 1)
    }

    @Test("a WebSocket that says quit and resets at once is let go while its frame is still being read, and the server serves on")
    func quitThenResetWhileReading() throws {
        let server = try startServer()
        defer { server.stop() }
        let quitter = try TestClient(port: server.port, transport: .webSocket)
        try quitter.readWelcome()
        // A pong left unread, so that closing makes the kernel answer the server with a reset.
        quitter.send("ping")
        try blockingWaitUntil("the pong in the quitter's socket") { quitter.hasUnreadBytes() }
        // Hold the server's queue while the quit and the reset arrive: the bye it then writes fails inside the
        // read that brought the quit, and the connection is let go from there (once a crash: the goodbye
        // read the connection's framing, which that read was mutating).
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        server.queue.async { held.signal(); release.wait() }
        held.wait()
        quitter.send("quit")
        quitter.close()
        release.signal()
        try blockingWaitUntil("the quitter gone") { server.statistics().connections == 0 }
        let other = try TestClient(port: server.port, transport: .webSocket)
        other.send(#"{"type":"ping","id":3}"#)
        _ = try other.waitFor("pong") { $0 == .pong(id: .integer(3)) }
    }

    @Test("a line client and a WebSocket client play a whole game, in either seat, and see the same final state",
          arguments: [(TestClient.Transport.lines, TestClient.Transport.webSocket), (.webSocket, .lines), (.webSocket, .webSocket)])
    func gameAcrossFramings(first: TestClient.Transport, second: TestClient.Transport) throws {
        let server = try startServer()
        defer { server.stop() }
        let players = try seatedPair(on: server, over: (first, second))
        let final = try playToEnd([players.first, players.second])
        #expect(final.phase == .over)
        let other = try players.second.waitForState { $0.state.phase == .over }
        #expect(other.state == final)
        // Every message came in a text frame of its own.
        for player in [players.first, players.second] where player.transport == .webSocket {
            #expect(player.textFrameCount > 10)
        }
    }

    @Test("text commands work in frames as they do in lines")
    func textCommandsInFrames() throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port, transport: .webSocket)
        client.send("join kitchen")
        try client.waitFor("joined") { if case .joined(let joined) = $0 { joined.room == "kitchen" } else { false } }
        client.send("list")
        _ = try client.waitFor("rooms") { if case .rooms = $0 { true } else { false } }
    }

    @Test("frames sent in the same write as the handshake are read after it")
    func framesRightBehindTheHandshake() throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port, transport: .webSocket, sendingWithHandshake: [
            .text(#"{"type":"ping","id":1}"#), .ping(Array("p".utf8)), .text(#"{"type":"ping","id":2}"#),
        ])
        try client.readWelcome()
        #expect(try client.next() == .pong(id: .integer(1)))
        #expect(try client.next() == .pong(id: .integer(2)))
        #expect(client.controlFrames.map(\.opcode) == [0xA])
        #expect(client.controlFrames.first?.payload == Array("p".utf8))
    }

    @Test("a message over 4096 bytes closes a WebSocket with 1009, where a line gets too_long and goes on")
    func oversizedMessage() throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port, transport: .webSocket)
        client.send(String(repeating: "x", count: 4097))
        #expect(try client.waitForCloseFrame().closeCode == 1009)
        try client.waitForClose()
        #expect(!client.wasReset)
    }

    @Test("a WebSocket player who closes keeps the seat for the grace period, and the close is echoed")
    func closeKeepsTheSeat() throws {
        let server = try startServer { $0.lobby.graceSeconds = 30 }
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server, over: (.lines, .webSocket))
        second.send([.close(code: 1000)])
        #expect(try second.waitForCloseFrame().closeCode == 1000)
        try second.waitForClose()
        #expect(!second.wasReset)
        let gone = try first.waitForState { $0.state.event == StateEvent(.disconnect(.second)) }
        #expect(gone.state.players[1]?.connected == false)
    }

    @Test("at shutdown a WebSocket gets bye shutdown as a text frame, then close 1001, then the end of the stream")
    func shutdownSaysGoodbye() throws {
        let server = try startServer()
        let (first, second) = try seatedPair(on: server, over: (.webSocket, .lines))
        server.stop()
        #expect(try first.waitForGoodbye() == .init(reason: .shutdown, closeCode: 1001))
        #expect(try second.waitForGoodbye() == .init(reason: .shutdown, closeCode: nil))
        #expect(!first.wasReset)
    }
}

/// What the server must do with an Autobahn case's frames, worked out from the events its decoder gives
/// (which the codec's own tests check against the reference): every non-blank text message is one
/// request and gets one reply, every ping a pong with its payload, and a close or a failure ends with a
/// close frame, the peer's code echoed or the error's code, and an orderly end of the stream.
private struct ExpectedTraffic {
    var replies = 0
    var pongs: [[UInt8]] = []
    var closeCode: UInt16?

    init(_ events: [Received]) {
        for event in events {
            switch event {
            case .text(let bytes):
                // Blank messages are ignored, as blank lines are.
                if !bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { replies += 1 }
            case .ping(let payload): pongs.append(payload)
            case .pong: break
            case .close(let code, _): closeCode = code ?? 1000
            case .failure(let error): closeCode = error.closeCode.rawValue
            }
        }
    }
}

@Test("every Autobahn case that applies, over a real socket: replies, pongs, close codes and orderly ends", .ownThread)
func autobahnCasesOverSockets() throws {
    let server = try startServer { $0.lobby.rateLimit = nil }
    defer { server.stop() }
    let marker = #"{"type":"ping","id":"end of case"}"#
    for testCase in autobahnCases {
        let expected = ExpectedTraffic(testCase.expected)
        let client = try TestClient(port: server.port, transport: .webSocket)
        try client.readWelcome()
        client.send(testCase.frames)
        var replies = 0
        if let code = expected.closeCode {
            #expect(try client.waitForCloseFrame().closeCode == code, "\(testCase.id)")
            // Whatever came before the close frame has been read with it.
            while (try? client.next(within: 0)) != nil { replies += 1 }
            try client.waitForClose()
            #expect(!client.wasReset, "\(testCase.id)")
        } else {
            // A case that leaves the connection open is followed by a request of our own, whose answer
            // comes after every answer to the case.
            client.send(marker)
            try client.waitFor("the marker's pong") { message in
                if message == .pong(id: .string("end of case")) { return true }
                replies += 1
                return false
            }
        }
        #expect(replies == expected.replies, "\(testCase.id)")
        #expect(client.controlFrames.filter { $0.opcode == 0xA }.map(\.payload) == expected.pongs, "\(testCase.id)")
        #expect(client.controlFrames.allSatisfy { $0.opcode == 0xA || $0.opcode == 0x8 }, "\(testCase.id)")
    }
}
