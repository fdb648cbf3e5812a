import Foundation
import PairsTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The built `pairs` executable, run as a child process the way a user runs it, for synchronous tests: its
/// stdout read in order, line by line, and every wait bounded. Started through `Subprocess`, so the child
/// gets no descriptor of another test's, and is killed and reaped at the latest when the test lets go of it.
final class PairsProcess {
    private let child: Subprocess
    /// The index in the child's stdout of the line `readLine` returns next.
    private var nextLine = 0

    /// Runs `pairs` with `arguments`, or another program (`executable`) that runs it.
    init(_ arguments: [String], executable: URL? = nil) throws {
        child = try Subprocess(try executable ?? Tools.pairs(), arguments)
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

    /// The child's process id, which its log lines and pid file show.
    var pid: pid_t { child.pid }

    /// The next line the process writes to stdout; throws if none comes within `seconds` or stdout closes.
    func readLine(within seconds: Double) throws -> String {
        let (index, line) = try child.blockingWaitForLine(from: nextLine, within: seconds, "a line") { _ in true }
        nextLine = index + 1
        return line
    }

    /// Everything the process wrote to stderr: all of it once `waitForExit` has returned a status.
    func errorOutput() -> String {
        child.errorText
    }

    /// Sends `signal` to the process if it is still running.
    func send(_ signal: Int32) {
        child.send(signal)
    }

    /// Waits for the process to exit and returns its status; after `seconds`, kills it and returns nil.
    func waitForExit(within seconds: Double) -> Int32? {
        if let status = try? child.blockingWaitForExit(within: seconds) { return status }
        child.kill()
        return nil
    }

    /// Kills the process with SIGKILL if it is still running, and reaps it.
    func terminate() {
        child.kill()
    }
}
