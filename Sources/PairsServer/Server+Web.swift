import Dispatch
import PairsLobby
import PairsPolling
import PairsRules
import PairsWeb
import PairsWire

/// What a connection's bytes are for: the first bytes decide between the line protocol and HTTP, HTTP is
/// answered (the page, the counters, 404 and the errors) or upgraded to a WebSocket, and the messages of
/// lines and WebSockets alike go to the lobby, which never learns which framing brought them.
extension Server {
    /// Hands bytes a connection sent to what reads them now: its message framing (lines or WebSocket
    /// frames), the sniffer while its first bytes are awaited, or the HTTP request parser.
    func receive(_ bytes: UnsafeRawBufferPointer, from connection: Connection, at now: Moment) {
        // The dialect says which, without copying the framing (and retaining what it holds) to look.
        if connection.dialect.carriesMessages {
            connection.framing.append(bytes) { input in
                switch connection.lifecycle {
                case .open:
                    handle(input, from: connection, at: now)
                case .failing:
                    // A write to the peer failed while this read's messages were handled (it closed right
                    // after sending them): the rest are its last words, as `finishFailures` reads them, so
                    // that a `leave` sent just before closing still counts.
                    guard case .message(let message) = input else { return }
                    lobby.receive(message, from: connection.id, at: now)
                    performLobbyActions()
                case .flushing, .lingering, .closed:
                    // Once the connection is closing (quit, flooding, a close frame), the rest of its input is moot.
                    return
                }
            }
            return
        }
        switch connection.framing {
        case .lines, .webSocket:
            assertionFailure("a message framing's dialect carries messages")
        case .sniffing(var first):
            guard first.bytes.isEmpty else {
                first.bytes.append(contentsOf: bytes)
                return first.bytes.withUnsafeBytes { sniff($0, from: connection, peer: first.peer, at: now) }
            }
            sniff(bytes, from: connection, peer: first.peer, at: now)
        case .http(var parser, let peer):
            let outcome = parser.parse(bytes)
            connection.adopt(.http(parser, peer: peer))
            switch outcome {
            case .needMoreBytes:
                break
            case .request(let request, let consumed):
                answer(request, on: connection, peer: peer, followedBy: UnsafeRawBufferPointer(rebasing: bytes[consumed...]), at: now)
            case .failure(let error):
                log.write(.info, .http(connection.id, peer: peer, request: .unread("\(error)"), status: error.status.rawValue))
                respond(.error(error), to: connection, includingBody: true, at: now)
            }
        }
    }

    /// Ends the welcome waits that are over. What a connection sent meanwhile decides first, read from its
    /// socket now: the wait bounds the client's silence, never the server's own delay (a request that came
    /// while the queue was busy is HTTP, not a silence). A connection still undecided is then greeted as a
    /// line connection, what it sent starting its first line; but one that sent nothing at all from an
    /// address that loaded the page lately (when it connected, or since) is never greeted: it may be a
    /// browser's socket opened ahead of need. It waits as a page visitor's, and at the end of that wait is
    /// closed without a byte: a browser replaces a closed idle socket, where one that read `welcome` fails
    /// the page it is used for.
    func endWelcomeWaits(at now: Moment) {
        while let (connection, length) = welcomeWaits.popDue(at: now) {
            readRequests(from: connection)
            guard connection.isOpen, case .sniffing(let first) = connection.framing else { continue }
            if first.bytes.isEmpty {
                switch length {
                case .pageVisitor:
                    finish(connection, saying: [], discardingQueued: false, at: now)
                    continue
                case .usual:
                    // A browser opens several sockets at once on a first visit: if one of them loaded the
                    // page meanwhile, this silent one is the browser's too, and waits as a page visitor's.
                    if let address = try? SocketAddress(peerOf: connection.fd), pageVisitors.loadedThePageRecently(address.host, at: now) {
                        welcomeWaits.append(connection, arrivedAt: now, waiting: .pageVisitor)
                        continue
                    }
                }
            }
            greet(connection, as: .lines(LineFramer()), peer: first.peer, at: now)
            if !first.bytes.isEmpty {
                first.bytes.withUnsafeBytes { receive($0, from: connection, at: now) }
            }
        }
        finishFailures()
    }

