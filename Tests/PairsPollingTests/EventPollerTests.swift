import Dispatch
import PairsPolling
import Synchronization
import PairsTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Two connected local stream sockets, for a test that closes them itself.
private func rawSocketPair() throws -> (ours: Int32, theirs: Int32) {
    var fds: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
        throw SystemCallError(call: "socketpair", errno: errno)
    }
    return (fds[0], fds[1])
}

/// A connected pair of local stream sockets, closed when the test is done with them.
private final class SocketPair {
    let ours: Int32
    let theirs: Int32

    init() throws {
        (ours, theirs) = try rawSocketPair()
        _ = fcntl(ours, F_SETFL, O_NONBLOCK)
    }

    deinit {
        close(ours)
        close(theirs)
    }

    func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBytes { write(theirs, $0.baseAddress, text.utf8.count) }
    }

    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(ours, &buffer, buffer.count) > 0 {}
    }
}

/// `count` socket pairs with input waiting, watched by `poller` under tokens 0, 1, 2, ...
private func readySockets(_ count: Int, in poller: EventPoller) throws -> [SocketPair] {
    // As the server does at start: a default soft limit of 1,024 is fewer than a test with more ready
    // sockets than one harvest holds needs.
    FileLimit.raise()
    let pairs = try (0..<count).map { _ in try SocketPair() }
    for (index, pair) in pairs.enumerated() {
        #expect(poller.add(pair.ours, token: UInt64(index), interest: EventPoller.readable))
        pair.send("x\n")
    }
    return pairs
}

/// Everything one harvest reported, by token.
private func harvestAll(_ poller: EventPoller) -> [UInt64: UInt32] {
    var seen: [UInt64: UInt32] = [:]
    _ = poller.harvest { token, events in seen[token] = events }
    return seen
}

@Suite("The epoll set behind the server's and the load client's event loops", .ownThread)
struct EventPollerTests {
    @Test("an idle socket is not reported, and one with input is reported readable under its token")
    func reportsInputUnderItsToken() throws {
        let poller = try EventPoller()
        let pair = try SocketPair()
        #expect(poller.add(pair.ours, token: 42, interest: EventPoller.readable))
        #expect(harvestAll(poller).isEmpty)

        pair.send("flip 3\n")
        let seen = harvestAll(poller)
        #expect(seen.keys.sorted() == [42])
        #expect((seen[42] ?? 0) & EventPoller.readable != 0)
    }

    @Test("input left unread is reported again in the next harvest (level-triggered), and not once it is read")
    func unreadInputIsReportedAgain() throws {
        let poller = try EventPoller()
        let pair = try SocketPair()
        #expect(poller.add(pair.ours, token: 7, interest: EventPoller.readable))
        pair.send("hello\n")
        #expect(harvestAll(poller).keys.sorted() == [7])
        #expect(harvestAll(poller).keys.sorted() == [7])
        pair.drain()
        #expect(harvestAll(poller).isEmpty)
    }

    @Test("room to write is reported only while it is asked for")
    func writableOnlyWhileAskedFor() throws {
        let poller = try EventPoller()
        let pair = try SocketPair()
        #expect(poller.add(pair.ours, token: 1, interest: EventPoller.readable))
        #expect(harvestAll(poller).isEmpty)
        #expect(poller.modify(pair.ours, token: 1, interest: EventPoller.readable | EventPoller.writable))
        #expect((harvestAll(poller)[1] ?? 0) & EventPoller.writable != 0)
        #expect(poller.modify(pair.ours, token: 1, interest: EventPoller.readable))
        #expect(harvestAll(poller).isEmpty)
    }

    @Test("a peer that hangs up is reported, so its socket can be closed")
    func hangUpIsReported() throws {
        let poller = try EventPoller()
        let (ours, theirs) = try rawSocketPair()
        defer { close(ours) }
        #expect(poller.add(ours, token: 5, interest: EventPoller.readable))
        close(theirs)
        let events = harvestAll(poller)[5] ?? 0
        #expect(events & (EventPoller.readable | EventPoller.failed) != 0)
    }

    @Test("more ready sockets than one harvest holds are all reported by the harvests that follow")
    func moreThanOneBatchIsReportedInFull() throws {
        let poller = try EventPoller()
        let total = EventPoller.maxEvents + 37
        let pairs = try readySockets(total, in: poller)
        var reported = Set<UInt64>()
        var counts: [Int] = []
        for _ in 0..<4 {
            let count = poller.harvest { token, _ in
                reported.insert(token)
                pairs[Int(token)].drain() // handled, so not reported again
            }
            counts.append(count)
            if count == 0 { break }
        }
        #expect(counts == [EventPoller.maxEvents, 37, 0])
        #expect(reported == Set((0..<total).map(UInt64.init)))
    }

