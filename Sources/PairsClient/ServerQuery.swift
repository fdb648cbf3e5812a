import Dispatch
import PairsWire

/// One question to a server and its whole answer, for the commands that ask and print (`pairs history`,
/// `leaderboard`, `profile`, `replay`): connects, sends the request at once (the greeting comes first
/// anyway), reads every line of the answer (a long answer's `more` lines too) and closes.
public enum ServerQuery {
    /// How long the answer may take once connected, in seconds. The server reads it from its database in
    /// milliseconds and a long replay is a few lines; this covers a busy server on a slow network.
    public static let answerTimeoutSeconds = 10

    /// The whole answer: the message its lines make together, and the lines as they came.
    public struct Answer: Sendable, Hashable {
        public var message: ServerMessage
        /// Each line of the answer, as the server sent it (without the newline) but for what could drive a
        /// terminal, escaped (`NetworkText.printable(line:)`).
        public var lines: [[UInt8]]
    }

    /// Asks `request` and waits for its whole answer. Blocks the calling thread, which must not be the
    /// queue the connection runs on (a queue of its own).
    public static func ask(_ request: ClientMessage, at endpoint: ServerEndpoint) throws(QueryError) -> Answer {
        let queue = DispatchQueue(label: "pairs.query")
        let connection: ClientConnection
        do {
            connection = try ClientConnection.open(to: endpoint, queue: queue)
        } catch {
            throw .connection(error)
        }
        let exchange = Exchange(request: Request(id: .integer(1), request), connection: connection)
        queue.sync { exchange.start() }
        let result: Result<Answer, QueryError> =
            switch exchange.done.wait(timeout: .now() + .seconds(answerTimeoutSeconds)) {
            case .success: queue.sync { exchange.result ?? .failure(.timedOut) }
            case .timedOut: .failure(.timedOut)
            }
        queue.sync { connection.close() }
        if case .success(let answer) = result, case .error(let error) = answer.message { throw .refused(error) }
        return try result.get()
    }

    /// The conversation on the connection's queue: the greeting, the request, the lines of its answer.
    private final class Exchange: @unchecked Sendable {
        let request: Request
        let connection: ClientConnection
        let done = DispatchSemaphore(value: 0)
        /// Set once, on the queue, before `done` is signalled.
        private(set) var result: Result<Answer, QueryError>?
        private var answer = LongAnswer()
        private var lines: [[UInt8]] = []
        private var lastLine: [UInt8] = []

        init(request: Request, connection: ClientConnection) {
            self.request = request
            self.connection = connection
        }

        /// Starts reading and sends the request at once, without waiting for `welcome`: a server that also
        /// serves browsers may hold the `welcome` of a connection that has said nothing.
        func start() {
            connection.onLine = { [unowned self] line in lastLine = line }
            connection.start { [unowned self] event in handle(event) }
            do {
                try connection.send(request)
            } catch {
                finish(.failure(.connection(error)))
            }
        }

        private func handle(_ event: ConnectionEvent) {
            guard result == nil else { return }
            switch event {
            case .message(.bye(let reason)):
                finish(.failure(.goodbye(reason)))
            case .message(let message) where message.answerID == request.id:
                do {
                    try answer.append(message)
                } catch {
                    return finish(.failure(.unreadable(error.description)))
                }
                lines.append(lastLine)
                if answer.isComplete, let whole = answer.message { finish(.success(Answer(message: whole, lines: lines))) }
            case .unreadableLine(let error):
                finish(.failure(.unreadable(error.description)))
            case .closed(let end):
                finish(.failure(.closed(end)))
            case .message, .skippedUnknown, .lineTooLong:
                break
            }
        }

        private func finish(_ result: Result<Answer, QueryError>) {
            self.result = result
            done.signal()
        }
    }
}

/// Why a question to the server got no answer, or a refusal.
public enum QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server could not be reached.
    case connection(ConnectionError)
    /// The server refused the request: its error, whose `code` says why (`no_such_game`, `no_storage`...).
    case refused(RequestError)
    /// The server said goodbye before answering.
    case goodbye(ByeReason)
    /// The connection ended before the answer was complete.
    case closed(ConnectionEnd)
    /// The server sent something that is not the answer.
    case unreadable(String)
    /// No whole answer within `ServerQuery.answerTimeoutSeconds`.
    case timedOut

    public var description: String {
        switch self {
        case .connection(let error): "\(error)"
        case .refused(let error): "\(error.message) (\(error.code.rawValue))"
        case .goodbye(let reason): reason.explanation
        case .closed(let end): "\(end) before answering"
        case .unreadable(let reason): "could not read the server's answer: \(reason)"
        case .timedOut: "the server did not answer within \(ServerQuery.answerTimeoutSeconds) seconds"
        }
    }
}