    // MARK: Deciding

    /// Decides a connection's framing from `firstBytes`, everything it has sent so far, and hands them to
    /// it; keeps them while they could still start an HTTP request line.
    private func sniff(_ firstBytes: UnsafeRawBufferPointer, from connection: Connection, peer: String, at now: Moment) {
        switch ConnectionSniffer.classify(firstBytes) {
        case .needMoreBytes:
            connection.adopt(.sniffing(Framing.FirstBytes(bytes: Array(firstBytes), peer: peer)))
        case .lines:
            greet(connection, as: .lines(LineFramer()), peer: peer, at: now)
            receive(firstBytes, from: connection, at: now)
        case .http:
            connection.adopt(.http(HTTPRequestParser(), peer: peer))
            awaitHead(of: connection)
            receive(firstBytes, from: connection, at: now)
        }
    }

    /// Tells the lobby of a connection whose framing is now known: it is welcomed, and from now on its
    /// messages go to the lobby.
    private func greet(_ connection: Connection, as framing: Framing, peer: String, at now: Moment) {
        connection.adopt(framing)
        lobby.connect(connection.id, peer: peer, at: now)
        performLobbyActions()
    }

    // MARK: HTTP

    /// Answers a whole request head. A WebSocket handshake turns the connection into a WebSocket, and
    /// `rest`, the bytes the client sent after the head, are its first frames; anything else is answered
    /// and the connection closed.
    private func answer(_ request: HTTPRequest, on connection: Connection, peer: String,
                        followedBy rest: UnsafeRawBufferPointer, at now: Moment) {
        let response: HTTPResponse
        let route = WebRoute(path: request.path)
        switch route {
        case .page:
            response = ClientPage.response(to: request)
            recordPageVisitor(connection, at: now)
        case .statistics:
            // The `stats` message, without the newline that ends it as a line.
            response = .json(ServerMessageEncoder.encode(.stats(currentStatistics(at: now))).dropLast())
        case .metrics:
            response = HTTPResponse(status: .ok, headers: ["Content-Type": PrometheusText.contentType, "Cache-Control": "no-store"],
                                    body: Array(ServerMetrics.exposition(of: currentStatistics(at: now)).utf8))
        case .dashboard where configuration.dashboard:
            response = DashboardPage.response
            // The page polls `/stats` once a second, on sockets Chromium opens ahead of need, as the client page's.
            if let address = try? SocketAddress(peerOf: connection.fd) { pageVisitors.record(address.host, at: now) }
        case .notFound, .dashboard:
            response = .notFound(request)
        case .webSocket:
            do {
                let accepted = try WebSocketHandshake.response(to: request, allowedOrigins: configuration.allowedOrigins)
                // A page with its WebSocket open may be reloaded at any time.
                let host = (try? SocketAddress(peerOf: connection.fd))?.host ?? peer
                pageVisitors.webSocketOpened(host, at: now)
                send(accepted.encoded(), messages: 0, to: connection)
                log.write(.info, .http(connection.id, peer: peer, request: .read(method: request.method.rawValue, path: String(request.path)),
                                       status: accepted.status.rawValue))
                connection.webSocketHost = host
                greet(connection, as: Framing.webSocket(), peer: peer, at: now)
                if !rest.isEmpty, connection.isOpen { receive(rest, from: connection, at: now) }
                return
            } catch {
                response = error.response
            }
        }
        // The counters are for scrapers, which ask every few seconds: a detail. Anything else is a visit.
        let level: LogLevel = route == .statistics ? .debug : .info
        log.write(level, .http(connection.id, peer: peer, request: .read(method: request.method.rawValue, path: String(request.path)),
                               status: response.status.rawValue))
        respond(response, to: connection, includingBody: request.method != .head, at: now)
    }

