#if canImport(Glibc)
import Glibc
#endif

/// `pairs serve --pid-file PATH`: the server's process id in a file, for `kill`, logrotate and
/// `pairs load --server-pid "$(cat PATH)"`, which must not guess the process from its name.
///
/// Written atomically: the id goes into a temporary file beside `path` before the server listens, so a
/// path that cannot be written stops `pairs serve` before anything listens; once it listens, the file is
/// renamed into place, so a reader finds no file or the whole id, never half of one. Removed on a clean
/// exit, unless another process has put its own id there since.
struct PIDFile: Sendable {
    let path: String
    let pid: pid_t
    private let temporaryPath: String

    /// Writes `pid` and a newline to the temporary file.
    init(path: String, pid: pid_t = getpid()) throws(PIDFileError) {
        self.path = path
        self.pid = pid
        temporaryPath = "\(path).\(pid).tmp"
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw PIDFileError(path: path, errno: errno) }
        let text = Array("\(pid)\n".utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let failure = written == text.count ? 0 : (written < 0 ? errno : EIO)
        close(descriptor)
        guard failure == 0 else {
            unlink(temporaryPath)
            throw PIDFileError(path: path, errno: failure)
        }
    }

    /// Renames the temporary file into place: from now on `path` holds the id.
    func publish() throws(PIDFileError) {
        guard rename(temporaryPath, path) == 0 else {
            let failure = errno
            unlink(temporaryPath)
            throw PIDFileError(path: path, errno: failure)
        }
    }

    /// Removes the temporary file of a server that did not start.
    func discard() {
        unlink(temporaryPath)
    }

    /// Removes `path` if it still holds this process's id.
    func remove() {
        guard holdsOwnID else { return }
        unlink(path)
    }

    /// Whether `path` holds `pid`: another server started with the same `--pid-file` has replaced it
    /// otherwise, and its file must stay.
    private var holdsOwnID: Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        // A process id has at most 10 digits; anything longer is not ours.
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        return String(decoding: buffer[..<count], as: UTF8.self) == "\(pid)\n"
    }
}

/// A pid file that cannot be written, with the system's reason.
struct PIDFileError: Error, CustomStringConvertible {
    var path: String
    var errno: Int32

    var description: String { "cannot write the pid file \(path): \(String(cString: strerror(errno)))" }
}
