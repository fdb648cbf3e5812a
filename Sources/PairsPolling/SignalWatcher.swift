import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The signals a program answers (stop, hang-up, Ctrl-Z, a new window size, a log to reopen), each run
/// on a queue of the program's choosing, with none lost: the programs' one way to take a signal.
///
/// Dispatch's signal sources lose signals on Linux: the handler that feeds their signalfd is installed
/// only once Dispatch's manager thread gets round to it, and a signal that comes first, ignored with
/// `SIG_IGN` as they require, is thrown away. A busy machine widens the gap: a script that stopped a
/// server as soon as it said it listened lost its SIGTERM most of the time, and the server ran on.
///
/// So the watcher takes the classic self-pipe route. `init` installs a handler at once, on the calling
/// thread, before the program starts its work; whichever thread the kernel picks runs it, and all it does
/// is write the signal's number into a pipe (one `write`, which is safe in a handler). `start` runs a
/// thread of its own that reads the pipe and hands each signal to the queue; a signal that came between
/// the two waits in the pipe.
public final class SignalWatcher: @unchecked Sendable {
    /// The signals answered.
    public let signals: [Int32]
    private let readEnd: Int32
    private var isStarted = false

    /// Takes `signals` from now on, in place of their default actions. One watcher per process.
    public init(_ signals: [Int32]) {
        precondition(signalPipeWriteEnd < 0, "one signal watcher per process")
        var ends: [Int32] = [-1, -1]
        let made = pipe(&ends)
        precondition(made == 0, "cannot make the pipe that carries signals: \(String(cString: strerror(errno)))")
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A full pipe drops a signal rather than block the handler; 64 KiB of them are not waiting.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        readEnd = ends[0]
        signalPipeWriteEnd = ends[1]
        self.signals = signals
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forwardSignal
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// Answers the signals from now on: `handler` runs on `queue` with each one's number, in the order they
    /// came. Call once; the reading thread lasts as long as the process.
    public func start(on queue: DispatchQueue, _ handler: @escaping (Int32) -> Void) {
        precondition(!isStarted, "a signal watcher is started once")
        isStarted = true
        // The handler runs on `queue` alone, which confines whatever it holds.
        let confined = Confined(handler)
        let reading = Reading(from: readEnd) { number in queue.async { confined.handler(number) } }
        let context = Unmanaged.passRetained(reading).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            Unmanaged<Reading>.fromOpaque(context!).takeRetainedValue().run()
        }, context)
        precondition(created == 0, "cannot start the thread that answers signals: \(String(cString: strerror(created)))")
        pthread_detach(thread)
    }

    /// The program's handler, only ever called on its queue.
    private final class Confined: @unchecked Sendable {
        let handler: (Int32) -> Void
        init(_ handler: @escaping (Int32) -> Void) { self.handler = handler }
    }

    /// What the reading thread needs: the pipe, and where each signal goes.
    private final class Reading: @unchecked Sendable {
        let descriptor: Int32
        let deliver: @Sendable (Int32) -> Void

        init(from descriptor: Int32, deliver: @escaping @Sendable (Int32) -> Void) {
            self.descriptor = descriptor
            self.deliver = deliver
        }

        func run() -> Never {
            var numbers = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(descriptor, &numbers, numbers.count)
                guard count > 0 else { continue } // EINTR; the write end never closes
                for number in numbers[..<count] { deliver(Int32(number)) }
            }
        }
    }
}

/// Where the handler writes: set once, before the handler is installed, and never changed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The handler: the signal's number into the pipe, and nothing else (only async-signal-safe calls).
private func forwardSignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}
