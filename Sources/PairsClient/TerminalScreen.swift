#if canImport(Glibc)
import Glibc
#endif

/// The terminal `pairs play` draws on: the alternate screen, redrawn in place, with the input prompt on
/// the line below the picture.
///
/// Input stays in the terminal's own line mode (the player types a line and presses Enter), so nothing
/// about the terminal's settings changes and there is nothing to undo but the screen: `restore()` leaves
/// the alternate screen and resets the colors, and is called on every way out, Ctrl-C included.
///
/// Redraws that happen while the player may be typing (a state arrived, the clock ticked) save the cursor,
/// repaint the picture above the prompt and put the cursor back, so a half-typed line is left alone.
///
/// Confined to the queue of its owner.
final class TerminalScreen {
    /// Whether `fd` is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    /// The size of the terminal on standard output, or 24x80 when it cannot be asked.
    static func size() -> (rows: Int, columns: Int) {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return (24, 80) }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    private var isActive = false
    /// What a full draw writes on the line below the picture, where the cursor waits.
    var prompt = "> "
    /// Lines of the picture drawn last: the prompt sits on the line below.
    private var drawnHeight = 0

    /// Switches to the alternate screen, so the player's scrollback is untouched and comes back on exit.
    func enter() {
        guard !isActive else { return }
        isActive = true
        StandardStream.write("\u{1B}[?1049h\u{1B}[H\u{1B}[2J")
    }

    /// Back to the normal screen with default colors and a visible cursor. Safe to call more than once.
    func restore() {
        guard isActive else { return }
        isActive = false
        StandardStream.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    }

    /// Draws `lines`. A full draw also clears the prompt line and writes a fresh prompt, leaving the cursor
    /// after it; otherwise the cursor, and whatever the player was typing, stays where it was. A picture
    /// of a new height always gets a full draw, since the prompt has to move.
    func draw(_ lines: [String], full: Bool) {
        guard isActive else { return }
        let isFull = full || lines.count != drawnHeight
        var out = isFull ? "\u{1B}[?25l" : "\u{1B}7\u{1B}[?25l"
        for (index, line) in lines.enumerated() {
            out += "\u{1B}[\(index + 1);1H\(line)\u{1B}[0m\u{1B}[K"
        }
        if isFull {
            out += "\u{1B}[\(lines.count + 1);1H\u{1B}[J\(prompt)"
            drawnHeight = lines.count
            out += "\u{1B}[?25h"
        } else {
            out += "\u{1B}8\u{1B}[?25h"
        }
        StandardStream.write(out)
    }
}
