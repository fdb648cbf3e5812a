import PairsLobby
import PairsPolling
import PairsRules
import PairsWeb
import PairsWire

/// What a connection's first bytes are for, and HTTP: the first bytes decide between the line protocol and
/// HTTP (or, if none come, the welcome wait ends and the connection is greeted as a line connection); HTTP
/// is answered (the page, the counters, 404 and the errors) or upgraded to a WebSocket; and the addresses
/// that loaded the page are remembered, so that a browser's silent spare socket is never greeted.
///
/// Confined to its loop's queue, as the loop is. Once a connection speaks lines or WebSocket frames, its
/// bytes no longer come here (`LoopSockets.receive`).
final class WebFront {
    /// The loop this front is part of, which owns it (see `LoopSockets.loop`).
    unowned(unsafe) let loop: ConnectionLoop
    /// Connections whose welcome waits for their first bytes: briefly, or long for an address that loaded
    /// the page lately (`pageVisitors`).
    private var welcomeWaits: WelcomeWaits
    /// The addresses that loaded the client page lately.
    /// Shared by every loop's front (a browser's sockets may be dealt to different loops), behind a lock
    /// touched only when a page or a WebSocket opens or closes and when a welcome wait begins or ends.
    private var pageVisitors: PthreadLocked<PageVisitors> { loop.group.pageVisitors }
    private let configuration: ServerConfiguration

    init(loop: ConnectionLoop, configuration: ServerConfiguration) {
        self.loop = loop
        self.configuration = configuration
        welcomeWaits = WelcomeWaits(usualMilliseconds: Server.welcomeWaitMilliseconds,
                                    pageVisitorMilliseconds: configuration.web.pageVisitorSilenceMilliseconds)
    }

    private var sockets: LoopSockets { loop.sockets }

    /// A connection was accepted at `now`: its welcome waits for its first bytes.
    func admitted(_ connection: Connection, host: String, at now: Moment) {
        welcomeWaits.append(connection, arrivedAt: now, waiting: pageVisitors.withLock { $0.loadedThePageRecently(host, at: now) } ? .pageVisitor : .usual)
    }

    /// Whether a welcome wait is listed, running or not.
    var hasWelcomeWaits: Bool { !welcomeWaits.isEmpty }

    /// When the earliest welcome wait still running ends; nil when none is running.
    func nextWelcomeDeadline() -> Moment? { welcomeWaits.nextDeadline() }

    /// A connection leaves for another loop: nothing here may touch it from now on.
    func forget(_ connection: Connection) {
        welcomeWaits.remove(connection)
    }

    /// A connection that was not a line connection closed: if it was the page's WebSocket, its page may be gone.
    func closed(_ connection: Connection) {
        let now = loop.clock.now()
        pageVisitors.withLock { $0.closed(connection.id, at: now) }
    }

    /// Bytes of a connection that does not speak messages yet: its first bytes, or an HTTP request.
    func receive(_ bytes: UnsafeRawBufferPointer, from connection: Connection, at now: Moment) {
        loop.assertOnQueue()
        switch connection.framing {
        case .lines, .webSocket:
            assertionFailure("a message framing's bytes go to the lobby")
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
                loop.log.write(.info, .http(connection.id, peer: peer, request: .unread("\(error)"), status: error.status.rawValue))
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
        loop.assertOnQueue()
        while let (connection, length) = welcomeWaits.popDue(at: now) {
            sockets.readRequests(from: connection)
            guard connection.isOpen, case .sniffing(let first) = connection.framing else { continue }
            if first.bytes.isEmpty {
                switch length {
                case .pageVisitor:
                    sockets.goodbyes.finish(connection, saying: [], discardingQueued: false, at: now)
                    continue
                case .usual:
                    // A browser opens several sockets at once on a first visit: if one of them loaded the
                    // page meanwhile, this silent one is the browser's too, and waits as a page visitor's.
                    if let address = try? SocketAddress(peerOf: connection.fd), pageVisitors.withLock({ $0.loadedThePageRecently(address.host, at: now) }) {
                        welcomeWaits.append(connection, arrivedAt: now, waiting: .pageVisitor)
                        continue
                    }
                    // Another socket of the address is on its way to another loop, unread: it may be the
                    // page's request, so the silence is the server's, not the client's; wait again.
                    if loop.group.count > 1, let address = try? SocketAddress(peerOf: connection.fd),
                       loop.group.dealtUnread.withLock({ $0[address.host] != nil }) {
                        welcomeWaits.append(connection, arrivedAt: now, waiting: .usual)
                        continue
                    }
                }
            }
            greet(connection, as: .lines(LineFramer()), peer: first.peer, at: now)
            if !first.bytes.isEmpty {
                first.bytes.withUnsafeBytes { sockets.receive($0, from: connection, at: now) }
            }
        }
        sockets.finishFailures()
    }

    /// The request head of `connection` has not come within `web.requestHeadMilliseconds`: 408.
    func requestHeadOverdue(_ connection: Connection, at now: Moment) {
        loop.assertOnQueue()
        guard connection.isOpen, connection.dialect == .http else { return }
        let limit = configuration.web.requestHeadMilliseconds
        let timeout = HTTPResponse.plainText(.requestTimeout, "408 Request Timeout: the request head did not end within \(limit) ms")
        if case .http(_, let peer) = connection.framing {
            loop.log.write(.info, .http(connection.id, peer: peer, request: .unread("the request head did not end within \(limit) ms"),
                                        status: timeout.status.rawValue))
        }
        respond(timeout, to: connection, includingBody: true, at: now)
    }

    /// Remembers the address of a line connection whose line is an HTTP request line: a browser's request
    /// on a socket it opened ahead of need, greeted before the server knew the address. The load it was for
    /// fails (`welcome` went first), but the browser's connections from then on are never greeted silent.
    func noteRequestLine(_ line: UnsafeRawBufferPointer, from connection: Connection, at now: Moment) {
        guard connection.dialect == .lines, ConnectionSniffer.classify(Array(line) + [UInt8(ascii: "\n")]) == .http else { return }
        recordPageVisitor(connection, at: now)
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
            sockets.receive(firstBytes, from: connection, at: now)
        case .http:
            connection.adopt(.http(HTTPRequestParser(), peer: peer))
            // HTTP requests are few (a page load, a WebSocket): each gets a deadline of its own, as a goodbye does.
            loop.add(.requestHead(connection), at: now.adding(milliseconds: Int64(configuration.web.requestHeadMilliseconds)))
            receive(firstBytes, from: connection, at: now)
        }
    }

