import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The signals a full-screen terminal program answers, each delivered to a Dispatch source on the
/// program's queue instead of its default action: a stop (Ctrl-C, SIGTERM, SIGHUP when the terminal goes
/// away), a suspension (Ctrl-Z: give the shell its screen back, take it again on `fg`), a new window size.
/// SIGPIPE is ignored: a closed connection is an error to report, not a reason to die.
///
/// Keep the returned sources for as long as the program runs.
enum TerminalSignals {
    static func install(on queue: DispatchQueue, stop: @escaping () -> Void,
                        suspend: (leave: () -> Void, resume: () -> Void)?, resize: (() -> Void)?) -> [DispatchSourceSignal] {
        var sources: [DispatchSourceSignal] = []
        func handle(_ number: Int32, _ handler: @escaping () -> Void) {
            signal(number, SIG_IGN) // delivered to the source instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: handler)
            source.activate()
            sources.append(source)
        }
        for number in [SIGINT, SIGTERM, SIGHUP] { handle(number, stop) }
        if let suspend {
            handle(SIGTSTP) {
                suspend.leave()
                kill(getpid(), SIGSTOP) // returns once the shell continues the process
                suspend.resume()
            }
        }
        if let resize { handle(SIGWINCH, resize) }
        signal(SIGPIPE, SIG_IGN)
        return sources
    }
}
