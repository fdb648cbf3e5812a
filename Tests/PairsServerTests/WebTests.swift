import Foundation
import PairsRules
import PairsServer
import PairsTestSupport
import PairsWeb
import PairsWire
import Testing

/// Sends `request` on a fresh connection and reads the answer to the end: the server must close after it,
/// in order (a reset could destroy the answer before the client reads it).
private func exchange(_ request: [UInt8], with server: Server) throws -> HTTPReply {
    let client = try TestClient(port: server.port)
    client.sendRaw(request)
    let bytes = try client.readToEnd()
    #expect(!client.wasReset, "the server closed with a reset")
    guard let reply = HTTPReply(bytes, answering: request) else { throw TestTimeout(what: "an HTTP response, got \(String(decoding: bytes, as: UTF8.self).debugDescription)") }
    #expect(reply["Connection"] == "close")
    return reply
}

private func exchange(_ request: String, with server: Server) throws -> HTTPReply {
    try exchange(Array(request.utf8), with: server)
}

/// A `GET` of `path` as a browser sends it, with `fields` after `Host`.
private func get(_ path: String, _ fields: [String] = [], method: String = "GET") -> String {
    ([ "\(method) \(path) HTTP/1.1", "Host: 127.0.0.1"] + fields).joined(separator: "\r\n") + "\r\n\r\n"
}

