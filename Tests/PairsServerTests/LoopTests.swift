import Dispatch
import Foundation
import PairsRules
@testable import PairsServer
import PairsTestSupport
import PairsWire
import Synchronization
import Testing

/// A server on three loops whose `n`th connection accepted goes to loop `pins[n]`: each test places its
/// clients so that what it tests crosses between loops.
private func pinnedServer(_ pins: [Int], clock: (any TransportClock)? = nil,
                          _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> Server {
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.log.level = .error
    configuration.lobby.defaultRules = RuleSet(pairs: 4, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true)
    configuration.loops = 3
    configuration.dealing = { n, _ in n < pins.count ? pins[n] : 0 }
    configure(&configuration)
    let server = clock.map { Server(configuration: configuration, store: nil, clock: $0, storageStep: { _ in }) }
        ?? Server(configuration: configuration)
    try server.start()
    return server
}

/// A client connected and greeted, so that the next connection is the next one accepted.
private func greeted(_ server: Server, receiveBufferBytes: Int32? = nil) throws -> (client: TestClient, session: String) {
    let client = try TestClient(port: server.port, receiveBufferBytes: receiveBufferBytes)
    client.send("ping")
    let welcome = try client.readWelcome()
    return (client, welcome.session)
}

/// The loop whose table holds the connection `session` now (nil when none does).
private func loop(holding session: String, on server: Server) -> Int? {
    server.group.loops.firstIndex { loop in loop.queue.sync { loop.sockets.open.all.contains { $0.id.description == session } } }
}

private func isJoined(_ message: ServerMessage) -> Bool {
    if case .joined = message { true } else { false }
}

/// The next two connections, greeted, playing a game in room `r` (on the first one's loop).
private func twoPlaying(on server: Server) throws -> (first: TestClient, second: TestClient) {
    let (first, _) = try greeted(server)
    let (second, _) = try greeted(server)
    try first.join("r")
    try second.join("r")
    _ = try first.waitForState { $0.state.phase == .playing }
    return (first, second)
}

/// Two playing in room `r`, then the second player's connection reset: its seat is held. Returns the
/// first player and the second's resume token.
private func secondPlayerDropped(on server: Server) throws -> (first: TestClient, token: String) {
    let (first, second) = try twoPlaying(on: server)
    let token = try #require(second.token)
    second.reset()
    _ = try first.waitForState { $0.state.event == StateEvent(.disconnect(.second)) }
    return (first, token)
}

@Suite("Rooms on several event loops", .ownThread)
struct LoopTests {
    @Test("the last seat of a room, raced for from two other loops at once, goes to exactly one of them; the other is told room_full")
    func lastSeatRacedFromTwoLoops() throws {
        let server = try pinnedServer([0, 1, 2])
        defer { server.stop() }
        let (host, _) = try greeted(server)
        let (left, leftSession) = try greeted(server)
        let (right, rightSession) = try greeted(server)
        try host.join("r")
        left.send(#"{"type":"join","room":"r","id":1}"#)
        right.send(#"{"type":"join","room":"r","id":2}"#)
        var winners: [String] = []
        for (client, session) in [(left, leftSession), (right, rightSession)] {
            let answer = try client.waitFor("joined or room_full") { message in
                if case .error(let error) = message { return error.code == .roomFull }
                return isJoined(message)
            }
            if isJoined(answer) { winners.append(session) }
        }
        #expect(winners.count == 1)
        let playing = try host.waitForState { $0.state.phase == .playing }
        #expect(playing.state.players.compactMap { $0 }.count == 2)
        // The winner sits with the host, on the room's loop.
        let winner = try #require(winners.first)
        #expect(loop(holding: winner, on: server) == 0)
    }

    @Test("a dropped player resumes the seat from a connection on another loop, which moves to the room's loop")
    func resumeOnAnotherLoop() throws {
        let server = try pinnedServer([0, 0, 2]) { $0.lobby.graceSeconds = 30 }
        defer { server.stop() }
        let (first, token) = try secondPlayerDropped(on: server)
        let (back, session) = try greeted(server)
        #expect(loop(holding: session, on: server) == 2)
        back.send(#"{"type":"resume","token":"\#(token)","id":1}"#)
        let joined = try back.waitFor("joined", isJoined)
        guard case .joined(let info) = joined else { return }
        #expect(info.seat == .second)
        _ = try first.waitForState { $0.state.event == StateEvent(.reconnect(.second)) }
        #expect(loop(holding: session, on: server) == 0)
        // The resumed seat plays: its flips reach the other player.
        first.send("flip 0")
        first.send("flip 1")
        _ = try back.waitForState { $0.state.event == StateEvent(.flip(.first, card: 1)) || $0.state.seq >= 5 }
    }

    @Test("a spectator on another loop follows the room to its loop and sees every flip")
    func spectatorOnAnotherLoop() throws {
        let server = try pinnedServer([1, 1, 2])
        defer { server.stop() }
        let (first, second) = try twoPlaying(on: server)
        let (spectator, session) = try greeted(server)
        spectator.send(#"{"type":"watch","room":"r","id":9}"#)
        let joined = try spectator.waitFor("joined", isJoined)
        #expect(joined == .joined(Joined(room: "r", seat: nil, token: nil, id: .integer(9))))
        #expect(loop(holding: session, on: server) == 1)
        first.send("flip 1")
        let flip = try spectator.waitForState { $0.state.event == StateEvent(.flip(.first, card: 1)) }
        #expect(flip.spectators == 1)
        // The second player was seated throughout (and kept connected until here).
        #expect(second.token != nil && flip.state.players[1]?.connected == true)
    }

    @Test("two people asking for a quick match on different loops are paired in one room")
    func quickMatchAcrossLoops() throws {
        let server = try pinnedServer([1, 2])
        defer { server.stop() }
        let (first, firstSession) = try greeted(server)
        let (second, secondSession) = try greeted(server)
        try first.join()
        try second.join()
        let one = try first.waitForState { $0.state.phase == .playing }
        let other = try second.waitForState { $0.state.phase == .playing }
        #expect(one.room == other.room)
        #expect(loop(holding: firstSession, on: server) == loop(holding: secondSession, on: server))
    }

    @Test("a connection moves with its output backed up: every answer queued before the move arrives, in order, before the join's")
    func moveWithBackedUpOutput() throws {
        let server = try pinnedServer([0, 1]) {
            $0.lobby.rateLimit = nil
            $0.outputBufferLimitBytes = 8 * 1024 * 1024
        }
        defer { server.stop() }
        let (host, _) = try greeted(server)
        try host.join("r")
        // A reader with a small window that asks for many answers and then a room on another loop, in one write.
        let (mover, session) = try greeted(server, receiveBufferBytes: 4096)
        let asks = 2000
        var burst = ""
        for index in 0..<asks { burst += #"{"type":"list","id":\#(index)}"# + "\n" }
        burst += #"{"type":"join","room":"r","id":"last"}"# + "\n"
        mover.sendRaw(Array(burst.utf8))
        var lists = 0
        let joined = try mover.waitFor("joined", within: 20) { message in
            if case .rooms(let rooms) = message {
                #expect(rooms.id == .integer(Int64(lists)), "answers out of order")
                lists += 1
            }
            return isJoined(message)
        }
        #expect(lists == asks)
        guard case .joined(let info) = joined else { return }
        #expect(info.id == .string("last"))
        #expect(loop(holding: session, on: server) == 0)
        _ = try host.waitForState { $0.state.phase == .playing }
    }

    @Test("what a connection sends right behind the join that moves it is handled on the room's loop, in order")
    func inputBehindAMoveFollowsIt() throws {
        let server = try pinnedServer([0, 1])
        defer { server.stop() }
        let (host, _) = try greeted(server)
        try host.join("r")
        let (mover, session) = try greeted(server)
        mover.sendRaw(Array((#"{"type":"join","room":"r","id":1}"# + "\n" + #"{"type":"leave","id":2}"# + "\n" + #"{"type":"ping","id":3}"# + "\n").utf8))
        _ = try mover.waitFor("joined", isJoined)
        _ = try mover.waitFor("left") { if case .left(_, let id) = $0 { id == .integer(2) } else { false } }
        _ = try mover.waitFor("pong") { if case .pong(let id) = $0 { id == .integer(3) } else { false } }
        #expect(loop(holding: session, on: server) == 0)
    }

    @Test("a connection that closes right after asking to join a room on another loop: the seat is held for it, and no socket or client is left behind")
    func moveRacesADisconnect() throws {
        let server = try pinnedServer([0, 1]) { $0.lobby.graceSeconds = 30 }
        defer { server.stop() }
        let (host, _) = try greeted(server)
        try host.join("r")
        let (leaver, _) = try greeted(server)
        leaver.send(#"{"type":"join","room":"r","id":1}"#)
        leaver.reset()
        // Whether the join came before the close or not, the books balance: one client, one socket.
        try blockingWaitUntil("the leaver to be gone") { server.statistics().connections == 1 && server.openSockets == 1 }
        let stats = server.statistics()
        #expect(stats.loops?.map(\.connections).reduce(0, +) == 1)
    }

    @Test("a shutdown says bye to the connections of every loop")
    func shutdownReachesEveryLoop() throws {
        let server = try pinnedServer([0, 1, 2])
        let clients = try (0..<3).map { _ in try greeted(server) }
        #expect(Set(clients.map { loop(holding: $0.session, on: server) }) == [0, 1, 2])
        server.stop()
        for (client, _) in clients { #expect(try client.waitForBye() == .shutdown) }
    }

    @Test("a held seat's grace running out while its player moves in from another loop: the player is told one clear answer, and the room agrees")
    func deadlineFiresWhileAPlayerMovesIn() throws {
        let clock = ManualClock()
        let server = try pinnedServer([0, 0, 1], clock: clock) { $0.lobby.graceSeconds = 5 }
        defer { server.stop() }
        let (first, token) = try secondPlayerDropped(on: server)
        let (back, _) = try greeted(server)
        // The room's loop is held while the resume is handed to it and the grace runs out: both wait on its queue.
        let roomLoop = server.group.loops[0]
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        roomLoop.queue.async { held.signal(); release.wait() }
        held.wait()
        back.send(#"{"type":"resume","token":"\#(token)","id":1}"#)
        let mover = server.group.loops[1]
        try blockingWaitUntil("loop 1 to hand the resume over") { mover.queue.sync { mover.lobby.loopStatistics.handOffs == 1 } }
        clock.advance(by: 5_000)
        release.signal()
        let answer = try back.waitFor("joined or bad_token") { message in
            if case .error(let error) = message { return error.code == .badToken }
            return isJoined(message)
        }
        if isJoined(answer) {
            _ = try first.waitForState { $0.state.event == StateEvent(.reconnect(.second)) }
        } else {
            let over = try first.waitForState { $0.state.players[1] == nil || $0.state.phase != .playing }
            #expect(over.state.players[1]?.connected != true)
        }
    }

    @Test("stats, /stats and /metrics say how connections, rooms, flips and hand-offs are spread over the loops, and the totals are their sums")
    func statisticsPerLoop() throws {
        let server = try pinnedServer([1, 1, 2, 2])
        defer { server.stop() }
        let (first, _) = try greeted(server)
        let (second, _) = try greeted(server)
        let (asker, _) = try greeted(server)
        let (spectator, _) = try greeted(server)
        try first.join("r")
        try second.join("r")
        _ = try first.waitForState { $0.state.phase == .playing }
        // The spectator is handed from loop 2 to the room's loop: the one hand-off, counted by the loop it left.
        spectator.send(#"{"type":"watch","room":"r"}"#)
        _ = try spectator.waitFor("joined", isJoined)
        first.send("flip 0")
        _ = try spectator.waitForState { $0.state.event == StateEvent(.flip(.first, card: 0)) }
        asker.send(#"{"type":"stats","id":7}"#)
        guard case .stats(let stats) = try asker.waitFor("stats", { if case .stats = $0 { true } else { false } }) else { return }
        #expect(stats.id == .integer(7))
        #expect(stats.loops == [LoopCounters(), LoopCounters(connections: 3, rooms: 1, flips: 1),
                                LoopCounters(connections: 1, rooms: 0, flips: 0, handOffs: 1)])
        #expect(stats.connections == 4 && stats.rooms == 1 && stats.flips == 1)

        let page = try TestClient(port: server.port)
        page.sendRaw(Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let reply = try #require(HTTPReply(try page.readToEnd(within: 20)))
        #expect(reply.status == 200)
        #expect(reply.text.contains("pairs_loop_connections{loop=\"1\"} 3"))
        #expect(reply.text.contains("pairs_loop_flips_total{loop=\"1\"} 1"))
        #expect(reply.text.contains("pairs_loop_rooms{loop=\"2\"} 0"))
        #expect(reply.text.contains("pairs_loop_hand_offs_total{loop=\"2\"} 1"))
        #expect(reply.text.contains("pairs_loop_hand_offs_total{loop=\"1\"} 0"))
    }

    @Test("a server on one loop sends stats without loops, as it always did")
    func oneLoopSendsNoLoops() throws {
        let server = try startServer { $0.loops = 1 }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send("stats")
        guard case .stats(let stats) = try client.waitFor("stats", { if case .stats = $0 { true } else { false } }) else { return }
        #expect(stats.loops == nil)
    }
}
