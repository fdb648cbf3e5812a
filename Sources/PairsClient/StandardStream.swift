#if canImport(Glibc)
import Glibc
#endif
import PairsPolling

/// Writes to standard output or error with plain `write` calls: one call per piece of text, unbuffered,
/// so lines reach a pipe (a script, a test) the moment they are printed and lines from two threads never
/// interleave mid-line.
public enum StandardStream {
    /// Writes `text` to standard output.
    public static func write(_ text: String) {
        write(text, to: 1)
    }

    /// Writes `text` and a newline to standard output.
    public static func writeLine(_ text: String) {
        write(text + "\n", to: 1)
    }

    /// Writes `text` and a newline to standard error.
    public static func writeErrorLine(_ text: String) {
        write(text + "\n", to: 2)
    }

    static func write(_ text: String, to fd: Int32) {
        var text = text
        // A closed pipe (nobody is listening) is no reason to stop playing: a failed write is dropped.
        _ = text.withUTF8 { BlockingWrite.all(UnsafeRawBufferPointer($0), to: fd) }
    }
}