@Suite("HTTP on the game's port", .ownThread)
struct WebTests {
    @Test("GET / serves the page with its ETag and Cache-Control, and If-None-Match gets 304 without a body")
    func pageWithCaching() throws {
        let server = try startServer()
        defer { server.stop() }
        let page = try exchange(get("/?room=kitchen&name=ann"), with: server)
        #expect(page.status == 200)
        #expect(page.body == ClientPage.bytes)
        #expect(page["Content-Type"] == "text/html; charset=utf-8")
        #expect(page["Cache-Control"] == "no-cache")
        let etag = try #require(page["ETag"])
        #expect(etag == ClientPage.etag)

        let cached = try exchange(get("/", ["If-None-Match: \(etag)"]), with: server)
        #expect(cached.status == 304)
        #expect(cached.body.isEmpty)
        #expect(cached["ETag"] == etag)
        let stale = try exchange(get("/", [#"If-None-Match: "an-old-page""#]), with: server)
        #expect(stale.status == 200)
        #expect(stale.body == ClientPage.bytes)

        let head = try exchange(get("/", method: "HEAD"), with: server)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head["ETag"] == etag)
    }

    @Test("GET /stats answers the stats message's counters as JSON, never cached")
    func statisticsAsJSON() throws {
        let server = try startServer()
        defer { server.stop() }
        let players = try seatedPair(on: server)
        defer { withExtendedLifetime(players) {} }
        let reply = try exchange(get("/stats"), with: server)
        #expect(reply.status == 200)
        #expect(reply["Content-Type"] == "application/json")
        #expect(reply["Cache-Control"] == "no-store")
        guard case .stats(let stats) = try ServerMessageDecoder.decode(line: reply.body) else {
            Issue.record("not the stats message: \(reply.text)")
            return
        }
        #expect(stats.connections == 2)
        #expect(stats.rooms == 1)
        #expect(stats.gamesActive == 1)
    }

    @Test("requests the server refuses get their status, Connection: close and an orderly close", arguments: [
        (get("/nope"), 404),
        (get("/ws.html"), 404),
        ("GET / HTTP/1.1\r\n\r\n", 400),                                 // no Host
        ("GET / HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\n folded: value\r\n\r\n", 400),
        (get("/", method: "POST"), 405),
        (get("/", ["Content-Length: 5"]) + "hello", 413),
        ("GET /" + String(repeating: "a", count: 2100) + " HTTP/1.1\r\n\r\n", 414),
        (get("/ws"), 400),                                              // the WebSocket path, not an upgrade
    ])
    func refusals(request: String, status: Int) throws {
        let server = try startServer()
        defer { server.stop() }
        let reply = try exchange(request, with: server)
        #expect(reply.status == status, "\(reply)")
        #expect(reply["Content-Type"] == "text/plain; charset=utf-8")
        #expect(reply.text.hasPrefix("\(status) "))
        if status == 405 { #expect(reply["Allow"] == "GET, HEAD") }
    }

    @Test("a request head of exactly 8 KiB is read, one byte more is 431")
    func headLimit() throws {
        let server = try startServer()
        defer { server.stop() }
        func head(totalBytes: Int) -> String {
            let start = "GET /nope HTTP/1.1\r\nHost: x\r\nX-Pad: "
            let end = "\r\n\r\n"
            return start + String(repeating: "p", count: totalBytes - start.utf8.count - end.utf8.count) + end
        }
        #expect(head(totalBytes: HTTPRequestParser.maxHeadBytes).utf8.count == 8192)
        #expect(try exchange(head(totalBytes: 8192), with: server).status == 404)
        #expect(try exchange(head(totalBytes: 8193), with: server).status == 431)
    }

    @Test("a client still sending a huge head when the 431 goes out reads the 431, not a reset")
    func refusalWhileStillSending() throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.sendRaw(Array(("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-Pad: 0123456789abcdef\r\n", count: 8000)).utf8))
        let bytes = try client.readToEnd()
        #expect(!client.wasReset)
        #expect(HTTPReply(bytes)?.status == 431)
    }

    @Test("a request head that does not end in time is answered 408, and the connection closed")
    func slowHeadTimesOut() throws {
        let server = try startServer { $0.web.requestHeadMilliseconds = 300 }
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.sendRaw(Array("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8))
        let reply = try #require(HTTPReply(try client.readToEnd()))
        #expect(reply.status == 408)
        #expect(reply["Connection"] == "close")
        #expect(!client.wasReset)
    }

    @Test("a WebSocket handshake that is not one is refused: 426 with the version to use, 400 for a bad key")
    func badHandshakes() throws {
        let server = try startServer()
        defer { server.stop() }
        let upgrade = ["Upgrade: websocket", "Connection: Upgrade"]
        let version = try exchange(get("/ws", upgrade + ["Sec-WebSocket-Key: \(WebSocketTestClient.sampleKey)", "Sec-WebSocket-Version: 8"]), with: server)
        #expect(version.status == 426)
        #expect(version["Sec-WebSocket-Version"] == "13")
        let key = try exchange(get("/ws", upgrade + ["Sec-WebSocket-Key: short", "Sec-WebSocket-Version: 13"]), with: server)
        #expect(key.status == 400)
        // Nothing of the game reached either: the lobby never heard of them.
        #expect(server.statistics().connections == 0)
    }
}

@Suite("Telling HTTP from the line protocol", .ownThread)
struct SniffTests {
    @Test("a person in netcat typing get, GET or a request line without its version gets welcome, then a text command's error",
          arguments: ["get", "GET", "GET /", "GET / HTTP/2", "GET /index.html", "HEAD / HTTP/1.1x"])
    func typedWordsAreTextCommands(line: String) throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send(line)
        try client.readWelcome()
        let error = try client.waitForError(.unknownType)
        #expect(error.message.contains(line.split(separator: " ")[0]))
    }

    @Test("a client that sends nothing still gets welcome, as the first thing it reads")
    func silentClientIsWelcomed() throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        let welcome = try client.readWelcome()
        #expect(welcome.hint.contains("join"))
        #expect(server.statistics().connections == 1)
    }

    @Test("bytes that could start a request but stop short start the first line once the welcome wait is over")
    func unfinishedRequestLineBecomesALine() throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.sendRaw(Array("GE".utf8))
        try client.readWelcome()
        client.sendRaw(Array("T\n".utf8))
        #expect(try client.waitForError(.unknownType).message.contains("\"GET\""))
        client.send(#"{"type":"ping","id":1}"#)
        _ = try client.waitFor("pong") { $0 == .pong(id: .integer(1)) }
    }

    @Test("""
        a silent connection from an address that loaded the page is never greeted, so a browser's socket \
        opened ahead of need reads HTTP when it sends its request, however late; one that stays silent is \
        closed without a byte; speaking first still decides at once, and a line is answered after welcome
        """)
    func pageVisitorsAreNeverGreetedSilent() throws {
        let server = try startServer { $0.web.pageVisitorSilenceMilliseconds = 3_000 }
        defer { server.stop() }
        let beforeThePage = try TestClient(port: server.port)
        try beforeThePage.readWelcome()
        #expect(try exchange(get("/"), with: server).status == 200)

        let preconnected = try TestClient(port: server.port)
        let silent = try TestClient(port: server.port)
        let person = try TestClient(port: server.port)
        let bot = try TestClient(port: server.port)
        bot.send(#"{"type":"ping","id":7}"#)
        try bot.readWelcome()
        #expect(try bot.next() == .pong(id: .integer(7)))
        // Well past the usual wait, after which a browser's socket used to read `welcome` first.
        Thread.sleep(forTimeInterval: Double(Server.welcomeWaitMilliseconds) / 1000 * 5)
        preconnected.sendRaw(Array(get("/").utf8))
        let bytes = try preconnected.readToEnd()
        #expect(HTTPReply(bytes, answering: Array(get("/").utf8))?.status == 200,
                "not an HTTP response: \(String(decoding: bytes.prefix(80), as: UTF8.self).debugDescription)")
        // A person in netcat on that machine who presses Enter is greeted then.
        person.sendRaw(Array("\n".utf8))
        #expect(try person.readWelcome().hint.contains("join"))
        // Silent past the bound: closed, with not a byte sent, as a browser's idle socket may be.
        let unsaid = try silent.readToEnd(within: 20)
        #expect(unsaid.isEmpty, "a silent connection read \(String(decoding: unsaid.prefix(80), as: UTF8.self).debugDescription)")
        #expect(!silent.wasReset)
    }

    @Test("""
        a request line sent on a connection already greeted (a browser's request on a socket it opened before \
        the server knew its address) makes the address a page visitor's: its silent connections are not greeted
        """)
    func requestLineAfterWelcomeMarksTheAddress() throws {
        let server = try startServer()
        defer { server.stop() }
        let greeted = try TestClient(port: server.port)
        try greeted.readWelcome()
        greeted.sendRaw(Array(get("/").utf8))
        #expect(try greeted.waitForError(.unknownType).message.contains("\"GET\""))
        let silent = try TestClient(port: server.port)
        // Well past the usual wait, after which a connection from an address the server does not know is greeted.
        Thread.sleep(forTimeInterval: Double(Server.welcomeWaitMilliseconds) / 1000 * 5)
        #expect(!silent.hasUnreadBytes(), "a silent connection from the browser's address was greeted")
    }

    @Test("a bot that speaks first gets welcome first, then its answer")
    func botSpeakingFirst() throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send(#"{"type":"ping","id":7}"#)
        try client.readWelcome()
        #expect(try client.next() == .pong(id: .integer(7)))
    }
}