    /// Tells the lobby of a connection whose framing is now known: it is welcomed, and from now on its
    /// messages go to the lobby.
    private func greet(_ connection: Connection, as framing: Framing, peer: String, at now: Moment) {
        connection.adopt(framing)
        loop.lobby.connect(connection.id, peer: peer, at: now)
        sockets.performLobbyActions()
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
            response = ClientPage.response(to: request, peers: configuration.web.allowedOrigins)
            recordPageVisitor(connection, at: now)
        case .statistics, .metrics:
            guard loop.group.count == 1 else {
                // Every loop's counters are gathered off the loops; the response follows.
                loop.log.write(route == .statistics ? .debug : .info,
                               .http(connection.id, peer: peer, request: .read(method: request.method.rawValue, path: String(request.path)), status: 200))
                let (loop, id, includingBody) = (loop, connection.id, request.method != .head)
                loop.group.gatherStatistics { stats in loop.enqueue(.statisticsGathered(stats, for: .http(id, route, includingBody: includingBody))) }
                return
            }
            response = Self.response(to: route, with: loop.statistics(at: now))
        case .dashboard where configuration.web.dashboard:
            response = DashboardPage.response
            // The page polls `/stats` once a second, on sockets Chromium opens ahead of need, as the client page's.
            recordPageVisitor(connection, at: now)
        case .notFound, .dashboard:
            response = .notFound(request)
        case .webSocket:
            do {
                let accepted = try WebSocketHandshake.response(to: request, allowedOrigins: configuration.web.allowedOrigins)
                // A page with its WebSocket open may be reloaded at any time.
                let host = (try? SocketAddress(peerOf: connection.fd))?.host ?? peer
                pageVisitors.withLock { $0.webSocketOpened(host, by: connection.id, at: now) }
                sockets.send(accepted.encoded(), messages: 0, to: connection)
                loop.log.write(.info, .http(connection.id, peer: peer, request: .read(method: request.method.rawValue, path: String(request.path)),
                                            status: accepted.status.rawValue))
                greet(connection, as: Framing.webSocket(), peer: peer, at: now)
                if !rest.isEmpty, connection.isOpen { sockets.receive(rest, from: connection, at: now) }
                return
            } catch {
                response = error.response
            }
        }
        // The counters are for scrapers, which ask every few seconds: a detail. Anything else is a visit.
        let level: LogLevel = route == .statistics ? .debug : .info
        loop.log.write(level, .http(connection.id, peer: peer, request: .read(method: request.method.rawValue, path: String(request.path)),
                                    status: response.status.rawValue))
        respond(response, to: connection, includingBody: request.method != .head, at: now)
    }

    /// The counters as `route` serves them: `/stats` or `/metrics`.
    private static func response(to route: WebRoute, with stats: ServerStatistics) -> HTTPResponse {
        guard route == .metrics else {
            // The `stats` message, without the newline that ends it as a line.
            return .json(ServerMessageEncoder.encode(.stats(stats)).dropLast())
        }
        return HTTPResponse(status: .ok, headers: ["Content-Type": PrometheusText.contentType, "Cache-Control": "no-store"],
                            body: Array(ServerMetrics.exposition(of: stats).utf8))
    }

    /// Answers `/stats` or `/metrics` with every loop's counters, gathered.
    func respond(with stats: ServerStatistics, route: WebRoute, to connection: Connection, includingBody: Bool, at now: Moment) {
        respond(Self.response(to: route, with: stats), to: connection, includingBody: includingBody, at: now)
    }

    /// Remembers the address of a connection that loaded the page or opened its WebSocket, so that a silent
    /// connection from there is never greeted (`endWelcomeWaits`).
    private func recordPageVisitor(_ connection: Connection, at now: Moment) {
        if let address = try? SocketAddress(peerOf: connection.fd) { pageVisitors.withLock { $0.record(address.host, at: now) } }
    }

    /// Sends an HTTP response and closes the connection cleanly: the response is the connection's last
    /// words (`Connection: close`), and what the client still sends is drained rather than answered with a
    /// reset that could destroy the response.
    private func respond(_ response: HTTPResponse, to connection: Connection, includingBody: Bool, at now: Moment) {
        sockets.goodbyes.finish(connection, saying: response.encoded(includingBody: includingBody), discardingQueued: false, at: now)
    }
}
