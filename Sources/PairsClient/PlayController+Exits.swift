import PairsPolling
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The ways out of `pairs play`, and the signals.
///
/// Outside a game every way out acts at once. During one, `/quit`, `/leave`, Ctrl-C and Ctrl-D ask first
/// (when a person types the input: a script's `/quit` means it), since leaving forfeits the game; Ctrl-C
/// again or `y` confirms. A hang-up (a closed terminal, a dropped SSH session) does not forfeit: it drops
/// the connection like a network failure, the server holds the seat for its grace period, and running the
/// same command again takes the seat back (`SavedSeats`).
extension PlayController {
    /// The signals `pairs play` answers on `display`: hold them (`SignalWatcher`) before anything else.
    /// Ctrl-Z and a new window size matter only to the full screen; in plain output they keep their
    /// default actions.
    public static func signals(for display: Display) -> [Int32] {
        if case .terminal = display { [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGWINCH] } else { [SIGINT, SIGTERM, SIGHUP] }
    }

    func installSignalHandlers() {
        signals.start(on: queue) { [unowned self] number in
            switch number {
            case SIGINT: requestQuit(status: Self.interruptedStatus, bySignal: true)
            // Asked to stop: leave as /quit does, so the result is said, but at once if asked again.
            case SIGTERM: model.isQuitting ? leaveAndExit(status: Self.terminatedStatus) : quit(status: Self.terminatedStatus)
            case SIGHUP: hangUp()
            case SIGTSTP:
                // Ctrl-Z: give the shell its normal screen back while stopped, and take it again on `fg`.
                screen.restore()
                kill(getpid(), SIGSTOP) // returns once the shell continues the process
                screen.enter()
                showNotice()
            case SIGWINCH:
                let size = TerminalScreen.size()
                renderer.rows = size.rows
                renderer.columns = size.columns
                showNotice()
            default:
                break
            }
        }
        signal(SIGPIPE, SIG_IGN)
    }

    /// `/quit` or Ctrl-C: during a game, ask first (a second Ctrl-C while asking is the yes); otherwise
    /// leave and exit with `status`.
    func requestQuit(status: Int32, bySignal: Bool = false) {
        if model.confirmation == .quit, bySignal { return confirmed(.quit, status: status) }
        // Ctrl-C while already on the way out (waiting for the server's last words) means now.
        if model.isQuitting, bySignal { return leaveAndExit(status: status) }
        guard model.isInGame, asksBeforeForfeiting else {
            return bySignal ? leaveAndExit(status: status) : quit()
        }
        model.ask(.quit)
        showNotice()
    }

    /// The player said yes to `confirmation`.
    func confirmed(_ confirmation: ExitConfirmation, status: Int32) {
        model.dismissConfirmation()
        switch confirmation {
        // Ctrl-C as the yes leaves as /quit does, waiting (`ClientSession.quitTimeoutMilliseconds` at
        // most) for the state that ends the game, so the result is said on the normal screen either way.
        case .quit: quit(status: status)
        case .leave:
            session.send(.leave)
            showNotice()
        }
    }

    /// Standard input ended. On a terminal that is Ctrl-D, which means `/quit` (and more input may follow);
    /// a script's input ran out for good, and then a player is done while a spectator keeps watching.
    func endOfInput() {
        guard asksBeforeForfeiting else {
            inputSource?.cancel()
            inputSource = nil
            if options.watch == nil || model.seat != nil { quit() }
            return
        }
        // Asked already: only y or Ctrl-C confirms, so a terminal that went away (every read an end) cannot
        // forfeit before its hang-up signal is handled.
        guard model.confirmation == nil else { return }
        requestQuit(status: 0)
    }

    /// Leaves the room (so the opponent is not kept waiting for the grace period), forgets the seat, and
    /// says goodbye; the program ends once the server has closed, with `status`.
    func quit(status: Int32 = 0) {
        quitStatus = status
        model.quitting()
        if model.room != nil { session.send(.leave) }
        forgetHeldSeat()
        session.quit()
    }

    /// Gives up the seat if there is one, puts the terminal back, and exits at once with `status`.
    func leaveAndExit(status: Int32) {
        model.quitting()
        if model.room != nil { session.send(.leave) }
        forgetHeldSeat()
        session.close()
        finish(.quit, status: status)
    }

    /// SIGHUP: the terminal is gone. The connection is dropped without a word, so the server holds the seat
    /// for its grace period, and the saved token lets the next run take it back.
    func hangUp() {
        session.close()
        finish(.quit, status: Self.hungUpStatus)
    }
}
