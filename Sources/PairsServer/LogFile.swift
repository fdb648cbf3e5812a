#if canImport(Glibc)
import Glibc
#endif
import PairsPolling

/// The file `--log-file` names, open for appending, and opened again on request (SIGUSR1) so that log
/// rotation works: after `mv pairs.log pairs.log.1`, lines go on to the renamed file until the reopen,
/// then to a new `pairs.log`.
///
/// The descriptor's number never changes: reopening opens the path anew and `dup2`s the new descriptor
/// onto the old number, which the kernel does atomically, so no line is lost or written to a closed
/// descriptor, and nothing here is mutable (the server still reopens on its own queue, where it writes).
public final class LogFile: Sendable {
    public let path: String
    private let descriptor: Int32

    /// Opens (creating if need be) `path` for appending.
    public init(path: String) throws(LogFileError) {
        self.path = path
        descriptor = try Self.open(path)
    }

    deinit {
        close(descriptor)
    }

    /// Opens the path again and writes there from now on; on failure, keeps writing to the file it had.
    func reopen() throws(LogFileError) {
        let fresh = try Self.open(path)
        defer { close(fresh) }
        guard dup2(fresh, descriptor) >= 0 else { throw LogFileError(path: path, errno: errno) }
    }

    /// Appends one or more whole lines. `O_APPEND` puts each write at the end as one piece, so lines from
    /// another process appending to the same file never interleave with these.
    func write(_ bytes: [UInt8]) {
        LogFile.write(bytes, to: descriptor)
    }

    /// Writes all of `bytes` to `descriptor`; a log that cannot be written has nowhere to say so.
    static func write(_ bytes: [UInt8], to descriptor: Int32) {
        _ = bytes.withUnsafeBytes { BlockingWrite.all($0, to: descriptor) }
    }

    private static func open(_ path: String) throws(LogFileError) -> Int32 {
        // 0o644 before the umask: readable by the tools that ship logs, writable by the server alone.
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw LogFileError(path: path, errno: errno) }
        return descriptor
    }
}

/// A log file that cannot be opened, with the system's reason.
public struct LogFileError: Error, CustomStringConvertible {
    public var path: String
    public var errno: Int32

    public var description: String { "cannot open the log file \(path): \(String(cString: strerror(errno)))" }
}
