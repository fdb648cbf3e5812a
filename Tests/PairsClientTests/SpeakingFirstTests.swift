import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsServer
import PairsTestSupport
import PairsWire
@testable import PairsClient
import Testing

// A server never greets a silent connection from an address that loaded its page (a browser's socket opened
// ahead of need must not read a JSON line): the bundled clients speak first, so a bot on the same machine as
// a browser is not kept waiting.

/// A server on 127.0.0.1 that has served its page to 127.0.0.1, and would keep a silent connection from
/// there ungreeted for a minute (then close it), far beyond every wait below.
private func serverAfterAPageLoad() throws -> Server {
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.log.level = .error
    configuration.web.pageVisitorSilenceMilliseconds = 60_000
    let server = Server(configuration: configuration)
    try server.start()
    let fd = try Loopback.connect(port: server.port)
    defer { close(fd) }
    let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    // The page, to the end: the server closes once it is sent.
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var head: [UInt8] = []
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        if head.count < 16 { head += buffer[..<min(count, 16)] }
    }
    guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 200") else { throw TimedOut(what: "the page") }
    return server
}

@Test("a session beside a browser that loaded the page is ready at once: it says hello without waiting for welcome", .ownThread)
func sessionSpeaksFirst() async throws {
    let server = try serverAfterAPageLoad()
    defer { server.stop() }
    let queue = DispatchQueue(label: "test.session.first")
    let session = ClientSession(endpoint: ServerEndpoint(host: "127.0.0.1", port: server.port), name: "ann", queue: queue)
    let log = EventLog<SessionEvent>()
    queue.sync {
        session.onEvent = { log.append($0) }
        session.start()
    }
    let welcome = try await log.waitFor("ready", timeout: .seconds(10)) { event -> Welcome? in
        if case .ready(let welcome) = event { welcome } else { nil }
    }
    #expect(welcome.name == "ann")
    queue.sync { session.close() }
}

@Test("a one-question command beside a browser that loaded the page gets its answer at once", .ownThread)
func queryAsksFirst() throws {
    let server = try serverAfterAPageLoad()
    defer { server.stop() }
    // Well within the minute the server would hold a silent connection's welcome. A server that keeps
    // no games answers at once that it has none to show.
    do {
        let answer = try ServerQuery.ask(.leaderboard(LeaderboardQuery()), at: ServerEndpoint(host: "127.0.0.1", port: server.port))
        Issue.record("a server keeping nothing answered with a ladder: \(answer.message)")
    } catch {
        guard case .refused(let refusal) = error else {
            Issue.record("no answer: \(error)")
            return
        }
        #expect(refusal.code == .noStorage)
    }
}
