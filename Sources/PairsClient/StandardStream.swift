#if canImport(Glibc)
import Glibc
#endif

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
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return // a closed pipe: nobody is listening, and that is no reason to stop playing
                }
            }
        }
    }
}