    @Test("harvesting until quiet says when it stopped at its batch limit with sockets still ready")
    func harvestUntilQuietReportsWhatIsLeft() throws {
        let poller = try EventPoller()
        let total = EventPoller.maxEvents + 37
        let pairs = try readySockets(total, in: poller)
        var reported = Set<UInt64>()
        var batches = 0
        let handle = { (token: UInt64, _: UInt32) in
            reported.insert(token)
            pairs[Int(token)].drain()
        }
        #expect(!poller.harvestUntilQuiet(maxBatches: 1, beforeEachBatch: { batches += 1 }, handle))
        #expect(reported.count == EventPoller.maxEvents)
        #expect(poller.harvestUntilQuiet(maxBatches: 4, beforeEachBatch: { batches += 1 }, handle))
        #expect(reported == Set((0..<total).map(UInt64.init)))
        #expect(batches == 2) // one full batch, then the rest; the empty harvest that ends it is no batch
    }

    @Test("afterEachBatch runs once each batch has been handled, before the next is collected")
    func afterEachBatchFollowsItsBatch() throws {
        let poller = try EventPoller()
        let total = EventPoller.maxEvents + 37
        let pairs = try readySockets(total, in: poller)
        var order: [String] = []
        let handle = { (token: UInt64, _: UInt32) in
            if order.last != "socket" { order.append("socket") }
            pairs[Int(token)].drain()
        }
        #expect(poller.harvestUntilQuiet(maxBatches: 4, beforeEachBatch: { order.append("before") },
                                         afterEachBatch: { order.append("after") }, handle))
        #expect(order == ["before", "socket", "after", "before", "socket", "after"])
    }

    @Test("a waiting harvest comes back empty when nothing arrives, and with the input that arrives while it waits")
    func waitingHarvestReportsInputThatArrivesDuringTheWait() throws {
        let poller = try EventPoller()
        let pair = try SocketPair()
        #expect(poller.add(pair.ours, token: 3, interest: EventPoller.readable))
        #expect(poller.harvest(waitingUpTo: 1_000) { _, _ in } == 0)

        // Sent only after the wait has begun, so a harvest that did not wait would find nothing.
        let theirs = pair.theirs
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { _ = write(theirs, "x\n", 2) }
        var seen: [UInt64] = []
        let count = poller.harvest(waitingUpTo: 10_000_000) { token, _ in seen.append(token) }
        #expect(count == 1)
        #expect(seen == [3])
    }

    @Test("lingering takes input that keeps arriving after quiet spells, but only as many times as allowed")
    func lingeringStopsAtItsLimit() throws {
        let poller = try EventPoller()
        let pair = try SocketPair()
        #expect(poller.add(pair.ours, token: 8, interest: EventPoller.readable))
        // A byte every millisecond for up to 3 s: quiet spells far shorter than the 10 s wait, so only the
        // limit on waits can end the call before the writer gives up.
        let writer = SteadyWriter(fd: pair.theirs, everyMicroseconds: 1_000, times: 3_000)
        defer {
            writer.stop()
            withExtendedLifetime(pair) {} // the writer's descriptor stays open until it has stopped
        }
        var handled = 0
        let isQuiet = poller.harvestUntilQuiet(maxBatches: 4, lingering: .init(microseconds: 10_000_000, times: 3)) {
            _, _ in
            handled += 1
            pair.drain()
        }
        #expect(isQuiet)
        #expect(handled >= 3) // each wait was ended by a byte, handled in the same call
        #expect(handled < 100) // and the call did not go on taking the writer's bytes
    }

    @Test("a removed socket is no longer reported, even while another descriptor keeps it open")
    func removedSocketIsForgotten() throws {
        let poller = try EventPoller()
        let (ours, theirs) = try rawSocketPair()
        defer { close(theirs) }
        #expect(poller.add(ours, token: 9, interest: EventPoller.readable))
        _ = write(theirs, "x\n", 2)
        // As a child being spawned on another thread holds a copy of every descriptor for a moment: closing
        // ours alone would leave the socket in the set, reported under a token that may be reused by then.
        let copy = dup(ours)
        defer { close(copy) }
        #expect(poller.remove(ours))
        close(ours)
        #expect(harvestAll(poller).isEmpty)
    }
}

/// Writes one byte to `fd` at a steady interval from another thread, until stopped or `times` are written.
private final class SteadyWriter: Sendable {
    private let isStopped = Atomic(false)
    private let done = DispatchSemaphore(value: 0)

    init(fd: Int32, everyMicroseconds interval: UInt32, times: Int) {
        DispatchQueue.global().async { [self] in
            for _ in 0..<times where !isStopped.load(ordering: .relaxed) {
                _ = write(fd, "x", 1)
                usleep(interval)
            }
            done.signal()
        }
    }

    /// Stops writing and waits for the thread to finish with the descriptor.
    func stop() {
        isStopped.store(true, ordering: .relaxed)
        done.wait()
    }
}
