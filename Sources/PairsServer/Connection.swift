import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import PairsRules
import PairsWire

/// One client: its socket, its Dispatch sources, its buffers and where it is (lobby, seat, or watching).
///
/// Confined to the server's queue: every property is read and written only on that queue, which is what
/// makes `@unchecked Sendable` true. Dispatch handlers capture a connection, but they run on that queue.
/// Decisions (what a message means, when to drop a client) belong to `Server`; this type only moves bytes.
final class Connection: @unchecked Sendable {
    /// Where the connection is.
    enum Place {
        case lobby
        case seated(Room, Seat)
        case watching(Room)
    }

    /// What happened to bytes handed to `write(_:)`.
    enum WriteOutcome {
        /// Sent, or queued within the output limit.
        case accepted
        /// Queuing them would pass the output limit: the client is not reading.
        case overflow
        /// The socket is broken (peer reset or gone).
        case failed
    }

    /// What one read from the socket brought.
    enum ReadOutcome {
        case bytes(Int)
        case wouldBlock
        case endOfStream
        case failed
    }

    /// Bytes written per writable event at most, so one client with a deep backlog cannot keep the
    /// queue from every other connection for long.
    static let maxWriteBytesPerEvent = 64 * 1024

    let id: Int
    let fd: Int32
    let peer: String
    var name: String
    var place = Place.lobby
    var framer = LineFramer()
    var output = OutputBuffer()
    /// Drops messages beyond the rate limit; nil when the limit is off.
    var rateLimit: TokenBucket?
    /// Counts dropped messages: when it runs dry the client is flooding and is disconnected.
    var floodAllowance: TokenBucket?
    /// The last message received, for the idle limit.
    var lastActivity: Moment
    /// Set once the connection is scheduled to close: its input is ignored from then on.
    var isClosing = false

    /// Neighbours in the server's idle list (lobby connections, least recently active first).
    var idlePrevious: Connection?
    var idleNext: Connection?
    var isInIdleList = false

    private var queue: DispatchQueue?
    private var writableHandler: (@Sendable () -> Void)?
    private var readSource: DispatchSourceRead?
    private var writeSource: DispatchSourceWrite?
    private var isWriteSourceSuspended = false
    /// Sources not yet through their cancel handler. The descriptor is closed only when this reaches
    /// zero: Dispatch requires it to stay open until every source on it is cancelled.
    private var liveSources = 0
    private var isSocketClosed = false

    init(id: Int, fd: Int32, peer: String, now: Moment) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.name = "player\(id)"
        self.lastActivity = now
    }

    var room: Room? {
        switch place {
        case .lobby: nil
        case .seated(let room, _), .watching(let room): room
        }
    }

    /// Starts delivering events on `queue`: `readable` when input arrives, `writable` when queued output
    /// can go out.
    func start(on queue: DispatchQueue, readable: @escaping @Sendable () -> Void, writable: @escaping @Sendable () -> Void) {
        self.queue = queue
        writableHandler = writable
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler(handler: readable)
        source.setCancelHandler { [self] in sourceCancelled() }
        liveSources += 1
        readSource = source
        source.activate()
    }

    /// Reads what the socket has, up to the buffer's size.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfStream }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed
            }
        }
    }

    /// Sends `bytes` now if the socket takes them, queues what it does not, and arms the write source.
    /// The array is queued by reference, so a broadcast costs no copy per recipient.
    func write(_ bytes: [UInt8], limit: Int) -> WriteOutcome {
        guard !isSocketClosed else { return .failed }
        if !output.isEmpty {
            guard output.byteCount + bytes.count <= limit else { return .overflow }
            output.append(bytes)
            return .accepted
        }
        let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent == bytes.count { return .accepted }
        if sent < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { return .failed }
        output.append(bytes, alreadySent: max(0, sent))
        armWriteSource()
        return .accepted
    }

    /// Sends queued bytes, at most `maxWriteBytesPerEvent`. Returns false when the socket is broken.
    func flush() -> Bool {
        var budget = Self.maxWriteBytesPerEvent
        while !output.isEmpty, budget > 0 {
            let result = output.sendFront { bytes in
                let count = min(bytes.count, budget)
                let sent = send(fd, bytes.baseAddress, count, Int32(MSG_NOSIGNAL))
                if sent >= 0 { return sent }
                return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
            }
            guard let sent = result else { return false }
            if sent == 0 { break }
            budget -= sent
        }
        if output.isEmpty, let source = writeSource, !isWriteSourceSuspended {
            source.suspend()
            isWriteSourceSuspended = true
        }
        return true
    }

    /// Writes `bytes` straight to the socket, past any queue and limit, and gives up on what the socket
    /// does not take. For the last words (`bye`) to a client that is about to be closed anyway.
    func writeLastWords(_ bytes: [UInt8]) {
        guard !isSocketClosed else { return }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Stops all events and closes the socket once Dispatch lets go of it.
    func closeSocket() {
        guard !isSocketClosed else { return }
        isSocketClosed = true
        output.removeAll()
        readSource?.cancel()
        if let source = writeSource {
            if isWriteSourceSuspended {
                source.resume() // a suspended source never runs its cancel handler
                isWriteSourceSuspended = false
            }
            source.cancel()
        }
        if liveSources == 0 { Glibc.close(fd) }
    }

    private func armWriteSource() {
        guard let queue, let handler = writableHandler else { return }
        if let source = writeSource {
            if isWriteSourceSuspended {
                source.resume()
                isWriteSourceSuspended = false
            }
            return
        }
        let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler(handler: handler)
        source.setCancelHandler { [self] in sourceCancelled() }
        liveSources += 1
        writeSource = source
        source.activate()
    }

    private func sourceCancelled() {
        liveSources -= 1
        guard liveSources == 0 else { return }
        // Dropping the sources breaks the cycle connection -> source -> handler -> connection.
        readSource = nil
        writeSource = nil
        writableHandler = nil
        Glibc.close(fd)
    }
}
