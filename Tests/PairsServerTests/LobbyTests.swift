import Foundation
import PairsRules
import PairsServer
import PairsWire
import PairsTestSupport
import Testing

@Suite("Lobby, rooms and resume", .ownThread)
struct LobbyTests {
    @Test("quick match pairs the next two players into a new room, never a player with itself")
    func quickMatchPairsTwo() throws {
        let server = try startServer()
        defer { server.stop() }
        let clients = try (0..<6).map { _ in try TestClient(port: server.port) }
        var rooms: [String: [Seat]] = [:]
        for client in clients {
            client.send("join")
            let joined = try client.waitFor("joined") { if case .joined = $0 { true } else { false } }
            guard case .joined(let info) = joined, let seat = info.seat else { Issue.record("no seat"); continue }
            rooms[info.room, default: []].append(seat)
        }
        #expect(rooms.count == 3)
        #expect(rooms.values.allSatisfy { $0.sorted { $0.index < $1.index } == [.first, .second] })
        // The same client asking twice is refused rather than paired with itself.
        clients[0].send("join")
        _ = try clients[0].waitForError(.alreadyInRoom)
    }

    @Test("quick match pairs only players who asked for the same options")
    func quickMatchRespectsOptions() throws {
        let server = try startServer()
        defer { server.stop() }
        let small = try TestClient(port: server.port)
        let large = try TestClient(port: server.port)
        let alsoSmall = try TestClient(port: server.port)
        try small.join(nil, extra: #","pairs":2"#)
        try large.join(nil, extra: #","pairs":6"#)
        try alsoSmall.join(nil, extra: #","pairs":2"#)
        #expect(small.seat == .first)
        #expect(large.seat == .first)
        #expect(alsoSmall.seat == .second)
        let state = try small.waitForState { $0.state.phase == .playing }
        #expect(state.state.cards.count == 4)
    }

    @Test("when many clients race for the last seat exactly one gets it")
    func joinRaceHasOneWinner() throws {
        let server = try startServer()
        defer { server.stop() }
        let owner = try TestClient(port: server.port)
        try owner.join("race")
        let racers = try (0..<20).map { _ in try TestClient(port: server.port) }
        for racer in racers { racer.send("join race") }
        var seated = 0
        var full = 0
        for racer in racers {
            let answer = try racer.waitFor("joined or room_full") {
                switch $0 {
                case .joined: true
                case .error(let error): error.code == .roomFull
                default: false
                }
            }
            if case .joined = answer { seated += 1 } else { full += 1 }
        }
        #expect(seated == 1)
        #expect(full == 19)
    }

    @Test("list shows rooms with their players, phase and spectators")
    func listShowsRooms() throws {
        let server = try startServer()
        defer { server.stop() }
        let players = try seatedPair(on: server, room: "busy")
        defer { withExtendedLifetime(players) {} }
        let waiting = try TestClient(port: server.port)
        try waiting.join("open")
        let looker = try TestClient(port: server.port)
        looker.send(#"{"type":"list","id":1}"#)
        let answer = try looker.waitFor("rooms") { if case .rooms = $0 { true } else { false } }
        guard case .rooms(let list) = answer else { return }
        #expect(list.total == 2)
        #expect(list.id == .integer(1))
        #expect(list.rooms.first?.name == "open") // rooms with a free seat come first
        #expect(list.rooms.first?.players == ["player3", nil])
        #expect(list.rooms.last?.phase == .playing)
    }

    @Test("leaving a game in progress forfeits it; the other player waits for a new opponent")
    func leavingForfeits() throws {
        let server = try startServer()
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server)
        second.send(#"{"type":"leave","id":8}"#)
        let forfeit = try first.waitForState { $0.state.event == StateEvent(.forfeit(.second, .left)) }
        #expect(forfeit.state.outcome == .win(.first))
        #expect(forfeit.id == .integer(8))
        _ = try second.waitFor("left") { $0 == .left(room: "r", id: .integer(8)) }
        let newcomer = try TestClient(port: server.port)
        try newcomer.join("r")
        #expect(newcomer.seat == .second)
        let start = try first.waitForState { $0.state.event.kind == .start }
        #expect(start.state.game == 2)
    }

    /// Every way a seat can move between framings: held over one, resumed over the other.
    static let framingPairs: [(TestClient.Transport, TestClient.Transport)] = [
        (.lines, .lines), (.lines, .webSocket), (.webSocket, .lines), (.webSocket, .webSocket),
    ]

    @Test("a dropped player resumes the seat within grace, and the old token no longer works", arguments: framingPairs)
    func resumeWithinGrace(heldOver held: TestClient.Transport, resumedOver resumed: TestClient.Transport) throws {
        let server = try startServer { $0.lobby.graceSeconds = 30 }
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server, over: (.lines, held))
        let token = try #require(second.token)
        switch held {
        case .lines:
            second.reset()
        case .webSocket:
            // A browser leaving the page (or reloading it) closes with 1001; the seat is kept all the same.
            second.send([.close(code: 1001, reason: Array("reload".utf8))])
            #expect(try second.waitForCloseFrame().closeCode == 1001)
        }
        let gone = try first.waitForState { $0.state.event == StateEvent(.disconnect(.second)) }
        #expect(gone.state.players[1]?.connected == false)

        let back = try TestClient(port: server.port, transport: resumed)
        back.send(#"{"type":"resume","token":"\#(token)","id":1}"#)
        let joined = try back.waitFor("joined") { if case .joined = $0 { true } else { false } }
        guard case .joined(let info) = joined else { return }
        #expect(info.seat == .second)
        #expect(info.token != token)
        let current = try back.waitForState()
        #expect(current.state.event == StateEvent(.reconnect(.second)))
        #expect(current.state.players[1]?.connected == true)
        _ = try first.waitForState { $0.state.event == StateEvent(.reconnect(.second)) }

        let replay = try TestClient(port: server.port, transport: resumed)
        replay.send(#"{"type":"resume","token":"\#(token)","id":2}"#)
        #expect(try replay.waitForError(.badToken).id == .integer(2))
    }

    @Test("resuming while the old connection is still open moves the seat to the new one", arguments: framingPairs)
    func resumeReplacesLiveConnection(heldOver held: TestClient.Transport, resumedOver resumed: TestClient.Transport) throws {
        let server = try startServer()
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server, over: (held, .lines))
        let token = try #require(first.token)
        let fresh = try TestClient(port: server.port, transport: resumed)
        fresh.send("resume \(token)")
        _ = try fresh.waitFor("joined") { if case .joined = $0 { true } else { false } }
        #expect(try first.waitForGoodbye() == .init(reason: .replaced, closeCode: held == .webSocket ? 1000 : nil))
        fresh.send("flip 0")
        _ = try second.waitForState { $0.state.event == StateEvent(.flip(.first, card: 0)) }
    }

    @Test("a player who stays away past the grace period forfeits and loses the seat")
    func forfeitAfterGrace() throws {
        let server = try startServer { $0.lobby.graceSeconds = 1 }
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server)
        let token = try #require(second.token)
        second.reset()
        let forfeit = try first.waitForState(within: 5) { $0.state.event == StateEvent(.forfeit(.second, .away)) }
        #expect(forfeit.state.outcome == .win(.first))
        let left = try first.waitForState { $0.state.event == StateEvent(.leave(.second)) }
        #expect(left.state.phase == .waiting)
        let late = try TestClient(port: server.port)
        late.send("resume \(token)")
        _ = try late.waitForError(.badToken)
    }

    @Test("a server on the IPv6 loopback plays like any other")
    func ipv6Loopback() throws {
        let server = try startServer { $0.host = "::1" }
        defer { server.stop() }
        #expect(server.listeningAddress == "[::1]:\(server.port)")
        let first = try TestClient(port: server.port, overIPv6: true)
        let second = try TestClient(port: server.port, overIPv6: true)
        try first.join("six")
        try second.join("six")
        first.send("flip 0")
        _ = try second.waitForState { $0.state.event == StateEvent(.flip(.first, card: 0)) }
    }

    @Test("a room with nobody left is removed")
    func emptyRoomsAreRemoved() throws {
        let server = try startServer()
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server)
        first.send("leave")
        second.send("leave")
        _ = try first.waitFor("left") { if case .left = $0 { true } else { false } }
        _ = try second.waitFor("left") { if case .left = $0 { true } else { false } }
        second.send(#"{"type":"stats","id":1}"#)
        let answer = try second.waitFor("stats") { if case .stats = $0 { true } else { false } }
        guard case .stats(let stats) = answer else { return }
        #expect(stats.rooms == 0)
        #expect(stats.connections == 2)
        #expect(stats.gamesFinished == 1)
        #expect(stats.messagesIn >= 4)
        #expect(stats.bytesOut > stats.bytesIn)
    }
}
