import PairsPolling
import PairsTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A connected pair of local stream sockets: `ours` non-blocking with a small send buffer, so a large write
/// fills it; `theirs` the peer that reads. Closed when the test is done with them.
private final class Peers {
    let ours: Int32
    private(set) var theirs: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
            throw SystemCallError(call: "socketpair", errno: errno)
        }
        (ours, theirs) = (fds[0], fds[1])
        _ = fcntl(ours, F_SETFL, O_NONBLOCK)
        _ = fcntl(theirs, F_SETFL, O_NONBLOCK)
        var size: Int32 = 4096
        _ = setsockopt(ours, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit {
        close(ours)
        if theirs >= 0 { close(theirs) }
    }

    /// Everything the peer can read now.
    func readAll() -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(theirs, &buffer, buffer.count)
            guard count > 0 else { return received }
            received += buffer[..<count]
        }
    }

    func closeTheirs() {
        close(theirs)
        theirs = -1
    }
}

/// `count` bytes of numbered lines, so a byte out of place shows.
private func lines(_ tag: String, bytes count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    var number = 0
    while bytes.count < count {
        bytes += Array("\(tag)\(number)\n".utf8)
        number += 1
    }
    return bytes
}

/// Reads and flushes until the queue is empty (bounded), returning everything the peer read.
private func drain(_ queue: inout OutputQueue, _ peers: Peers, alreadyRead: [UInt8] = []) -> [UInt8] {
    var received = alreadyRead
    for _ in 0..<10_000 where !queue.isEmpty {
        received += peers.readAll()
        let flushed = queue.flush(to: peers.ours, maxBytes: 64 * 1024)
        #expect(flushed)
    }
    #expect(queue.isEmpty)
    return received + peers.readAll()
}

/// A queue holding a backlog on `peers`: a message of `count` bytes, more than the socket takes at once,
/// of which the rest waits.
private func backlog(on peers: Peers, bytes count: Int = 100_000) -> (queue: OutputQueue, message: [UInt8]) {
    var queue = OutputQueue()
    let message = lines("a", bytes: count)
    let outcome = queue.write(message, to: peers.ours)
    #expect(outcome == .accepted)
    #expect(queue.byteCount > 0 && queue.byteCount < message.count)
    return (queue, message)
}

@Test("bytes the socket takes at once are sent, and nothing is queued", .ownThread)
func smallWritesGoStraightOut() throws {
    let peers = try Peers()
    var queue = OutputQueue()
    let outcome = queue.write(Array("hello\n".utf8), to: peers.ours)
    #expect(outcome == .accepted)
    #expect(queue.isEmpty && queue.byteCount == 0)
    #expect(peers.readAll() == Array("hello\n".utf8))
}

@Test("what the socket does not take waits, in order, and goes out byte for byte as the peer reads", .ownThread)
func backlogGoesOutInOrder() throws {
    let peers = try Peers()
    var (queue, first) = backlog(on: peers, bytes: 1_000_000)
    let second = lines("b", bytes: 5_000)
    let third = lines("c", bytes: 300)
    let secondOutcome = queue.write(second, to: peers.ours)
    #expect(secondOutcome == .accepted)
    let waiting = queue.byteCount
    let thirdOutcome = third.withUnsafeBytes { queue.write($0, to: peers.ours) }
    #expect(thirdOutcome == .accepted)
    #expect(queue.byteCount == waiting + third.count)
    #expect(drain(&queue, peers) == first + second + third)
}

@Test("bytes from a reused buffer are copied when they must wait, so the buffer can change meanwhile", .ownThread)
func reusedBufferIsCopied() throws {
    let peers = try Peers()
    var queue = OutputQueue()
    var buffer = lines("x", bytes: 200_000)
    let original = buffer
    let outcome = buffer.withUnsafeBytes { queue.write($0, to: peers.ours) }
    #expect(outcome == .accepted)
    #expect(!queue.isEmpty)
    for index in buffer.indices { buffer[index] = UInt8(ascii: "!") }
    #expect(drain(&queue, peers) == original)
}

@Test("a queue at its limit refuses the next message with overflow and keeps what it holds; one byte less fits", .ownThread)
func limitRefusesOverflow() throws {
    let peers = try Peers()
    var (queue, first) = backlog(on: peers)
    let waiting = queue.byteCount
    let next = lines("n", bytes: 100)
    let overLimit = queue.write(next, to: peers.ours, limit: waiting + next.count - 1)
    #expect(overLimit == .overflow)
    #expect(queue.byteCount == waiting)
    let atLimit = queue.write(next, to: peers.ours, limit: waiting + next.count)
    #expect(atLimit == .accepted)
    #expect(drain(&queue, peers) == first + next)
}

@Test("discarding drops the messages not begun and keeps the rest of the one begun, so no line is cut", .ownThread)
func discardKeepsTheMessageBegun() throws {
    let peers = try Peers()
    var (queue, first) = backlog(on: peers)
    let rest = queue.byteCount
    let secondOutcome = queue.write(lines("b", bytes: 1000), to: peers.ours)
    #expect(secondOutcome == .accepted)
    queue.discardUnsent()
    #expect(queue.byteCount == rest)
    #expect(drain(&queue, peers) == first)
    queue.discardUnsent()
    #expect(queue.isEmpty)
}

@Test("a flush sends no more than it is allowed, and the rest waits for the next", .ownThread)
func flushKeepsToItsBudget() throws {
    let peers = try Peers()
    var (queue, first) = backlog(on: peers)
    var received = peers.readAll()
    let before = queue.byteCount
    let flushed = queue.flush(to: peers.ours, maxBytes: 10)
    #expect(flushed)
    #expect(queue.byteCount == before - 10)
    received += peers.readAll()
    #expect(drain(&queue, peers, alreadyRead: received) == first)
}

@Test("a socket whose peer is gone fails the write and the flush, and queues nothing more", .ownThread)
func brokenSocketFailsTheQueue() throws {
    let peers = try Peers()
    var (queue, _) = backlog(on: peers)
    peers.closeTheirs()
    let flushed = queue.flush(to: peers.ours, maxBytes: 64 * 1024)
    #expect(!flushed)
    var empty = OutputQueue()
    let lateOutcome = empty.write(Array("late\n".utf8), to: peers.ours)
    #expect(lateOutcome == .failed)
    #expect(empty.isEmpty)
}
