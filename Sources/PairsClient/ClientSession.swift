import Dispatch
import PairsPolling
import PairsRules
import PairsWire

/// A player's session with a server: one `ClientConnection` at a time, replaced by a new one when the
/// network drops, with the seat taken back by its resume token.
///
/// The session watches the messages going by to know what to restore: the latest token from `joined`,
/// or the room being watched. After a drop it reconnects with backoff (`ReconnectPolicy`) for as long as
/// the server keeps the seat, says `hello` again with the player's name, and sends `resume` (or `watch`).
/// Its owner sees `connectionLost`, `reconnecting`, `reconnected`, then the server's `joined` and states as
/// if nothing happened, or `ended(.gaveUp)`.
///
/// With a name, the first `ready` waits for the answer to `hello`: a name that belongs to someone is refused
/// without its password (`nameRefused`), and nothing must be joined under another name meanwhile. The
/// owner may then say hello again with the password (`sayHello(password:)`).
///
/// The session follows the server's `redirect`s (it says so in `hello`): when the room or seat asked for is
/// on another instance of a cluster, it connects there, says `hello` again and repeats the request with
/// the same id; its owner sees only the answer, as if the first server had given it.
///
/// Every request gets an integer `id`, so the owner can tell which answer or error belongs to which request.
///
/// Confinement: everything happens on `queue`. Call `start`, `send`, `quit` and `close` there; events are
/// delivered there. That is the `@unchecked Sendable` promise.
public final class ClientSession: @unchecked Sendable {
    /// How long a `quit` waits for the server's goodbye before closing anyway, in milliseconds: the server
    /// answers at once, so this only matters when it has gone quiet.
    public static let quitTimeoutMilliseconds = 1_000

    /// Where the session connects: the server it started with, or the instance a `redirect` sent it to.
    public private(set) var endpoint: ServerEndpoint
    /// Redirects followed in a row, without a `joined` between them, at most: instances that disagree
    /// about an owner (a registry that lost an entry) would otherwise send a client back and forth forever.
    static let maxRedirectsInARow = 4
    public let queue: DispatchQueue
    /// The name said in `hello` on every connection; nil keeps the server's default name.
    public let name: String?
    /// The password said with the name, to claim it or prove it is the player's; nil for none. Kept for
    /// the `hello` of every reconnection, and never shown.
    public private(set) var password: String?
    public let reconnectPolicy: ReconnectPolicy

    /// Receives every event, on `queue`. Set before `start`.
    public var onEvent: ((SessionEvent) -> Void)?

    /// The resume token of the seat held now, if any.
    public private(set) var token: String?
    /// The room the session is in (seated or watching), if any.
    public private(set) var room: String?
    /// The seat held, nil in the lobby or when watching.
    public private(set) var seat: Seat?

    private var connection: ClientConnection?
    /// Where the blocking connect runs: a queue of the session's own, so a busy shared pool can never keep
    /// a reconnect waiting, and attempts never overlap.
    private let connector = DispatchQueue(label: "pairs.client.connect")
    private var nextRequestID: Int64 = 1
    private var resumeRequestID: RequestID?
    /// The first `hello`, whose answer `ready` (or `nameRefused`) waits for.
    private var helloRequestID: RequestID?
    private var byeReason: ByeReason?
    private var isWelcomed = false
    /// Whether `ready` was reported: every later greeting is a reconnection's.
    private var hasBeenReady = false
    private var hasEnded = false
    private var isQuitting = false
    /// Set while getting back in after a drop: when the drop happened and how many attempts were made.
    private var recovery: (since: Moment, attempts: Int, lastError: String)?
    /// The room to watch again after a reconnect, when watching rather than seated.
    private var watchedRoom: String?
    /// Whether `skippedUnknown` was reported: it is said once per session.
    private var hasReportedUnknown = false
    /// The last `join`, `watch` or `resume` sent, with its id: what a `redirect` asks to repeat elsewhere.
    private var lastPlaceRequest: Request?
    /// The request to repeat on the connection being opened after a `redirect`.
    private var redirectedRequest: Request?
    private var redirectsInARow = 0

    public init(endpoint: ServerEndpoint, name: String?, password: String? = nil, queue: DispatchQueue,
                reconnectPolicy: ReconnectPolicy = ReconnectPolicy()) {
        self.endpoint = endpoint
        self.name = name
        self.password = password
        self.queue = queue
        self.reconnectPolicy = reconnectPolicy
    }

    /// Connects. `ready` follows once the server greets, or `ended(.cannotConnect)`.
    public func start() {
        dispatchPrecondition(condition: .onQueue(queue))
        openConnection { [self] result in
            switch result {
            case .success(let connection):
                adopt(connection)
            case .failure(let error):
                end(.cannotConnect(error))
            }
        }
    }

