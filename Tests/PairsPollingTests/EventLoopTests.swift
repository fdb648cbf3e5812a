import Dispatch
import PairsPolling
import Synchronization
import PairsTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What an event loop's handlers saw, in order, recorded on the loop's queue.
private final class Recorder: @unchecked Sendable {
    let queue: DispatchQueue
    /// "batch", "socket TOKEN", "after", as the handlers ran.
    private(set) var calls: [String] = []
    let handled = DispatchSemaphore(value: 0)

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func record(_ call: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        calls.append(call)
    }
}

/// A connected pair of local stream sockets; the loop reads `ours`. Closed with the object.
private final class Pair: Sendable {
    let ours: Int32
    let theirs: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0 else {
            throw SystemCallError(call: "socketpair", errno: errno)
        }
        (ours, theirs) = (fds[0], fds[1])
    }

    deinit {
        close(ours)
        close(theirs)
    }

    func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(ours, &buffer, buffer.count) > 0 {}
    }
}

@Suite("The event loop of the server and the load client: one waiting thread over the epoll set, running the loop on its queue", .ownThread)
struct EventLoopTests {
    @Test("a ready socket is handled on the loop's queue under its token, between the batch hook and the after hook")
    func handlesReadySocketsOnItsQueue() throws {
        let queue = DispatchQueue(label: "loop test")
        let loop = try EventLoop(queue: queue)
        let pair = try Pair()
        #expect(loop.poller.add(pair.ours, token: 11, interest: EventPoller.readable))
        let recorder = Recorder(queue: queue)
        try queue.sync {
            try loop.start(policy: EventLoop.Policy(maxBatchesPerWakeup: 4, linger: .none),
                       beforeEachBatch: { recorder.record("batch") },
                       handle: { token, events in
                           recorder.record("socket \(token) \(events & EventPoller.readable != 0 ? "readable" : "?")")
                           pair.drain()
                       },
                       afterHarvest: {
                           recorder.record("after")
                           recorder.handled.signal()
                       })
        }
        _ = write(pair.theirs, "x\n", 2)
        #expect(recorder.handled.wait(timeout: .now() + 10) == .success)
        queue.sync { #expect(recorder.calls.prefix(3) == ["batch", "socket 11 readable", "after"]) }
        queue.sync { loop.cancel() }
    }

    @Test("once cancelled, the loop handles nothing more and lets go of what its handlers hold")
    func cancelReleasesTheHandlers() throws {
        let queue = DispatchQueue(label: "loop test")
        let pair = try Pair()
        weak var released: Recorder?
        let calls = Atomic(0)
        do {
            let loop = try EventLoop(queue: queue)
            #expect(loop.poller.add(pair.ours, token: 1, interest: EventPoller.readable))
            let recorder = Recorder(queue: queue)
            released = recorder
            try queue.sync {
                try loop.start(policy: EventLoop.Policy(maxBatchesPerWakeup: 1, linger: .none),
                           handle: { _, _ in
                               calls.add(1, ordering: .relaxed)
                               recorder.record("socket")
                           })
                loop.cancel()
            }
        }
        // Left unread: a loop still watching would report it again and again.
        _ = write(pair.theirs, "x\n", 2)
        for _ in 0..<1000 where released != nil { usleep(1000) }
        #expect(released == nil)
        queue.sync {}
        #expect(calls.load(ordering: .relaxed) == 0)
    }

    @Test("handleReadySockets reads what has arrived before the caller goes on, though the waiting thread has not run the loop")
    func handleReadySocketsRunsAheadOfTheSource() throws {
        let queue = DispatchQueue(label: "loop test")
        let loop = try EventLoop(queue: queue)
        let pair = try Pair()
        #expect(loop.poller.add(pair.ours, token: 7, interest: EventPoller.readable))
        let recorder = Recorder(queue: queue)
        try queue.sync {
            try loop.start(policy: EventLoop.Policy(maxBatchesPerWakeup: 4, linger: .none),
                       handle: { token, _ in
                           recorder.record("socket \(token)")
                           pair.drain()
                       },
                       afterHarvest: { recorder.record("after") })
            // Still on the queue, so the waiting thread cannot have run the loop: only the call itself can read it.
            _ = write(pair.theirs, "x\n", 2)
            loop.handleReadySockets()
            #expect(recorder.calls == ["socket 7"])
            // Nothing is ready any more: a second call handles nothing.
            loop.handleReadySockets()
            #expect(recorder.calls == ["socket 7"])
            loop.cancel()
            _ = write(pair.theirs, "y\n", 2)
            loop.handleReadySockets()
            #expect(recorder.calls == ["socket 7"], "a cancelled loop handles nothing")
        }
    }
}
