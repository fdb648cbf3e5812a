import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started by `Spawn`, its output collected line by line as it comes, for tests that run
/// the real `pairs` binary or another program (nc, python3, node, script).
///
/// Every wait has a deadline, in an async form and a blocking one (for synchronous tests on threads of
/// their own). However a test ends, the child is reaped: when the last reference goes, a child still
/// running is killed with SIGKILL and waited for, so no test leaves a process or a zombie behind.
public final class Subprocess: Sendable {
    /// A child closed its stdout without writing the line a test waited for: no use waiting on.
    public struct OutputEnded: Error, CustomStringConvertible {
        public var description: String
    }

    /// What the child wrote so far and whether it has exited, shared by the reading threads and the waits.
    private struct State {
        var lines: [String] = []
        /// Bytes of stdout after its last newline; decoded when the line is complete, so that a character
        /// split between two reads comes out whole.
        var partialLine: [UInt8] = []
        var errorBytes: [UInt8] = []
        var isStdoutOpen = true
        var isStderrOpen = true
        /// Set once the child is reaped; after that its pid may be another process's.
        var exitStatus: Int32?

        mutating func appendOutput(_ bytes: ArraySlice<UInt8>) {
            partialLine += bytes
            while let newline = partialLine.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: partialLine[..<newline], as: UTF8.self))
                partialLine.removeSubrange(...newline)
            }
        }

        mutating func endOutput() {
            if !partialLine.isEmpty { lines.append(String(decoding: partialLine, as: UTF8.self)) }
            partialLine = []
            isStdoutOpen = false
        }

        /// The child's exit status, reaping it if it has exited since the last look.
        mutating func status(of pid: pid_t) -> Int32? {
            if exitStatus == nil { exitStatus = Spawn.exitStatus(of: pid) }
            return exitStatus
        }
    }

    /// The state in a box of its own, which the reading threads hold instead of the `Subprocess`: were they
    /// to hold that, it would live as long as the child's output and could not reap a child left running.
    ///
    /// Guarded by an `NSLock` rather than Synchronization's `Mutex`: ThreadSanitizer, which CI runs these
    /// tests under, sees a pthread mutex but not the `Mutex`, and reported its critical sections as races.
    private final class Shared: @unchecked Sendable {
        private let lock = NSLock()
        private var state = State()

        func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            lock.lock()
            defer { lock.unlock() }
            return try body(&state)
        }
    }

    /// Bytes read from the child's stdout or stderr at a time.
    private static let chunkBytes = 4096

    /// The program's file name, for messages.
    public let executable: String
    public let pid: pid_t
    private let shared = Shared()
    private let input: Int32

    /// Starts `executable` with `arguments` and `environment` (see `Spawn.start`). Its stdout and stderr are
    /// read on threads of their own until the child closes them; its stdin takes what `write` sends.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        self.executable = executable.lastPathComponent
        let stdin = try Spawn.pipe(), stdout = try Spawn.pipe(), stderr = try Spawn.pipe()
        // The child's ends: it has copies of its own, and the reader must see the end when it exits.
        defer { for end in [stdin.read, stdout.write, stderr.write] { close(end) } }
        do {
            pid = try Spawn.start(executable.path, arguments, environment: environment,
                                  stdin: stdin.read, stdout: stdout.write, stderr: stderr.write)
        } catch {
            for end in [stdin.write, stdout.read, stderr.read] { close(end) }
            throw error
        }
        input = stdin.write
        Self.collect(stdout.read, into: shared, isStdout: true)
        Self.collect(stderr.read, into: shared, isStdout: false)
    }

    deinit {
        close(input)
        kill()
    }

    private static func collect(_ fd: Int32, into shared: Shared, isStdout: Bool) {
        Thread {
            var buffer = [UInt8](repeating: 0, count: chunkBytes)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                shared.withLock { state in
                    if isStdout { state.appendOutput(buffer[..<count]) } else { state.errorBytes += buffer[..<count] }
                }
            }
            close(fd)
            shared.withLock { state in
                if isStdout { state.endOutput() } else { state.isStderrOpen = false }
            }
        }.start()
    }

    /// Every complete line written to stdout so far (and the last one, unfinished, once stdout is closed).
    public var lines: [String] { shared.withLock { $0.lines } }

    /// Everything written to stderr so far.
    public var errorText: String { String(decoding: shared.withLock { $0.errorBytes }, as: UTF8.self) }

    /// Writes `text` to the child's stdin.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(input, bytes.baseAddress, bytes.count) }
    }

    /// Waits for a stdout line satisfying `matches`, at or after line `from`; returns its index and text.
    /// Throws `OutputEnded` as soon as stdout is closed without one.
    @discardableResult
    public func waitForLine(from start: Int = 0, timeout: Duration = .seconds(10), _ what: String,
                            _ matches: (String) -> Bool) async throws -> (index: Int, line: String) {
        do {
            return try await waitFor(what, timeout: timeout) { try line(from: start, what, matches) }
        } catch let error as TimedOut {
            throw explained(error)
        }
    }

    /// `waitForLine`, blocking the calling thread: for synchronous tests.
    @discardableResult
    public func blockingWaitForLine(from start: Int = 0, within seconds: TimeInterval = 10, _ what: String,
                                    _ matches: (String) -> Bool) throws -> (index: Int, line: String) {
        do {
            return try blockingWaitFor(what, within: seconds) { try line(from: start, what, matches) }
        } catch let error as TimedOut {
            throw explained(error)
        }
    }

    /// Waits for the child to exit and for its output to be read to the end; returns its exit status (128 + N
    /// if signal N ended it). A child still running at the deadline is left running: see `kill`.
    public func waitForExit(timeout: Duration = .seconds(10)) async throws -> Int32 {
        do {
            return try await waitFor("the exit", timeout: timeout) { finishedStatus }
        } catch let error as TimedOut {
            throw explained(error)
        }
    }

    /// `waitForExit`, blocking the calling thread: for synchronous tests.
    public func blockingWaitForExit(within seconds: TimeInterval = 10) throws -> Int32 {
        do {
            return try blockingWaitFor("the exit", within: seconds) { finishedStatus }
        } catch let error as TimedOut {
            throw explained(error)
        }
    }

    /// Sends `signal` to the child if it has not exited. Never to one already reaped, whose pid the system
    /// may have given another process since.
    public func send(_ signal: Int32) {
        shared.withLock { state in
            if state.status(of: pid) == nil { Glibc.kill(pid, signal) }
        }
    }

    /// Sends SIGTERM to the child if it is still running.
    public func terminate() {
        send(SIGTERM)
    }

    /// Ends the child with SIGKILL if it is still running, and reaps it before returning.
    public func kill() {
        shared.withLock { state in
            if state.status(of: pid) == nil { state.exitStatus = Spawn.killAndReap(pid) ?? 128 + SIGKILL }
        }
    }

    /// The first line at or after `start` that satisfies `matches`, or nil while stdout may bring one.
    private func line(from start: Int, _ what: String, _ matches: (String) -> Bool) throws -> (index: Int, line: String)? {
        let (lines, isOpen) = shared.withLock { ($0.lines, $0.isStdoutOpen) }
        if start < lines.count, let index = lines.indices[start...].first(where: { matches(lines[$0]) }) {
            return (index, lines[index])
        }
        guard isOpen else { throw OutputEnded(description: "\(executable) closed its stdout before \(what)\(transcript)") }
        return nil
    }

    /// The exit status once the child has exited and both its stdout and stderr are read to the end.
    private var finishedStatus: Int32? {
        shared.withLock { state in
            guard let status = state.status(of: pid), !state.isStdoutOpen, !state.isStderrOpen else { return nil }
            return status
        }
    }

    /// `error` with what the child wrote, which usually says why the wait was in vain.
    private func explained(_ error: TimedOut) -> TimedOut {
        TimedOut(what: "\(error.what) from \(executable)\(transcript)")
    }

    private var transcript: String {
        "; stdout so far:\n\(lines.suffix(20).joined(separator: "\n"))\nstderr: \(errorText)"
    }
}
