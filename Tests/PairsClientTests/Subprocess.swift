import Foundation
import Synchronization

/// A child process with its output collected line by line as it comes, for tests that run the real
/// `pairs` binary or the Python bot. Every wait has a deadline; `terminate()` ends the child by its pid.
final class Subprocess: Sendable {
    private struct Output {
        var stdout: [String] = []
        var stderr = ""
        var partialStdout = ""
        var openPipes = 2
    }

    let process: Process
    private let output = Mutex(Output())
    private let input: Pipe

    /// Starts `executable` with `arguments`. Output is read on background threads until the child closes it.
    init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let stdout = Pipe(), stderr = Pipe()
        input = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = input
        try process.run()
        collect(stdout.fileHandleForReading, isStdout: true)
        collect(stderr.fileHandleForReading, isStdout: false)
    }

    private func collect(_ handle: FileHandle, isStdout: Bool) {
        let thread = Thread { [self] in
            while true {
                let data = handle.availableData // blocks until bytes or end of file
                if data.isEmpty { break }
                let text = String(decoding: data, as: UTF8.self)
                output.withLock { output in
                    if isStdout {
                        output.partialStdout += text
                        while let newline = output.partialStdout.firstIndex(of: "\n") {
                            output.stdout.append(String(output.partialStdout[..<newline]))
                            output.partialStdout = String(output.partialStdout[output.partialStdout.index(after: newline)...])
                        }
                    } else {
                        output.stderr += text
                    }
                }
            }
            output.withLock { output in
                if isStdout, !output.partialStdout.isEmpty {
                    output.stdout.append(output.partialStdout)
                    output.partialStdout = ""
                }
                output.openPipes -= 1
            }
        }
        thread.start()
    }

    /// Every complete line written to stdout so far.
    var lines: [String] { output.withLock { $0.stdout } }

    /// Everything written to stderr so far.
    var errorText: String { output.withLock { $0.stderr } }

    /// Writes `text` to the child's stdin.
    func write(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Closes the child's stdin: it reads end of file.
    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Waits for a stdout line satisfying `matches`, at or after line `from`; returns its index and text.
    @discardableResult
    func waitForLine(from start: Int = 0, timeout: Duration = .seconds(10), _ what: String,
                     _ matches: (String) -> Bool) async throws -> (index: Int, line: String) {
        try await waitFor("a line with \(what); stdout so far:\n\(lines.suffix(20).joined(separator: "\n"))\nstderr: \(errorText)", timeout: timeout) {
            let lines = self.lines
            guard start < lines.count else { return nil }
            return lines.indices[start...].first { matches(lines[$0]) }.map { ($0, lines[$0]) }
        }
    }

    /// Waits for the child to exit and for its output to be read to the end; returns its exit status.
    func waitForExit(timeout: Duration = .seconds(10)) async throws -> Int32 {
        try await waitUntil("\(process.executableURL?.lastPathComponent ?? "process") to exit; stderr: \(errorText)", timeout: timeout) {
            !process.isRunning && output.withLock { $0.openPipes == 0 }
        }
        return process.terminationStatus
    }

    /// Sends SIGTERM to the child if it is still running.
    func terminate() {
        if process.isRunning { process.terminate() }
    }
}
