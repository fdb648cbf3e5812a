import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsTestSupport
import Synchronization

/// A child process with its output collected line by line as it comes, for tests that run the real
/// `pairs` binary or the Python bot. Every wait has a deadline; `terminate()` ends the child by its pid.
final class Subprocess: Sendable {
    private struct State {
        var stdout: [String] = []
        var stderr = ""
        var partialStdout = ""
        var openPipes = 2
        var exitStatus: Int32?
    }

    let executable: String
    let pid: pid_t
    private let state = Mutex(State())
    private let input: Int32

    /// Starts `executable` with `arguments`. Output is read on background threads until the child closes it.
    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        self.executable = executable.lastPathComponent
        let stdin = try Spawn.pipe(), stdout = try Spawn.pipe(), stderr = try Spawn.pipe()
        pid = try Spawn.start(executable.path, arguments, environment: environment,
                              stdin: stdin.read, stdout: stdout.write, stderr: stderr.write)
        close(stdin.read)
        close(stdout.write)
        close(stderr.write)
        input = stdin.write
        collect(stdout.read, isStdout: true)
        collect(stderr.read, isStdout: false)
    }

    deinit {
        close(input)
    }

    private func collect(_ fd: Int32, isStdout: Bool) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                let text = String(decoding: buffer[..<count], as: UTF8.self)
                state.withLock { state in
                    if isStdout {
                        state.partialStdout += text
                        while let newline = state.partialStdout.firstIndex(of: "\n") {
                            state.stdout.append(String(state.partialStdout[..<newline]))
                            state.partialStdout = String(state.partialStdout[state.partialStdout.index(after: newline)...])
                        }
                    } else {
                        state.stderr += text
                    }
                }
            }
            close(fd)
            state.withLock { state in
                if isStdout, !state.partialStdout.isEmpty {
                    state.stdout.append(state.partialStdout)
                    state.partialStdout = ""
                }
                state.openPipes -= 1
            }
        }
        thread.start()
    }

    /// Every complete line written to stdout so far.
    var lines: [String] { state.withLock { $0.stdout } }

    /// Everything written to stderr so far.
    var errorText: String { state.withLock { $0.stderr } }

    /// Writes `text` to the child's stdin.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(input, bytes.baseAddress, bytes.count) }
    }

    /// Waits for a stdout line satisfying `matches`, at or after line `from`; returns its index and text.
    @discardableResult
    func waitForLine(from start: Int = 0, timeout: Duration = .seconds(10), _ what: String,
                     _ matches: (String) -> Bool) async throws -> (index: Int, line: String) {
        do {
            return try await waitFor(what, timeout: timeout) {
                let lines = self.lines
                guard start < lines.count else { return nil }
                return lines.indices[start...].first { matches(lines[$0]) }.map { ($0, lines[$0]) }
            }
        } catch let error as TimedOut {
            throw TimedOut(what: "\(error.what) from \(executable); stdout so far:\n\(lines.suffix(20).joined(separator: "\n"))\nstderr: \(errorText)")
        }
    }

    /// The exit status, once the child has exited; nil while it runs.
    private var exitStatus: Int32? {
        state.withLock { state in
            if state.exitStatus == nil { state.exitStatus = Spawn.exitStatus(of: pid) }
            return state.exitStatus
        }
    }

    /// Waits for the child to exit and for its output to be read to the end; returns its exit status.
    func waitForExit(timeout: Duration = .seconds(10)) async throws -> Int32 {
        try await waitFor("\(executable) to exit; stderr: \(errorText)", timeout: timeout) {
            guard let status = exitStatus, state.withLock({ $0.openPipes == 0 }) else { return nil }
            return status
        }
    }

    /// Sends SIGTERM to the child if it is still running.
    func terminate() {
        if exitStatus == nil { kill(pid, SIGTERM) }
    }
}
