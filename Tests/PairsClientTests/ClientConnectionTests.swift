import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsClient
import PairsRules
import PairsServer
import PairsWire
import PairsTestSupport
import Testing

/// A connection to `server` whose events land in the returned log.
private func connect(to server: Server, host: String = "127.0.0.1") throws -> (ClientConnection, EventLog<ConnectionEvent>) {
    let queue = DispatchQueue(label: "test.connection")
    let connection = try ClientConnection.open(to: ServerEndpoint(host: host, port: server.port), queue: queue)
    let log = EventLog<ConnectionEvent>()
    queue.sync { connection.start { log.append($0) } }
    return (connection, log)
}

@Test("a connection reads the welcome, sends JSON requests and reads the answers as messages", .ownThread)
func connectionTalksToTheServer() async throws {
    let server = try startServer()
    defer { server.stop() }
    let (connection, log) = try connect(to: server)
    let welcome = try await log.waitFor("welcome") { event -> Welcome? in
        if case .message(.welcome(let welcome)) = event { welcome } else { nil }
    }
    #expect(welcome.protocolVersion == WireProtocol.version)
    let sending = connection.queue.sync { Result { try connection.send(Request(id: .integer(7), .join(JoinRequest(room: "kitchen")))) } }
    try sending.get()
    let joined = try await log.waitFor("joined") { event -> Joined? in
        if case .message(.joined(let joined)) = event { joined } else { nil }
    }
    #expect(joined == Joined(room: "kitchen", seat: .first, token: joined.token, id: .integer(7)))
    let state = try await log.waitFor("state") { event -> StateMessage? in
        if case .message(.state(let state)) = event { state } else { nil }
    }
    #expect(state.state.phase == .waiting)
    #expect(state.id == .integer(7))
    connection.queue.sync { connection.close() }
}

@Test("a server going away is reported as a goodbye and then an end of stream, once", .ownThread)
func connectionReportsTheEnd() async throws {
    let server = try startServer()
    let (connection, log) = try connect(to: server)
    _ = try await log.waitFor("welcome") { event -> Bool? in if case .message(.welcome) = event { true } else { nil } }
    server.stop()
    let end = try await log.waitFor("the end") { event -> ConnectionEnd? in if case .closed(let end) = event { end } else { nil } }
    #expect(end == .endOfStream)
    #expect(log.all.contains(.message(.bye(.shutdown))))
    #expect(log.all.count { if case .closed = $0 { true } else { false } } == 1)
    let afterwards = connection.queue.sync { () -> ConnectionError? in
        do { try connection.send(Request(.ping)); return nil } catch { return error as? ConnectionError }
    }
    #expect(afterwards == .notConnected)
}

@Test("connecting where nothing listens fails with a typed error that says so", .ownThread)
func connectingToNothingFails() throws {
    let (socket, port) = try Loopback.bind()
    defer { close(socket) }
    #expect {
        _ = try ClientConnection.open(to: ServerEndpoint(host: "127.0.0.1", port: port), queue: DispatchQueue(label: "t"))
    } throws: { error in
        guard case ConnectionError.cannotConnect(let endpoint, let reason) = error else { return false }
        return endpoint.port == port && reason.contains("refused") && "\(error)".contains("127.0.0.1:\(port)")
    }
}

@Test("a host name that does not resolve and a port out of range are typed errors, not crashes", .ownThread)
func badAddressesFail() {
    #expect(throws: ConnectionError.badPort(0)) {
        _ = try ClientConnection.open(to: ServerEndpoint(host: "localhost", port: 0), queue: DispatchQueue(label: "t"))
    }
    #expect {
        _ = try ClientConnection.open(to: ServerEndpoint(host: "no-such-host.invalid", port: 7777), queue: DispatchQueue(label: "t"))
    } throws: { error in
        if case ConnectionError.cannotResolve(host: "no-such-host.invalid", _) = error { true } else { false }
    }
}

@Test("a host name with several addresses is tried address by address (localhost reaches an IPv4-only server)", .ownThread)
func localhostReachesIPv4Server() async throws {
    let server = try startServer()
    defer { server.stop() }
    let (connection, log) = try connect(to: server, host: "localhost")
    _ = try await log.waitFor("welcome") { event -> Bool? in if case .message(.welcome) = event { true } else { nil } }
    connection.queue.sync { connection.close() }
}

@Test("an IPv6 address connects to a server listening on IPv6", .ownThread)
func ipv6Connects() async throws {
    var configuration = ServerConfiguration()
    configuration.host = "::1"
    configuration.port = 0
    configuration.log.level = .error
    let server = Server(configuration: configuration)
    do {
        try server.start()
    } catch {
        // Only a machine without IPv6 at all gets here; the client cannot be tested on it.
        Issue.record("this machine cannot listen on ::1 (\(error)); the IPv6 path is untested here")
        return
    }
    defer { server.stop() }
    let queue = DispatchQueue(label: "test.ipv6")
    for host in ["::1", "[::1]"] {
        let connection = try ClientConnection.open(to: ServerEndpoint(host: host, port: server.port), queue: queue)
        let log = EventLog<ConnectionEvent>()
        queue.sync { connection.start { log.append($0) } }
        _ = try await log.waitFor("welcome over IPv6") { event -> Bool? in if case .message(.welcome) = event { true } else { nil } }
        queue.sync { connection.close() }
    }
    #expect(ServerEndpoint(host: "::1", port: 7777).description == "[::1]:7777")
}