    /// Sends a request with a fresh id and returns the id, or nil when there is no connection to send it
    /// on (while reconnecting): the request is dropped, since a stale flip is worse than none.
    @discardableResult
    public func send(_ message: ClientMessage) -> RequestID? {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let connection, connection.isOpen, !isQuitting else { return nil }
        let id = RequestID.integer(nextRequestID)
        nextRequestID += 1
        switch message {
        case .join, .watch, .resume: lastPlaceRequest = Request(id: id, message)
        default: break
        }
        do {
            try connection.send(Request(id: id, message))
        } catch {
            // The connection reports its own end on the queue; reconnection starts from there.
            return nil
        }
        return id
    }

    /// Sets the password said with the name. Before `start`, for the first `hello`; after `nameRefused`,
    /// says hello again with it: `ready` follows once the server takes the name, `nameRefused` again if not.
    public func sayHello(password: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let name, !hasBeenReady, helloRequestID == nil else { return }
        self.password = password
        // Before `start`, or without a connection just now, the next greeting says hello with it.
        helloRequestID = send(.hello(name: name, password: password, followsRedirects: true))
    }

    /// Says `quit` and ends once the server has closed (or after `quitTimeoutMilliseconds`). The seat is
    /// kept for the grace period as after any drop, so a player who means to give it up sends `leave` first.
    public func quit() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !hasEnded, !isQuitting else { return }
        guard let connection, connection.isOpen else { return end(.quit) }
        _ = try? connection.send(Request(.quit))
        isQuitting = true
        queue.asyncAfter(deadline: .now() + .milliseconds(Self.quitTimeoutMilliseconds)) { [self] in
            end(.quit)
        }
    }

    /// Closes at once, without a word to the server. No event follows.
    public func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        onEvent = nil
        end(.quit)
    }

    // MARK: Connections

    /// Opens a connection off the queue (connecting can take seconds) and hands the result back on it.
    private func openConnection(_ completion: @escaping @Sendable (Result<ClientConnection, ConnectionError>) -> Void) {
        let endpoint = self.endpoint
        let queue = self.queue
        connector.async {
            let result = Result { () throws(ConnectionError) in try ClientConnection.open(to: endpoint, queue: queue) }
            queue.async { completion(result) }
        }
    }

    private func adopt(_ connection: ClientConnection) {
        guard !hasEnded else { return connection.close() }
        self.connection = connection
        isWelcomed = false
        byeReason = nil
        // The connection holds the session (through this handler) for as long as it is open, so a session
        // lives until it ends even if its owner lets go of it; ending it closes the connection, which
        // drops the handler and the cycle with it.
        connection.start { [self, weak connection] event in
            guard let connection, connection === self.connection else { return }
            handle(event)
        }
        speakFirst()
    }

    /// Says what a new connection needs said, without waiting for the server's `welcome`: the name, and
    /// after a drop the seat (or the room watched) to take back. A server that also serves browsers may
    /// hold the `welcome` of a connection that has said nothing (protocol.md, "One port"); one that speaks
    /// first is greeted at once. Requests sent before `welcome` are answered after it, in order.
    private func speakFirst() {
        if let request = redirectedRequest, let connection {
            redirectedRequest = nil
            if let name { send(.hello(name: name, password: password, followsRedirects: true)) }
            lastPlaceRequest = request
            try? connection.send(request)
            return
        }
        if hasBeenReady {
            if let name { send(.hello(name: name, password: password, followsRedirects: true)) }
            if let token {
                resumeRequestID = send(.resume(token: token))
            } else if let watchedRoom {
                send(.watch(room: watchedRoom))
            }
        } else if let name {
            helloRequestID = send(.hello(name: name, password: password, followsRedirects: true))
        }
    }

    private func handle(_ event: ConnectionEvent) {
        switch event {
        case .message(let message):
            handle(message)
        case .skippedUnknown(let part):
            guard !hasReportedUnknown else { return }
            hasReportedUnknown = true
            emit(.skippedUnknown(part))
        case .unreadableLine(let error):
            emit(.unreadableLine(reason: error.description))
        case .lineTooLong:
            emit(.unreadableLine(reason: "a line longer than \(LineFramer.maxLineBytes) bytes"))
        case .closed(let end):
            connectionClosed(end)
        }
    }

    private func handle(_ message: ServerMessage) {
        switch message {
        case .welcome(let welcome) where welcome.id == nil && !isWelcomed:
            // What the connection needed said went out when it opened (`speakFirst`).
            isWelcomed = true
            if redirectsInARow > 0 {
                // Arrived where a redirect sent it: nothing was lost, so there is nothing to report.
            } else if hasBeenReady {
                recovery = nil
                emit(.reconnected)
            } else if name == nil {
                becomeReady(welcome)
            }
            return
        case .welcome(let welcome) where welcome.id != nil && welcome.id == helloRequestID:
            helloRequestID = nil
            return becomeReady(welcome)
        case .error(let error) where error.id != nil && error.id == helloRequestID:
            helloRequestID = nil
            return emit(.nameRefused(error))
        case .redirect(let redirect):
            return follow(redirect)
        case .joined(let joined):
            redirectsInARow = 0
            room = joined.room
            seat = joined.seat
            token = joined.token
            watchedRoom = joined.seat == nil ? joined.room : nil
        case .left:
            room = nil
            seat = nil
            token = nil
            watchedRoom = nil
        case .error(let error) where error.id != nil && error.id == resumeRequestID:
            resumeRequestID = nil
            room = nil
            seat = nil
            token = nil
            return emit(.seatLost(error))
        case .bye(let reason):
            byeReason = reason
        default:
            break
        }
        emit(.message(message))
    }

    /// Connects to the instance `redirect` names and repeats the request there (`speakFirst`). A redirect
    /// that answers no request of this session's, or one too many in a row, ends it as an error would.
    private func follow(_ redirect: Redirect) {
        guard let request = lastPlaceRequest, request.id == redirect.id || redirect.id == nil else { return }
        guard redirectsInARow < Self.maxRedirectsInARow else {
            return emit(.message(.error(RequestError(.ownedElsewhere, "sent from instance to instance \(redirectsInARow) times; giving up",
                                                     id: redirect.id))))
        }
        redirectsInARow += 1
        endpoint = ServerEndpoint(host: redirect.host, port: redirect.port)
        redirectedRequest = request
        // A quick match answered by a partner waiting on another instance names the room to join there.
        if case .join(var join) = request.message, redirect.request == .join, let room = redirect.room, join.room != room {
            join.room = room
            redirectedRequest = Request(id: request.id, .join(join))
        }
        // The old connection goes quietly: its handler checks that it is still the session's.
        let old = connection
        connection = nil
        isWelcomed = false
        old?.close()
        openConnection { [self] result in
            switch result {
            case .success(let connection):
                adopt(connection)
            case .failure(let error):
                redirectedRequest = nil
                end(.cannotConnect(error))
            }
        }
    }

    private func becomeReady(_ welcome: Welcome) {
        hasBeenReady = true
        emit(.ready(welcome))
    }

    private func connectionClosed(_ end: ConnectionEnd) {
        connection = nil
        isWelcomed = false
        // A hello lost with its connection is said again on the next one.
        helloRequestID = nil
        if isQuitting { return self.end(.quit) }
        // A full server turning away a reconnection may have room a moment later; on a first connection
        // it is an answer.
        if let byeReason, !byeReason.invitesReconnect, !(byeReason == .serverFull && recovery != nil) {
            return self.end(.bye(byeReason))
        }
        let now = MonotonicClock.now()
        if recovery == nil {
            recovery = (since: now, attempts: 0, lastError: end.reason)
            emit(.connectionLost(end))
        } else {
            recovery?.lastError = end.reason
        }
        scheduleReconnect(now: now)
    }

    private func scheduleReconnect(now: Moment) {
        guard !hasEnded, let recovery else { return }
        let attempt = recovery.attempts + 1
        let elapsed = Int(recovery.since.milliseconds(until: now))
        guard let delay = reconnectPolicy.delay(beforeAttempt: attempt, elapsedMilliseconds: elapsed) else {
            return end(.gaveUp(lastError: recovery.lastError))
        }
        self.recovery?.attempts = attempt
        emit(.reconnecting(attempt: attempt, delayMilliseconds: delay))
        queue.asyncAfter(deadline: .now() + .milliseconds(delay)) { [self] in
            guard !hasEnded else { return }
            openConnection { [self] result in
                switch result {
                case .success(let connection):
                    adopt(connection)
                case .failure(let error):
                    self.recovery?.lastError = error.reason
                    scheduleReconnect(now: MonotonicClock.now())
                }
            }
        }
    }

    private func end(_ reason: SessionEnd) {
        guard !hasEnded else { return }
        hasEnded = true
        connection?.close()
        connection = nil
        emit(.ended(reason))
        onEvent = nil
    }

    private func emit(_ event: SessionEvent) {
        onEvent?(event)
    }
}
