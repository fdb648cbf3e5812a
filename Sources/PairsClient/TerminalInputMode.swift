#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// How the terminal on standard input treats what is typed, changed for a while and put back on every way
/// out: nothing shown while a password is typed, or each key at once for a replay's keys.
///
/// The settings found before the first change are kept and `restore()` puts them back; the programs call
/// it on every way out (a normal exit, Ctrl-C, SIGTERM, an error), and it does nothing when nothing was
/// changed, so calling it twice is safe.
public enum TerminalInputMode: Sendable {
    /// Lines as usual (with the terminal's editing keys), but nothing typed is shown.
    case hidden
    /// Each key as it is pressed, without Enter, and nothing shown; Ctrl-C still interrupts.
    case keys

    /// The settings to go back to, once something was changed.
    private static let saved = Mutex<termios?>(nil)

    /// Switches the terminal on standard input to this mode; false when standard input is no terminal.
    @discardableResult
    public func enter() -> Bool {
        Self.saved.withLock { saved in
            var current = termios()
            guard isatty(0) == 1, tcgetattr(0, &current) == 0 else { return false }
            if saved == nil { saved = current }
            var changed = saved ?? current
            switch self {
            case .hidden:
                changed.c_lflag &= ~tcflag_t(ECHO | ECHONL)
            case .keys:
                changed.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON)
                // Every key is a whole read: at least one byte, no waiting for more.
                withUnsafeMutableBytes(of: &changed.c_cc) { cc in
                    cc[Int(VMIN)] = 1
                    cc[Int(VTIME)] = 0
                }
            }
            return tcsetattr(0, TCSANOW, &changed) == 0
        }
    }

    /// Puts back the settings the terminal had before the first change, if any was made.
    public static func restore() {
        saved.withLock { saved in
            guard var original = saved else { return }
            _ = tcsetattr(0, TCSANOW, &original)
            saved = nil
        }
    }
}
