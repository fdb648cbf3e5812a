/// Bytes waiting for a socket to accept them: whole messages, in order, sent from the front.
///
/// Messages are kept as the arrays they were encoded into, so a state broadcast to a whole room is queued
/// by reference to one array rather than copied per recipient. Empty (and allocation-free) in the common
/// case where the socket takes every message at once.
struct OutputBuffer {
    private var chunks: [[UInt8]] = []
    /// How much of `chunks[0]` was already sent.
    private var offset = 0
    /// Bytes queued and not yet sent.
    private(set) var byteCount = 0

    var isEmpty: Bool { byteCount == 0 }

    /// Queues `bytes`, of which the first `alreadySent` went out already. Only a message that starts an
    /// empty buffer can be partly sent: anything queued behind other bytes has not been tried yet.
    mutating func append(_ bytes: [UInt8], alreadySent: Int = 0) {
        precondition(alreadySent == 0 || chunks.isEmpty, "only the front message can be partly sent")
        guard alreadySent < bytes.count else { return }
        if chunks.isEmpty { offset = alreadySent }
        chunks.append(bytes)
        byteCount += bytes.count - alreadySent
    }

    /// Hands the unsent bytes of the first chunk to `send`, which returns how many it sent (0 when the
    /// socket is full, nil on an error), and drops what was sent.
    mutating func sendFront(_ send: (UnsafeRawBufferPointer) -> Int?) -> Int? {
        guard let first = chunks.first else { return 0 }
        let sent = first.withUnsafeBytes { bytes in send(UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
        guard let sent else { return nil }
        offset += sent
        byteCount -= sent
        if offset == first.count {
            chunks.removeFirst()
            offset = 0
            if chunks.isEmpty { chunks = [] } // give back storage grown by a burst
        }
        return sent
    }

    /// Drops every message not yet begun, keeping the rest of one already partly sent: a line cut in half
    /// would corrupt whatever is written after it (the `bye` that usually follows this).
    mutating func discardUnsent() {
        guard let first = chunks.first else { return }
        if offset == 0 {
            chunks = []
            byteCount = 0
        } else {
            chunks = [first]
            byteCount = first.count - offset
        }
    }
}
