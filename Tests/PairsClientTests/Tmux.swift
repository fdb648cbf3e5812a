import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
import PairsTestSupport
#endif

/// A detached tmux session on a private server socket, running one command in one window, for driving a
/// terminal program as a person would: send keys, read the screen.
final class Tmux: Sendable {
    /// How long one tmux command may take; they answer in milliseconds.
    static let commandTimeout: Duration = .seconds(5)
    private static let sessions = Atomic<Int>(0)

    let tmux: URL
    let socketName: String

    /// Starts `command` (words, quoted for the shell here) in a `columns`x`rows` window. After the command
    /// exits, the window shows `[exit STATUS]` and stays open so its last screen can be read, until the
    /// session ends (`read` then meets the end of its terminal, so nothing is left behind).
    init(_ command: [String], environment: [String: String] = [:], columns: Int = 120, rows: Int = 40) async throws {
        tmux = try Tools.external("tmux")
        let number = Self.sessions.add(1, ordering: .relaxed).newValue
        socketName = "pairs-test-\(getpid())-\(number)"
        let assignments = environment.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        let line = "env \(assignments) \(command.map(Self.quote).joined(separator: " ")); echo \"[exit $?]\"; read -r done"
        // -u: UTF-8 whatever the locale; -f /dev/null: no user configuration.
        try await run(["-u", "-f", "/dev/null", "new-session", "-d", "-x", String(columns), "-y", String(rows), line])
    }

    /// The screen as text, one string per row.
    func screen() async throws -> String {
        try await run(["capture-pane", "-p"])
    }

    /// Types `text` and presses Enter.
    func type(_ text: String) async throws {
        try await run(["send-keys", "-l", text])
        try await run(["send-keys", "Enter"])
    }

    /// Presses a key by tmux's name for it (`C-c`).
    func press(_ key: String) async throws {
        try await run(["send-keys", key])
    }

    /// Copies everything the program writes to the terminal from now on to the file at `path`, escape
    /// sequences and bells included (the screen shows neither).
    func recordOutput(to path: String) async throws {
        try await run(["pipe-pane", "-o", "cat >> " + Self.quote(path)])
    }

    /// The pane's title, which a program can set with an escape sequence (OSC 0 or 2).
    func paneTitle() async throws -> String {
        try await run(["display-message", "-p", "#{pane_title}"])
    }

    /// Sends `signal` to the command running in the window: the one child of the pane's shell.
    func signalCommand(_ signal: Int32) async throws {
        let shell = try await run(["display-message", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        guard let pid = children.split(separator: " ").first.flatMap({ pid_t($0) }) else {
            throw Tools.Missing(description: "no command running under the pane's shell \(shell)")
        }
        Glibc.kill(pid, signal)
    }

    /// Whether the window is showing the alternate screen.
    func isAlternateScreenOn() async throws -> Bool {
        try await run(["display-message", "-p", "#{alternate_on}"]).hasPrefix("1")
    }

    /// Waits until the screen satisfies `condition`; returns that screen.
    @discardableResult
    func waitForScreen(_ what: String, timeout: Duration = .seconds(10), _ condition: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let screen = try await screen()
            if condition(screen) { return screen }
            guard ContinuousClock.now < deadline else { throw TimedOut(what: "\(what); the screen was:\n\(screen)") }
            try await Task.sleep(for: pollInterval)
        }
    }

    /// Ends the tmux server and everything running in it.
    func kill() async {
        _ = try? await run(["kill-server"])
    }

    @discardableResult
    private func run(_ arguments: [String]) async throws -> String {
        // Output goes to a file rather than a pipe: the server that `new-session` starts would hold a
        // pipe open long after the command is done.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(socketName)-\(UUID().uuidString)").path
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Spawn.Failed(description: "cannot create \(path)") }
        defer { close(fd); unlink(path) }
        let pid = try Spawn.start(tmux.path, ["-L", socketName] + arguments, stdout: fd, stderr: fd)
        let status: Int32
        do {
            status = try await waitFor("tmux \(arguments.first ?? "") to finish", timeout: Self.commandTimeout) {
                Spawn.exitStatus(of: pid)
            }
        } catch {
            // A command that hangs is ended and reaped, not left behind.
            Spawn.killAndReap(pid)
            throw error
        }
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw Tools.Missing(description: "tmux \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    private static func quote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Runs `body` with a tmux session running `command` in a `columns`x`rows` window, and ends the session
/// afterwards however `body` ends.
func withTmux(_ command: [String], environment: [String: String] = [:], columns: Int = 120, rows: Int = 40,
              _ body: (Tmux) async throws -> Void) async throws {
    let terminal = try await Tmux(command, environment: environment, columns: columns, rows: rows)
    do {
        try await body(terminal)
    } catch {
        await terminal.kill()
        throw error
    }
    await terminal.kill()
}
