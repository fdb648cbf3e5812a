import Dispatch
import PairsWire

/// One tournament request to a server, under a name, and what follows it (`pairs tournament`): connects,
/// says `hello` (the creator is known by name, and only the creator starts a tournament), sends the request,
/// and hands over its whole answer; when following, every `tournament` message after it too, until the
/// tournament is over or the connection ends.
public enum TournamentSession {
    /// Asks `request` as `name` and calls `each` with its answer and, when `follow` is set, with every
    /// later `tournament` message, each put together from its lines. Blocks the calling thread until the
    /// answer (following: until the tournament finishes); calls `each` on a queue of its own.
    public static func run(_ request: TournamentRequest, as name: String?, at endpoint: ServerEndpoint, follow: Bool,
                           each: @escaping @Sendable (ServerMessage) -> Void) throws(QueryError) {
        let queue = DispatchQueue(label: "pairs.tournament")
        let connection: ClientConnection
        do {
            connection = try ClientConnection.open(to: endpoint, queue: queue)
        } catch {
            throw .connection(error)
        }
        let exchange = Exchange(request: request, name: name, follow: follow, connection: connection, each: each)
        queue.sync { exchange.start() }
        let answered = exchange.answered.wait(timeout: .now() + .seconds(ServerQuery.answerTimeoutSeconds))
        if answered == .success, follow { exchange.done.wait() }
        let result: Result<Void, QueryError> = queue.sync { answered == .timedOut && exchange.result == nil ? .failure(.timedOut) : exchange.result ?? .success(()) }
        queue.sync { connection.close() }
        try result.get()
    }

    /// The conversation, on the connection's queue.
    private final class Exchange: @unchecked Sendable {
        let request: TournamentRequest
        let name: String?
        let follow: Bool
        let connection: ClientConnection
        let each: @Sendable (ServerMessage) -> Void
        /// Signalled once the request's answer (or a failure) is in; `done` once nothing more will be.
        let answered = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        private(set) var result: Result<Void, QueryError>?
        private var hasAnswer = false
        private var line = LongAnswer()

        static let helloID = RequestID.integer(1)
        static let requestID = RequestID.integer(2)

        init(request: TournamentRequest, name: String?, follow: Bool, connection: ClientConnection,
             each: @escaping @Sendable (ServerMessage) -> Void) {
            self.request = request
            self.name = name
            self.follow = follow
            self.connection = connection
            self.each = each
        }

        func start() {
            connection.start { [unowned self] event in handle(event) }
            do {
                if let name { try connection.send(Request(id: Self.helloID, .hello(name: name, password: nil))) }
                try connection.send(Request(id: Self.requestID, .tournament(request)))
            } catch {
                finish(.failure(.connection(error)))
            }
        }

        private func handle(_ event: ConnectionEvent) {
            guard result == nil else { return }
            switch event {
            case .message(.error(let error)) where error.id == Self.helloID || error.id == Self.requestID:
                finish(.failure(.refused(error)))
            case .message(.bye(let reason)):
                finish(.failure(.goodbye(reason)))
            case .message(let message) where isPartOfWhatIsFollowed(message):
                do {
                    try line.append(message)
                } catch {
                    return finish(.failure(.unreadable(error.description)))
                }
                guard line.isComplete, let whole = line.message else { return }
                line = LongAnswer()
                hasAnswer = true
                each(whole)
                if !follow { return finish(.success(())) }
                answered.signal()
                if case .tournament(let view) = whole, view.status == .finished { finish(.success(())) }
            case .closed(let end):
                finish(.failure(.closed(end)))
            case .unreadableLine(let error):
                finish(.failure(.unreadable(error.description)))
            case .message, .skippedUnknown, .lineTooLong:
                break
            }
        }

        /// The request's answer, then (following) the tournament's messages to everyone.
        private func isPartOfWhatIsFollowed(_ message: ServerMessage) -> Bool {
            switch message {
            case .tournament(let view): hasAnswer ? follow && view.id == nil : view.id == Self.requestID
            case .tournaments(let list): !hasAnswer && list.id == Self.requestID
            default: false
            }
        }

        private func finish(_ result: Result<Void, QueryError>) {
            self.result = result
            answered.signal()
            done.signal()
        }
    }
}
