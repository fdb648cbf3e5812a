import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsPolling
import PairsWire

/// One TCP connection to a Pairs server: requests go out as JSON lines, and every line that comes back is
/// decoded and reported as a `ConnectionEvent`.
///
/// Reading never blocks the caller: a Dispatch read source wakes the connection's queue when bytes arrive,
/// so a terminal UI sharing that queue keeps ticking while the server is quiet. Writes are small (one
/// request is a few dozen bytes) and go straight to the socket, with a send timeout so a server that stops
/// reading cannot freeze the client.
///
/// Confinement: after `open`, the connection is used only on its `queue` (events are delivered there, and
/// `send` and `close` must be called there). That is what makes the `@unchecked Sendable` safe.
public final class ClientConnection: @unchecked Sendable {
    /// How long `open` waits for the server to accept, per attempt over all of a host's addresses. A server
    /// on the LAN answers in milliseconds; five seconds covers a busy one without leaving a player staring
    /// at nothing.
    public static let connectTimeoutMilliseconds = 5_000
    /// How long one write may wait for room in the socket buffer. Only a server that has stopped reading
    /// makes a client wait at all; after this long the connection is treated as broken.
    public static let sendTimeoutSeconds = 5
    /// Bytes read per wake-up. A full state of the largest board is under 4 KiB, so this drains a burst of
    /// states in one read.
    static let readChunkBytes = 64 * 1024

    public let endpoint: ServerEndpoint
    public let queue: DispatchQueue

    private let fd: Int32
    private var source: DispatchSourceRead?
    private var framer = LineFramer()
    private var handler: ((ConnectionEvent) -> Void)?
    /// Sees every line as it came, before its event: for a client that passes the server's words on as
    /// they are (`pairs history --json`), with whatever could drive a terminal escaped
    /// (`NetworkText.printable(line:)`). Set before `start`.
    public var onLine: (([UInt8]) -> Void)?
    private var readBuffer = [UInt8](repeating: 0, count: ClientConnection.readChunkBytes)
    /// Set once the connection has ended, so `.closed` is reported exactly once.
    private var hasEnded = false

    private init(endpoint: ServerEndpoint, fd: Int32, queue: DispatchQueue) {
        self.endpoint = endpoint
        self.fd = fd
        self.queue = queue
    }

    deinit {
        // A connection dropped without `close()` still gives its descriptor back. The read source holds
        // the connection strongly while it runs, so reaching here means it was never started or has been
        // cancelled (and then the cancel handler closed the descriptor already).
        if source == nil, !hasEnded { Glibc.close(fd) }
    }

    /// Connects to `endpoint`, trying each of its addresses in turn. Blocks for up to
    /// `connectTimeoutMilliseconds` per address, so call it off the UI's queue.
    public static func open(to endpoint: ServerEndpoint, queue: DispatchQueue) throws(ConnectionError) -> ClientConnection {
        guard (1...65535).contains(endpoint.port) else { throw .badPort(endpoint.port) }
        let addresses: [SocketAddress]
        do {
            addresses = try SocketAddress.resolve(host: endpoint.host, port: endpoint.port, for: .connecting)
        } catch {
            throw .cannotResolve(host: endpoint.host, reason: error.reason)
        }
        let fd: Int32
        do {
            fd = try SocketConnector.connectToFirst(of: addresses, timeoutMilliseconds: connectTimeoutMilliseconds).fd
        } catch {
            throw .cannotConnect(endpoint, reason: describe(error))
        }
        // Blocking from here on, with a send timeout: requests are small and written whole (see `send`).
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        var timeout = timeval(tv_sec: sendTimeoutSeconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return ClientConnection(endpoint: endpoint, fd: fd, queue: queue)
    }

    /// A failed connect in words, with a hint for the failure every player meets first.
    private static func describe(_ error: ConnectError) -> String {
        if case .failed(errno: ECONNREFUSED) = error { return ConnectionError.refused }
        return error.description
    }

    /// Starts reading: `handler` gets every event on `queue`, ending with exactly one `.closed` unless
    /// `close()` is called first.
    public func start(_ handler: @escaping (ConnectionEvent) -> Void) {
        precondition(source == nil && !hasEnded, "a connection is started once")
        self.handler = handler
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [self] in readAvailable() }
        let fd = self.fd
        source.setCancelHandler { Glibc.close(fd) }
        self.source = source
        source.activate()
    }

