import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsRules
import PairsServer
import PairsTestSupport
import PairsWire
@testable import PairsClient
import Testing

/// A session to the server on `port` with its events in a log; `start()` is called.
private func session(to port: Int, name: String, policy: ReconnectPolicy = ReconnectPolicy(windowMilliseconds: 10_000, firstDelayMilliseconds: 50))
    -> (ClientSession, EventLog<SessionEvent>) {
    let queue = DispatchQueue(label: "test.session.\(name)")
    let session = ClientSession(endpoint: ServerEndpoint(host: "127.0.0.1", port: port), name: name, queue: queue,
                                reconnectPolicy: policy)
    let log = EventLog<SessionEvent>()
    queue.sync {
        session.onEvent = { log.append($0) }
        session.start()
    }
    return (session, log)
}

private func joined(_ event: SessionEvent) -> Joined? {
    if case .message(.joined(let joined)) = event { joined } else { nil }
}

private func state(_ event: SessionEvent) -> WireState? {
    if case .message(.state(let message)) = event { message.state } else { nil }
}

@Test("after a dropped connection the session reconnects, takes its seat back, and the game goes on", .ownThread)
func sessionResumesAfterADrop() async throws {
    let server = try startServer()
    defer { server.stop() }
    // Ann's connections go through a proxy that can cut them, as a network failure would.
    let proxy = try TCPProxy(serverPort: server.port)
    defer { proxy.close() }
    let (ann, annLog) = try await seatedPlayer(port: proxy.port, "ann")
    let (_, bobLog) = try await seatedPlayer(port: server.port, "bob")
    _ = try await bobLog.waitFor("the game to start") { state($0).flatMap { $0.phase == .playing ? true : nil } }
    let seat = ann.queue.sync { ann.seat }
    let before = annLog.all.count

    proxy.cut(0)

    _ = try await annLog.waitFor("the drop", from: before) { if case .connectionLost = $0 { true } else { nil } }
    _ = try await annLog.waitFor("reconnection", from: before) { if case .reconnected = $0 { true } else { nil } }
    let back = try await annLog.waitFor("the seat back", from: before) { joined($0) }
    #expect(back.seat == seat)
    #expect(back.room == "kitchen")
    let resumed = try await bobLog.waitFor("ann's return") { event -> WireState? in
        guard let state = state(event), state.event.kind == .reconnect else { return nil }
        return state
    }
    #expect(resumed.players[seat!.index]?.name == "ann")
    #expect(resumed.players[seat!.index]?.connected == true)
    // The new connection works: ann can play on it.
    if resumed.turn == seat {
        let id = ann.queue.sync { ann.send(.flip(card: 0)) }
        #expect(id != nil)
        _ = try await annLog.waitFor("the flip") { event -> Bool? in
            guard case .message(.state(let message)) = event, message.id == id else { return nil }
            return true
        }
    }
    ann.queue.sync { ann.close() }
}

@Test("when the server has given the seat away, the session says the seat is lost and stays connected", .ownThread)
func sessionReportsALostSeat() async throws {
    // With no grace period the seat is forfeited the moment the connection drops.
    let server = try startServer(graceSeconds: 0)
    defer { server.stop() }
    let proxy = try TCPProxy(serverPort: server.port)
    defer { proxy.close() }
    let (ann, annLog) = try await seatedPlayer(port: proxy.port, "ann")
    let (_, bobLog) = try await seatedPlayer(port: server.port, "bob")
    _ = try await bobLog.waitFor("the game to start") { state($0).flatMap { $0.phase == .playing ? true : nil } }
    proxy.cut(0)
    let refusal = try await annLog.waitFor("the refusal") { event -> RequestError? in
        if case .seatLost(let error) = event { error } else { nil }
    }
    #expect(refusal.code == .badToken)
    #expect(ann.queue.sync { ann.seat == nil && ann.token == nil })
    // Still connected: a request gets its answer.
    let ping = ann.queue.sync { ann.send(.ping) }
    #expect(ping != nil)
    _ = try await annLog.waitFor("the pong") { event -> Bool? in
        if case .message(.pong(let id)) = event, id == ping { true } else { nil }
    }
    ann.queue.sync { ann.close() }
}

