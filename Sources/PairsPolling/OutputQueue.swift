#if canImport(Glibc)
import Glibc
#endif

/// Bytes on their way to one non-blocking socket: sent at once when the socket takes them, queued in order
/// when it does not, and sent from the front once it has room again. The server's and the load generator's
/// one write path.
///
/// Messages are kept as the arrays they were encoded into, so a state broadcast to a whole room is queued
/// by reference to one array rather than copied per recipient. Empty (and allocation-free) in the common
/// case where the socket takes every message at once. The owner watches the socket for room to write
/// while the queue is not empty, and calls `flush` when there is.
public struct OutputQueue {
    /// What happened to bytes handed to `write`.
    public enum WriteOutcome: Sendable {
        /// Sent, or queued within the limit.
        case accepted
        /// Queuing them would pass the limit: the peer is not reading.
        case overflow
        /// The socket is broken (peer reset or gone); nothing was queued.
        case failed
    }

    private var chunks: [[UInt8]] = []
    /// How much of `chunks[0]` was already sent.
    private var offset = 0
    /// Bytes queued and not yet sent.
    public private(set) var byteCount = 0

    public init() {}

    /// Whether every byte written has gone to the socket.
    public var isEmpty: Bool { byteCount == 0 }

    /// Sends `bytes` on `fd` now if nothing is waiting and the socket takes them, and queues what it does not
    /// take. `limit` bounds the bytes waiting (checked only once bytes are waiting already: a socket that
    /// takes nothing at all is still given one message). The array is queued by reference.
    public mutating func write(_ bytes: [UInt8], to fd: Int32, limit: Int = .max) -> WriteOutcome {
        if !isEmpty {
            guard byteCount + bytes.count <= limit else { return .overflow }
            enqueue(bytes, alreadySent: 0)
            return .accepted
        }
        guard let sent = bytes.withUnsafeBytes({ Self.send($0, to: fd) }) else { return .failed }
        enqueue(bytes, alreadySent: sent)
        return .accepted
    }

    /// As `write(_:to:limit:)`, for bytes in a buffer the caller reuses: what has to wait is copied.
    public mutating func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32, limit: Int = .max) -> WriteOutcome {
        if !isEmpty {
            guard byteCount + bytes.count <= limit else { return .overflow }
            enqueue(Array(bytes), alreadySent: 0)
            return .accepted
        }
        guard let sent = Self.send(bytes, to: fd) else { return .failed }
        if sent < bytes.count { enqueue(Array(bytes[sent...]), alreadySent: 0) }
        return .accepted
    }

    /// Sends what is waiting, from the front, until the socket is full or `maxBytes` have gone (so one peer
    /// with a deep backlog cannot keep its owner from every other socket for long). Returns false when the
    /// socket is broken.
    public mutating func flush(to fd: Int32, maxBytes: Int) -> Bool {
        var budget = maxBytes
        while let first = chunks.first, budget > 0 {
            let result = first.withUnsafeBytes { bytes in
                Self.send(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + min(bytes.count - offset, budget))]), to: fd)
            }
            guard let sent = result else { return false }
            if sent == 0 { break }
            budget -= sent
            offset += sent
            byteCount -= sent
            if offset == first.count {
                chunks.removeFirst()
                offset = 0
                if chunks.isEmpty { chunks = [] } // give back storage grown by a burst
            }
        }
        return true
    }

    /// Drops every message not yet begun, keeping the rest of one already partly sent: a line cut in half
    /// would corrupt whatever is written after it (the goodbye that usually follows this).
    public mutating func discardUnsent() {
        guard let first = chunks.first else { return }
        if offset == 0 {
            chunks = []
            byteCount = 0
        } else {
            chunks = [first]
            byteCount = first.count - offset
        }
    }

    /// Queues `bytes`, of which the first `alreadySent` went out already. Only a message that starts an
    /// empty queue can be partly sent: anything behind other bytes has not been tried yet.
    private mutating func enqueue(_ bytes: [UInt8], alreadySent: Int) {
        guard alreadySent < bytes.count else { return }
        if chunks.isEmpty { offset = alreadySent }
        chunks.append(bytes)
        byteCount += bytes.count - alreadySent
    }

    /// One `send`: how many bytes the socket took (0 when it is full), or nil when it is broken.
    @inline(__always)
    private static func send(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int? {
        let sent = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        if sent >= 0 { return sent }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
    }
}
