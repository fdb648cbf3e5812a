#if canImport(Glibc)
import Glibc
#endif

/// Writing everything to a blocking descriptor (standard output or error, a log file), for the programs'
/// own output rather than their sockets (`OutputQueue` is for those).
public enum BlockingWrite {
    /// Writes all of `bytes` to `descriptor`, going on after a partial write or a signal. Gives up, returning
    /// false, on any other failure (a closed pipe, a full disk): what is written here has nowhere else to go.
    @discardableResult
    public static func all(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
