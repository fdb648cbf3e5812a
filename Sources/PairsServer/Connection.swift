#if canImport(Glibc)
import Glibc
#endif
import PairsPolling
import PairsRules
import PairsWire

/// One client: its socket, its buffers and where it is (lobby, seat, or watching).
///
/// Confined to the server's queue: every property is read and written only on that queue, which is what
/// makes `@unchecked Sendable` true. Decisions (what a message means, when to drop a client) belong to
/// `Server`; this type only moves bytes.
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

    /// The server's epoll set, once the connection is in it.
    private var poller: EventPoller?
    /// Whether the socket is watched for room to write: only while output is queued, since an empty
    /// socket buffer is writable nearly always and would report so in every batch.
    private var isWatchingWritable = false
    private(set) var isSocketClosed = false

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

    /// Puts the socket in the server's epoll set, which reports it by its descriptor.
    func watch(with poller: EventPoller) -> Bool {
        self.poller = poller
        return poller.add(fd, token: UInt64(fd), interest: EventPoller.readable)
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

    /// Sends `bytes` now if the socket takes them, queues what it does not, and watches for room to write.
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
        watchWritable(true)
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
        if output.isEmpty { watchWritable(false) }
        return true
    }

    /// Writes `bytes` straight to the socket, past any queue and limit, and gives up on what the socket
    /// does not take. For the last words (`bye`) to a client that is about to be closed anyway.
    func writeLastWords(_ bytes: [UInt8]) {
        guard !isSocketClosed else { return }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Closes the socket, which also takes it out of the epoll set (the server never duplicates it).
    func closeSocket() {
        guard !isSocketClosed else { return }
        isSocketClosed = true
        output.removeAll()
        Glibc.close(fd)
    }

    private func watchWritable(_ wanted: Bool) {
        guard wanted != isWatchingWritable, let poller else { return }
        isWatchingWritable = wanted
        let interest = wanted ? EventPoller.readable | EventPoller.writable : EventPoller.readable
        _ = poller.modify(fd, token: UInt64(fd), interest: interest)
    }
}
