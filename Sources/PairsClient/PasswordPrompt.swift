import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Reads a password the way `ssh` and `sudo` do: on a terminal, after a question on standard error, with
/// nothing shown as it is typed; from a pipe or a file, as its first line (for scripts, which can also use
/// `PAIRS_PASSWORD`). The password is never written anywhere.
///
/// The line is read on a thread of its own and handed to the caller's queue, so that queue stays free for
/// the program's signal handlers: Ctrl-C at the question ends the program as it always does, and those
/// handlers put the terminal back with `TerminalInputMode.restore()`.
public enum PasswordPrompt {
    /// The longest line read, in bytes: far more than any password, so a runaway input cannot grow without
    /// bound. What is longer is cut here and refused by the server, which allows
    /// `StorageLimits.maxPasswordBytes`.
    static let maxLineBytes = 4096

    /// Asks `question` (on a terminal) and calls `completion` on `queue` with the line typed, without its
    /// newline; nil when input ended first.
    public static func ask(_ question: String, queue: DispatchQueue, completion: @escaping @Sendable (String?) -> Void) {
        let isTerminal = TerminalInputMode.hidden.enter()
        if isTerminal { StandardStream.write(question, to: 2) }
        DispatchQueue(label: "pairs.password").async {
            let line = readLine()
            if isTerminal {
                TerminalInputMode.restore()
                // The Enter that ended the line was not shown either.
                StandardStream.write("\n", to: 2)
            }
            queue.async { completion(line) }
        }
    }

    /// One line of standard input, a byte at a time so nothing after its newline is taken from whoever
    /// reads standard input next; nil at the end of input before any byte.
    private static func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < maxLineBytes {
            let count = read(0, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
