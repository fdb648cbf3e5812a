import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
@testable import PairsServer
import PairsTestSupport
import Testing

/// What the log says of connections that are no players (a browser's visit and its spare sockets) and of
/// players who go: over real sockets, read back from the log file.
@Suite("The log of connections coming and going", .ownThread)
struct ConnectionLogTests {
    /// A server writing its log at `level` to a file in `directory`, and the file's path.
    private func server(in directory: TemporaryDirectory, level: LogLevel,
                        _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> (Server, String) {
        let path = directory.file("pairs.log")
        let server = try startServer {
            $0.log.level = level
            $0.log.destination = .file(try! LogFile(path: path))
            configure(&$0)
        }
        return (server, path)
    }

    /// Closes the client's socket with a reset (RST), as a program that exits with lines unread does.
    private func reset(_ client: TestClient) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        client.close()
    }

    /// The log's lines once one of them is an `event` line.
    private func lines(at path: String, once events: String...) throws -> [ReadTextLine] {
        try blockingWaitFor("\(events) in the log", within: 20) {
            let lines = try logLines(at: path)
            return events.allSatisfy { event in lines.contains { $0.event == event } } ? lines : nil
        }
    }

    @Test("a browser's visit is an HTTP request line with method, path, status and peer, and its silent spare socket no player's disconnect")
    func browserVisit() throws {
        let directory = try TemporaryDirectory()
        let (server, path) = try server(in: directory, level: .debug)
        defer { server.stop() }
        // A socket opened ahead and never used: it is greeted after the welcome wait, then the browser
        // drops it with a reset.
        let spare = try TestClient(port: server.port)
        _ = try spare.readWelcome()
        reset(spare)
        // The page itself, then a reset as the browser moves on.
        let page = try TestClient(port: server.port)
        page.sendRaw(Array("GET /?room=share&name=frank HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let response = try page.readToEnd(within: 10)
        #expect(String(decoding: response.prefix(12), as: UTF8.self) == "HTTP/1.1 200")
        reset(page)

        let logged = try lines(at: path, once: "silent_close", "http")
        let http = try #require(logged.first { $0.event == "http" }, "\(logged.map(\.event))")
        #expect(http.level == "info")
        #expect(http.value("method") == "GET" && http.value("path") == "/" && http.value("status") == "200")
        #expect(http.value("peer")?.hasPrefix("127.0.0.1:") == true)
        let silent = try #require(logged.first { $0.event == "silent_close" })
        #expect(silent.level == "debug" && silent.value("reason") == "reset_by_peer" && silent.value("name") == nil)
        #expect(!logged.contains { $0.event == "disconnect" }, "no player went: \(logged.map(\.event))")
        #expect(!logged.contains { $0.level != "debug" && $0.value("name")?.hasPrefix("player") == true })
    }

    /// How a client ends its connection after its goodbye.
    enum Ending: String, CaseIterable, CustomStringConvertible {
        /// `leave`, then the write side shut: an end of stream at a message boundary.
        case leaveThenClose
        /// `leave`, then a reset.
        case leaveThenReset
        /// `quit`, then a reset before the `bye` is read.
        case quitThenReset

        var description: String { rawValue }
    }

    @Test("a client that says leave or quit and then closes or resets is logged as a quit", arguments: Ending.allCases)
    func goodbyeIsQuit(ending: Ending) throws {
        let directory = try TemporaryDirectory()
        let (server, path) = try server(in: directory, level: .info)
        defer { server.stop() }
        let ann = try TestClient(port: server.port)
        ann.send("name ann")
        try ann.join("kitchen")
        switch ending {
        case .leaveThenClose:
            ann.send("leave")
            shutdown(ann.fd, Int32(SHUT_WR))
        case .leaveThenReset:
            ann.send("leave")
            reset(ann)
        case .quitThenReset:
            ann.send("quit")
            reset(ann)
        }
        let logged = try lines(at: path, once: "disconnect")
        let gone = try #require(logged.first { $0.event == "disconnect" })
        #expect(gone.value("name") == "ann" && gone.value("reason") == "quit" && gone.value("error") == nil,
                "\(gone.fields.map { "\($0.key)=\($0.value)" })")
    }

    @Test("name, join and leave in one write and a close at once: the leave still counts, though the server's answers fail to go out")
    func leaveInTheLastWrite() throws {
        let directory = try TemporaryDirectory()
        let (server, path) = try server(in: directory, level: .info)
        defer { server.stop() }
        let cat = try TestClient(port: server.port)
        cat.sendRaw(Array("name cat\njoin attic\nleave\n".utf8))
        cat.close()
        let logged = try lines(at: path, once: "disconnect")
        #expect(logged.map(\.event).suffix(4) == ["join", "leave", "room_close", "disconnect"], "\(logged.map(\.event))")
        #expect(logged.last { $0.event == "disconnect" }?.value("reason") == "quit")
        try blockingWaitUntil("the room gone") { server.statistics().rooms == 0 }
    }

    @Test("a client that resets without a goodbye is logged as reset by its peer, which is no read failure")
    func resetWithoutGoodbye() throws {
        let directory = try TemporaryDirectory()
        let (server, path) = try server(in: directory, level: .info)
        defer { server.stop() }
        let bob = try TestClient(port: server.port)
        bob.send("name bob")
        try bob.join("kitchen")
        reset(bob)
        let logged = try lines(at: path, once: "disconnect")
        let gone = try #require(logged.first { $0.event == "disconnect" })
        #expect(gone.value("name") == "bob" && gone.value("room") == "kitchen" && gone.value("reason") == "reset_by_peer")
        #expect(gone.value("error") == nil)
    }

    @Test("a request head that does not arrive in time is answered 408 and logged as an HTTP line")
    func requestTimeoutIsLogged() throws {
        let directory = try TemporaryDirectory()
        let (server, path) = try server(in: directory, level: .info) { $0.web.requestHeadMilliseconds = 200 }
        defer { server.stop() }
        let slow = try TestClient(port: server.port)
        slow.sendRaw(Array("GET / HTTP/1.1\r\n".utf8))
        let response = try slow.readToEnd(within: 20)
        #expect(String(decoding: response.prefix(12), as: UTF8.self) == "HTTP/1.1 408")
        let logged = try lines(at: path, once: "http")
        let timeout = try #require(logged.first { $0.event == "http" })
        #expect(timeout.level == "info" && timeout.value("status") == "408" && timeout.value("error")?.contains("200 ms") == true)
        #expect(timeout.value("peer")?.hasPrefix("127.0.0.1:") == true)
    }
}
