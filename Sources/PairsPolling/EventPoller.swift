import CEpoll
#if canImport(Glibc)
import Glibc
#endif

/// One level-triggered `epoll` instance holding many sockets, harvested in batches.
///
/// Why not one `DispatchSource` per socket: on Linux every Dispatch fd source is registered one-shot with
/// Dispatch's manager thread, so each event costs a wakeup of that thread, a hand-off to a worker, and,
/// after the handler, another trip through the manager (an eventfd write and an `epoll_ctl`) to re-arm the
/// source. With thousands of busy sockets on two cores those hand-offs are most of the work (measured:
/// README.md, "Benchmarks"). Here the sockets live in one epoll instance and the owner watches
/// only its descriptor (`EventLoop`, with a thread that waits for it): one wakeup, then `harvest` collects up to
/// `maxEvents` ready sockets with a single non-blocking `epoll_wait`, so the cost of a wakeup is shared by
/// every socket that became ready meanwhile. Dispatch still drives everything: the handler runs on the
/// owner's queue, between its timers, and never waits longer than its owner allows (`harvest(waitingUpTo:_:)`).
///
/// Level-triggered, so a socket that still has bytes after one read is simply reported again in the next
/// batch; no socket has to be drained in one go, and none can be forgotten.
///
/// Not thread-safe: its owner calls it from one queue.
public final class EventPoller {
    /// Ready sockets collected per `epoll_wait`: enough to amortise a wakeup over many sockets, small enough
    /// that timers and the other sources on the owner's queue get their turn between batches.
    public static let maxEvents = 512

    /// The epoll descriptor, to watch for readiness.
    public let descriptor: Int32
    private let events: UnsafeMutablePointer<epoll_event>

    public static let readable = EPOLLIN.rawValue
    public static let writable = EPOLLOUT.rawValue
    /// Errors and hang-ups are always reported, whether asked for or not.
    public static let failed = EPOLLERR.rawValue | EPOLLHUP.rawValue

