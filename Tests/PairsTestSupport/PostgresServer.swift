import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server of a test's own: a cluster made with `initdb` in a temporary directory, listening
/// on 127.0.0.1 at a free port, with trust authentication for the user `pairs`, stopped (`pg_ctl stop -m
/// immediate`) and removed by `stop()`. PostgreSQL refuses to run as root: when the tests run as root, the
/// directory belongs to the `postgres` system user (which Debian's `postgresql` package creates) and the
/// server runs as it (`runuser`).
public final class PostgresServer: Sendable {
    /// The user the tests connect as.
    public static let user = "pairs"
    /// How long `pg_ctl` waits for the server to start or stop: it only bounds a failure, and a busy
    /// machine takes seconds to start one.
    static let startSeconds = 60
    /// The system user that runs the server when the tests run as root.
    static let systemUser = "postgres"

    public let directory: String
    public let port: Int
    private let binDirectory: String
    private let runAs: String?
    private let stopped = Mutex(false)

    /// Makes and starts a new cluster; fails with `Tools.Missing` when PostgreSQL is not installed.
    public init() throws {
        guard let bin = Self.binDirectory() else { throw Tools.Missing(description: Self.missingReason) }
        binDirectory = bin
        runAs = getuid() == 0 ? Self.systemUser : nil
        var template = Array((FileManager.default.temporaryDirectory.path + "/pairs-pg-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw Tools.Missing(description: "mkdtemp failed: errno \(errno)") }
        directory = String(cString: made)
        if let runAs {
            guard let account = getpwnam(runAs) else {
                throw Tools.Missing(description: "running as root, and there is no \(runAs) user to run PostgreSQL as")
            }
            chown(directory, account.pointee.pw_uid, account.pointee.pw_gid)
        }
        let data = directory + "/data"
        try Self.run("initdb", in: directory, bin: bin, as: runAs, ["-D", data, "-U", Self.user, "-A", "trust", "--no-sync", "--locale=C", "-E", "UTF8", "--no-instructions"])
        // A free port: the system picks one for a socket that is then closed. Another process could take it
        // in between; a start that fails for it is tried again on another.
        var lastError: Error?
        for _ in 0..<3 {
            let candidate = try Self.freePort()
            do {
                try Self.run("pg_ctl", in: directory, bin: bin, as: runAs, [
                    "-D", data, "-l", directory + "/server.log", "-w", "-t", String(Self.startSeconds), "start", "-o",
                    "-c listen_addresses=127.0.0.1 -p \(candidate) -k \(directory) -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
                ])
                port = candidate
                return
            } catch {
                lastError = error
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw lastError ?? Tools.Missing(description: "PostgreSQL did not start")
    }

    deinit {
        stop()
    }

    /// The URL of `database` on this server, for libpq and `pairs serve --data`.
    public func url(database: String = "postgres") -> String {
        "postgresql://\(Self.user)@127.0.0.1:\(port)/\(database)"
    }

    /// Stops the server at once (no checkpoint: the directory goes anyway) and removes its directory.
    public func stop() {
        guard !stopped.withLock({ let was = $0; $0 = true; return was }) else { return }
        try? Self.run("pg_ctl", in: directory, bin: binDirectory, as: runAs, ["-D", directory + "/data", "-m", "immediate", "-w", "-t", String(Self.startSeconds), "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs one of PostgreSQL's programs, as the server's user, and fails with its output when it fails.
    private static func run(_ program: String, in directory: String, bin: String, as runAs: String?, _ arguments: [String]) throws {
        let executable = bin + "/" + program
        let (launcher, launched) = runAs.map { ("/usr/sbin/runuser", ["-u", $0, "--", executable] + arguments) } ?? (executable, arguments)
        // A file, not a pipe, and started through `Spawn` rather than Foundation's `Process`: the server
        // pg_ctl starts outlives it, and would hold a pipe (or `Process`'s own descriptor) open for good.
        let outputPath = directory + "/\(program).out"
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw Tools.Missing(description: "cannot write \(outputPath): errno \(errno)") }
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let pid: pid_t
        do {
            pid = try Spawn.start(launcher, launched, stdin: null, stdout: output, stderr: output)
        } catch {
            close(output)
            close(null)
            throw error
        }
        close(output)
        close(null)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
            throw Tools.Missing(description: "\(program) failed (status \(status)): \(text) \(log.suffix(2000))")
        }
    }

    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Tools.Missing(description: "socket failed: errno \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic -> Int32 in
                guard bind(socket, generic, length) == 0 else { return -1 }
                return getsockname(socket, generic, &length)
            }
        }
        guard bound == 0 else { throw Tools.Missing(description: "bind failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    // MARK: Finding PostgreSQL

    /// The directory of `initdb` and `pg_ctl`: `pg_config --bindir` when it names one that has them
    /// (libpq-dev's pg_config names the client's, which may lack them), else the newest
    /// /usr/lib/postgresql/N/bin, where Debian's `postgresql` package puts them.
    public static func binDirectory() -> String? {
        let files = FileManager.default
        func hasServer(_ directory: String) -> Bool {
            files.isExecutableFile(atPath: directory + "/initdb") && files.isExecutableFile(atPath: directory + "/pg_ctl")
        }
        if let configured = pgConfigBinDirectory(), hasServer(configured) { return configured }
        let versions = ((try? files.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).compactMap(Int.init).sorted()
        return versions.reversed().map { "/usr/lib/postgresql/\($0)/bin" }.first(where: hasServer)
    }

    /// Why PostgreSQL's tests cannot run here, or nil when they can.
    public static var missingReason: String {
        "PostgreSQL's server (initdb, pg_ctl) is not installed (.ci/run installs the postgresql package)"
    }

    private static func pgConfigBinDirectory() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pg_config", "--bindir"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