    /// Whether requests can still be sent.
    public var isOpen: Bool { !hasEnded }

    /// Writes one request. Throws if the connection is closed or the write fails; a failed write also ends
    /// the connection, reported as `.closed(.failed)` on the queue.
    public func send(_ request: Request) throws(ConnectionError) {
        try send(bytes: RequestEncoder.encode(request))
    }

    /// Writes bytes that already are one or more whole request lines.
    public func send(bytes: [UInt8]) throws(ConnectionError) {
        guard !hasEnded else { throw .notConnected }
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Glibc.send(fd, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
            }
            if result >= 0 {
                sent += result
                continue
            }
            let error = errno
            if error == EINTR { continue }
            let reason = (error == EAGAIN || error == EWOULDBLOCK)
                ? "the server has not read anything for \(Self.sendTimeoutSeconds) seconds"
                : String(cString: strerror(error))
            // Reported from the queue, after the caller has dealt with the throw, never from inside it.
            queue.async { [self] in end(.failed(reason)) }
            throw .sendFailed(reason: reason)
        }
    }

    /// Closes the connection from this side. No more events are reported.
    public func close() {
        guard !hasEnded else { return }
        hasEnded = true
        handler = nil
        if let source {
            source.cancel()
        } else {
            Glibc.close(fd)
        }
    }

    // MARK: Reading

    private func readAvailable() {
        guard !hasEnded else { return }
        switch readBuffer.withUnsafeMutableBytes({ SocketInput.read(from: fd, into: $0) }) {
        case .bytes(let count):
            // Each event with the line it came from, for `onLine`.
            var events: [(event: ConnectionEvent, line: [UInt8]?)] = []
            let keepsLines = onLine != nil
            readBuffer.withUnsafeBytes { buffer in
                framer.append(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { frame in
                    switch frame {
                    case .line(let line):
                        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return }
                        let printable = keepsLines ? Array(NetworkText.printable(line: line).utf8) : nil
                        do throws(ServerMessageError) {
                            switch try Self.decode(line) {
                            case .message(let message, let unknown):
                                if let unknown { events.append((.skippedUnknown(unknown), nil)) }
                                events.append((.message(message), printable))
                            case .unknownType(let type):
                                events.append((.skippedUnknown(.messageType(type)), printable))
                            }
                        } catch {
                            events.append((.unreadableLine(error), printable))
                        }
                    case .tooLong:
                        events.append((.lineTooLong, nil))
                    }
                }
            }
            // Delivered after framing, so a handler that closes the connection cannot pull the framer's
            // buffer out from under it.
            for (event, line) in events {
                guard !hasEnded, let handler else { return }
                if let line, let onLine { onLine(line) }
                handler(event)
            }
        case .wouldBlock:
            break
        case .endOfStream:
            end(.endOfStream)
        case .failed(let code):
            end(.failed(String(cString: strerror(code))))
        }
    }

    /// One line read as a message, with every string in it cleaned (`NetworkText`) before anything else
    /// sees it: from here on, what the server said can be printed.
    static func decode(_ line: some Collection<UInt8>) throws(ServerMessageError) -> ServerMessageDecoder.DecodedLine {
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(line))
        } catch {
            throw .badJSON(error)
        }
        return try ServerMessageDecoder.decodeNotingUnknown(NetworkText.clean(value))
    }

    private func end(_ reason: ConnectionEnd) {
        guard !hasEnded else { return }
        let handler = self.handler
        close()
        handler?(.closed(reason))
    }
}