    /// Creates the epoll instance; fails with `errno` when the process cannot have one.
    public init() throws(SystemCallError) {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw SystemCallError(call: "epoll_create1", errno: errno) }
        descriptor = fd
        events = .allocate(capacity: Self.maxEvents)
    }

    deinit {
        events.deallocate()
        close(descriptor)
    }

    /// Starts watching `fd` for `interest` (`readable`, `writable` or both), reporting it with `token`.
    public func add(_ fd: Int32, token: UInt64, interest: UInt32) -> Bool {
        control(EPOLL_CTL_ADD, fd, token: token, interest: interest)
    }

    /// Changes what `fd` is watched for.
    public func modify(_ fd: Int32, token: UInt64, interest: UInt32) -> Bool {
        control(EPOLL_CTL_MOD, fd, token: token, interest: interest)
    }

    /// Stops watching `fd`. Call it before closing a socket: closing takes a socket out of the set only once
    /// every descriptor of it is closed, and a child process being spawned holds copies of every descriptor
    /// for a moment, during which the closed socket would still be reported, by a token that may already
    /// name another connection.
    @discardableResult
    public func remove(_ fd: Int32) -> Bool {
        var event = epoll_event() // ignored by EPOLL_CTL_DEL, but kernels before 2.6.9 required one
        return epoll_ctl(descriptor, EPOLL_CTL_DEL, fd, &event) == 0
    }

    /// Collects the sockets ready now, without waiting, and calls `body` with each one's token and events.
    /// Returns how many there were: `maxEvents` means more may be waiting.
    @inline(__always)
    public func harvest(_ body: (_ token: UInt64, _ events: UInt32) -> Void) -> Int {
        collect(waitingUpTo: nil, beforeHandling: {}, afterHandling: {}, body)
    }

    /// Like `harvest`, but when no socket is ready yet, sleeps in the kernel up to `microseconds` for one.
    /// Returns 0 when none came in time (or a signal cut the wait short). The thread that waits here is the
    /// one the kernel wakes, so an owner expecting more traffic any moment can take it without a hand-off
    /// between threads; the wait holds the owner's queue, so keep it short.
    public func harvest(waitingUpTo microseconds: Int, _ body: (_ token: UInt64, _ events: UInt32) -> Void) -> Int {
        collect(waitingUpTo: microseconds, beforeHandling: {}, afterHandling: {}, body)
    }

    /// One `epoll_wait`; when it found sockets, `beforeHandling` once, `body` for each, then `afterHandling`.
    @inline(__always)
    private func collect(
        waitingUpTo microseconds: Int?,
        beforeHandling: () -> Void,
        afterHandling: () -> Void,
        _ body: (_ token: UInt64, _ events: UInt32) -> Void
    ) -> Int {
        var count: Int32
        if let microseconds {
            var timeout = timespec(tv_sec: microseconds / 1_000_000, tv_nsec: (microseconds % 1_000_000) * 1_000)
            count = epoll_pwait2(descriptor, events, Int32(Self.maxEvents), &timeout, nil)
        } else {
            repeat {
                count = epoll_wait(descriptor, events, Int32(Self.maxEvents), 0)
            } while count < 0 && errno == EINTR
        }
        guard count > 0 else { return 0 }
        beforeHandling()
        for index in 0..<Int(count) {
            body(events[index].data.u64, events[index].events)
        }
        afterHandling()
        return Int(count)
    }

    /// How long `harvestUntilQuiet` waits for more input once every socket is quiet, and how many times.
    public struct Linger: Sendable, Hashable {
        /// The longest one wait lasts, asleep in the kernel.
        public var microseconds: Int
        /// Waits per call at most: while the caller waits, nothing else runs on its queue.
        public var times: Int

        public init(microseconds: Int, times: Int) {
            self.microseconds = microseconds
            self.times = times
        }

        /// Return as soon as every socket is quiet.
        public static let none = Linger(microseconds: 0, times: 0)
    }

    /// Harvests batch after batch, calling `beforeEachBatch` then `body` for every ready socket, until a
    /// harvest comes back empty or `maxBatches` have been taken. Sockets that became ready while a batch was
    /// handled are collected at once: under load there nearly always are some, and another wakeup of the
    /// owner costs more than an empty `epoll_wait`. `beforeEachBatch` runs once a batch has been collected
    /// and before it is handled (never for an empty one), so a clock read there dates the batch's arrival;
    /// `afterEachBatch` once it has been handled, before any wait for the next.
    ///
    /// Once quiet, it waits up to `linger.microseconds` for the next socket (at most `linger.times` times),
    /// and if one comes, harvests again as before, `maxBatches` more at most. Returns false when it stopped
    /// at `maxBatches` with sockets possibly still ready; true when quiet.
    ///
    /// An owner woken whenever `descriptor` is readable (`EventLoop`) can simply return either way: the
    /// descriptor stays readable while any socket is ready, so Dispatch calls again, after the owner's other
    /// sources. (Coming back through `queue.async` instead was measured to starve those sources.)
    @discardableResult
    public func harvestUntilQuiet(
        maxBatches: Int,
        lingering linger: Linger = .none,
        beforeEachBatch: () -> Void = {},
        afterEachBatch: () -> Void = {},
        _ body: (_ token: UInt64, _ events: UInt32) -> Void
    ) -> Bool {
        var lingers = 0
        while true {
            var isQuiet = false
            for _ in 0..<maxBatches {
                if collect(waitingUpTo: nil, beforeHandling: beforeEachBatch, afterHandling: afterEachBatch, body) == 0 {
                    isQuiet = true
                    break
                }
            }
            guard isQuiet else { return false }
            guard lingers < linger.times else { return true }
            lingers += 1
            guard collect(waitingUpTo: linger.microseconds, beforeHandling: beforeEachBatch, afterHandling: afterEachBatch, body) > 0 else {
                return true
            }
        }
    }

    private func control(_ operation: Int32, _ fd: Int32, token: UInt64, interest: UInt32) -> Bool {
        var event = epoll_event()
        event.events = interest
        event.data.u64 = token
        return epoll_ctl(descriptor, operation, fd, &event) == 0
    }
}

/// A system call that failed, and its `errno`.
public struct SystemCallError: Error, Sendable, Hashable {
    public let call: String
    public let errno: Int32

    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }
}
