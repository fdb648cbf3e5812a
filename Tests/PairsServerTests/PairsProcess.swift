import Foundation
import PairsTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The built `pairs` executable, run as a child process the way a user runs it.
final class PairsProcess {
    let process = Process()
    private let stdout = Pipe()
    private let stderr = Pipe()
    private var buffered: [UInt8] = []

    /// Runs `pairs` with `arguments`, or another program (`executable`) that runs it.
    init(_ arguments: [String], executable: URL? = nil) throws {
        process.executableURL = try executable ?? Tools.pairs()
        process.arguments = arguments
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Starts `pairs serve` on a free port of 127.0.0.1 and waits for its listening line. It keeps no games
    /// unless `extra` gives it a `--data` file: a test must never write to the user's own.
    static func serve(_ extra: [String] = []) throws -> (process: PairsProcess, port: Int) {
        let data = extra.contains("--data") ? [] : ["--data", "none"]
        let server = try PairsProcess(["serve", "--host", "127.0.0.1", "--port", "0", "--log-level", "warning"] + data + extra)
        let line = try server.readLine(within: 10)
        guard line.hasPrefix("pairs listening on "), let port = line.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw TestTimeout(what: "the listening line, got \"\(line)\"")
        }
        return (server, port)
    }

    /// The next line the process writes to stdout.
    func readLine(within seconds: Double) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        let fd = stdout.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw TestTimeout(what: "a line from pairs") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { throw TestTimeout(what: "a line from pairs (stdout closed)") }
            buffered += chunk[..<count]
        }
    }

    /// Everything the process wrote to stderr (after it exited).
    func errorOutput() -> String {
        String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Waits for the process to exit and returns its status; kills it after `seconds`.
    func waitForExit(within seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.interrupt()
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    func terminate() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
