import CEpoll
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own that sleeps until an epoll set has a ready socket, then runs the owner's handler on
/// the owner's serial queue with `queue.sync`, which runs it on this very thread when the queue is free.
///
/// Why not a Dispatch read source on the epoll descriptor: on Linux such a source is watched by Dispatch's
/// manager thread, which, when the descriptor becomes readable, wakes a worker thread to run the handler:
/// two threads woken for every batch of a quiet moment. Here the kernel wakes the thread that runs the
/// handler, as a C event loop's `epoll_wait` does, and the queue's confinement is kept: the handler runs
/// on the queue (`dispatchPrecondition(.onQueue)` holds), between its timers and other work.
final class ReadinessWaiter: Sendable {
    /// The epoll set this thread sleeps on: the watched descriptor and `wake`.
    private let outer: Int32
    /// An eventfd written by `stop`, so that the thread wakes to end.
    private let wake: Int32
    private let stopped = Atomic<Bool>(false)

    /// Starts a thread that calls `ready` on `queue` whenever `descriptor` (an epoll set) is readable, until
    /// `stop`. `ready` must take what is ready (or the thread calls it again at once).
    init(watching descriptor: Int32, queue: DispatchQueue, ready: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let outer = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard outer >= 0 else { throw SystemCallError(call: "epoll_create1", errno: errno) }
        let wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wake >= 0 else {
            close(outer)
            throw SystemCallError(call: "eventfd", errno: errno)
        }
        for (fd, token) in [(descriptor, UInt64(0)), (wake, UInt64(1))] {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = token
            guard epoll_ctl(outer, EPOLL_CTL_ADD, fd, &event) == 0 else {
                let code = errno
                close(outer)
                close(wake)
                throw SystemCallError(call: "epoll_ctl", errno: code)
            }
        }
        self.outer = outer
        self.wake = wake
        let body = Body(waiter: self, queue: queue, ready: ready)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(body).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            close(outer)
            close(wake)
            throw SystemCallError(call: "pthread_create", errno: created)
        }
        pthread_detach(thread)
    }

    deinit {
        close(outer)
        close(wake)
    }

    /// Ends the thread: it calls `ready` no more once it sees this, and lets go of what it holds. Returns at
    /// once (the thread may be waiting for the queue this is called on).
    func stop() {
        stopped.store(true, ordering: .releasing)
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
    }

    /// What the thread holds: the waiter (its descriptors stay open until the thread is done) and the handler.
    private final class Body: @unchecked Sendable {
        // @unchecked: set once, then read by the thread only.
        let waiter: ReadinessWaiter
        let queue: DispatchQueue
        let ready: @Sendable () -> Void

        init(waiter: ReadinessWaiter, queue: DispatchQueue, ready: @escaping @Sendable () -> Void) {
            self.waiter = waiter
            self.queue = queue
            self.ready = ready
        }

        func run() {
            var event = epoll_event()
            while !waiter.stopped.load(ordering: .acquiring) {
                let count = epoll_wait(waiter.outer, &event, 1, -1)
                guard count > 0 else { continue } // EINTR
                guard !waiter.stopped.load(ordering: .acquiring) else { break }
                queue.sync { [ready, waiter] in
                    // `stop` may have been called on the queue while this waited for it.
                    if !waiter.stopped.load(ordering: .acquiring) { ready() }
                }
            }
        }
    }
}