    /// Remembers the address of a connection that loaded the page or opened its WebSocket, so that a silent
    /// connection from there is never greeted (`endWelcomeWaits`).
    private func recordPageVisitor(_ connection: Connection, at now: Moment) {
        if let address = try? SocketAddress(peerOf: connection.fd) { pageVisitors.record(address.host, at: now) }
    }

    /// Remembers the address of a line connection whose line is an HTTP request line: a browser's request
    /// on a socket it opened ahead of need, greeted before the server knew the address. The load it was for
    /// fails (`welcome` went first), but the browser's connections from then on are never greeted silent.
    private func noteRequestLine(_ line: UnsafeRawBufferPointer, from connection: Connection, at now: Moment) {
        guard connection.dialect == .lines, ConnectionSniffer.classify(Array(line) + [UInt8(ascii: "\n")]) == .http else { return }
        recordPageVisitor(connection, at: now)
    }

    /// Sends an HTTP response and closes the connection cleanly: the response is the connection's last
    /// words (`Connection: close`), and what the client still sends is drained rather than answered with a
    /// reset that could destroy the response.
    private func respond(_ response: HTTPResponse, to connection: Connection, includingBody: Bool, at now: Moment) {
        finish(connection, saying: response.encoded(includingBody: includingBody), discardingQueued: false, at: now)
    }

    /// Answers 408 if the request head has not arrived within `requestHeadMilliseconds`. HTTP requests
    /// are few (a page load, a WebSocket), so each gets a timer of its own, as a goodbye does.
    private func awaitHead(of connection: Connection) {
        let limit = configuration.requestHeadMilliseconds
        queue.asyncAfter(deadline: .now() + .milliseconds(limit)) { [self] in
            guard connection.isOpen, connection.dialect == .http else { return }
            let timeout = HTTPResponse.plainText(.requestTimeout, "408 Request Timeout: the request head did not end within \(limit) ms")
            if case .http(_, let peer) = connection.framing {
                log.write(.info, .http(connection.id, peer: peer, request: .unread("the request head did not end within \(limit) ms"),
                                       status: timeout.status.rawValue))
            }
            respond(timeout, to: connection, includingBody: true, at: MonotonicClock.now())
            finishFailures()
        }
    }

    // MARK: Messages

    /// One input of a line connection or a WebSocket, carried out with everything the lobby says to it.
    private func handle(_ input: Framing.Input, from connection: Connection, at now: Moment) {
        switch input {
        case .message(let message):
            // Text commands are lower case: a line starting with a capital is looked at more closely.
            if let first = message.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") {
                noteRequestLine(message, from: connection, at: now)
            }
            traffic.timing.pending += 1
            lobby.receive(message, from: connection.id, at: now)
        case .tooLong:
            lobby.receiveTooLong(from: connection.id, at: now)
        case .ping(let payload):
            // Counted as a message: pings answered without limit once let one client keep a core busy.
            if lobby.receiveFrame(from: connection.id, at: now) {
                send(WebSocketFrameEncoder.pong(payload), messages: 0, to: connection)
            }
        case .frame:
            _ = lobby.receiveFrame(from: connection.id, at: now)
        case .close(let code):
            // The client leaves, as if it had closed its socket: a player keeps the seat for the grace
            // period, so a page being reloaded resumes it. The close is answered with its own code (RFC 6455
            // §5.5.1), and nothing queued goes out before it.
            finish(connection, saying: WebSocketFrameEncoder.close(code: code ?? .normalClosure), discardingQueued: true, at: now)
            lobby.disconnect(connection.id, because: .closedByPeer, at: now)
        case .failure(let error):
            finish(connection, saying: WebSocketFrameEncoder.close(code: error.closeCode, reason: error.description),
                   discardingQueued: true, at: now)
            lobby.disconnect(connection.id, because: .brokeFraming(error.description), at: now)
        }
        performLobbyActions()
    }
}