@Test("when the server is gone for good the session gives up once the window closes, and says why", .ownThread)
func sessionGivesUp() async throws {
    let server = try startServer()
    let proxy = try TCPProxy(serverPort: server.port)
    let (_, annLog) = try await seatedPlayer(port: proxy.port, "ann", policy: ReconnectPolicy(windowMilliseconds: 600, firstDelayMilliseconds: 50))
    // The proxy stops taking connections and cuts ann's: from now on, every reconnect is refused.
    proxy.close()
    server.stop()
    let end = try await annLog.waitFor("the end") { event -> SessionEnd? in if case .ended(let end) = event { end } else { nil } }
    guard case .gaveUp(let reason) = end else { Issue.record("expected to give up, got \(end)"); return }
    // The last failure in a few words, for the one sentence that gives up (not "cannot connect to ...: ...").
    #expect(reason == ConnectionError.refused)
    let attempts = annLog.all.compactMap { event -> Int? in if case .reconnecting(let attempt, _) = event { attempt } else { nil } }
    #expect(attempts.count >= 2)
    #expect(attempts == Array(1...attempts.count))
}

@Test("a goodbye from a server shutting down ends the session without retrying", .ownThread)
func sessionEndsOnShutdown() async throws {
    let server = try startServer()
    let (_, log) = try await seatedPlayer(port: server.port, "ann")
    server.stop()
    let end = try await log.waitFor("the end") { event -> SessionEnd? in if case .ended(let end) = event { end } else { nil } }
    #expect(end == .bye(.shutdown))
    #expect(!log.all.contains { if case .reconnecting = $0 { true } else { false } })
}

@Test("a session that cannot connect at all ends at once with the connection error", .ownThread)
func sessionCannotConnect() async throws {
    let (socket, port) = try Loopback.bind()
    defer { close(socket) }
    let (_, log) = session(to: port, name: "ann")
    let end = try await log.waitFor("the end") { event -> SessionEnd? in if case .ended(let end) = event { end } else { nil } }
    guard case .cannotConnect(.cannotConnect) = end else { Issue.record("got \(end)"); return }
}

@Test("reconnect delays start short, double, stop at the maximum, and stop altogether when the window closes", .ownThread)
func reconnectBackoff() {
    let policy = ReconnectPolicy(windowMilliseconds: 60_000, firstDelayMilliseconds: 250, maxDelayMilliseconds: 5_000)
    let delays = (1...8).map { policy.delay(beforeAttempt: $0, elapsedMilliseconds: 0) }
    #expect(delays == [250, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000])
    #expect(policy.delay(beforeAttempt: 3, elapsedMilliseconds: 59_500) == nil)
    #expect(policy.delay(beforeAttempt: 1, elapsedMilliseconds: 59_000) == 250)
    #expect(ReconnectPolicy.never.delay(beforeAttempt: 1, elapsedMilliseconds: 0) == nil)
}

/// A session to the server (or proxy) on `port`, seated in room "kitchen".
private func seatedPlayer(port: Int, _ name: String,
                          policy: ReconnectPolicy = ReconnectPolicy(windowMilliseconds: 10_000, firstDelayMilliseconds: 50)) async throws
    -> (ClientSession, EventLog<SessionEvent>) {
    let (player, log) = session(to: port, name: name, policy: policy)
    _ = try await log.waitFor("\(name) to be greeted") { if case .ready = $0 { true } else { nil } }
    player.queue.sync { _ = player.send(.join(JoinRequest(room: "kitchen"))) }
    _ = try await log.waitFor("\(name) to sit down") { joined($0) }
    return (player, log)
}
