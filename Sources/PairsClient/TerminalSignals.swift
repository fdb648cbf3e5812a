import Dispatch
import PairsPolling
#if canImport(Glibc)
import Glibc
#endif

/// The signals a full-screen terminal program answers, each run on the program's queue instead of its
/// default action: a stop (Ctrl-C, SIGTERM, SIGHUP when the terminal goes away), a suspension (Ctrl-Z:
/// give the shell its screen back, take it again on `fg`), a new window size. SIGPIPE is ignored: a
/// closed connection is an error to report, not a reason to die.
enum TerminalSignals {
    /// What to hold (`SignalWatcher`) before `install`.
    static let all: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGWINCH]

    static func install(_ signals: SignalWatcher, on queue: DispatchQueue, stop: @escaping () -> Void,
                        suspend: (leave: () -> Void, resume: () -> Void), resize: @escaping () -> Void) {
        signals.start(on: queue) { number in
            switch number {
            case SIGTSTP:
                suspend.leave()
                kill(getpid(), SIGSTOP) // returns once the shell continues the process
                suspend.resume()
            case SIGWINCH:
                resize()
            default:
                stop()
            }
        }
        signal(SIGPIPE, SIG_IGN)
    }
}
