import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Starts child processes with `posix_spawn`, with every signal back to its default and none blocked.
///
/// Foundation's `Process` on Linux hands a child the signal mask of the thread that starts it, and test
/// threads block nearly every signal: a child started that way ignores SIGTERM, SIGHUP and Ctrl-C, which
/// is neither what a person's shell gives `pairs play` nor something a test can clean up after. It also
/// keeps a descriptor of its own in the child, so a child that daemonizes (tmux) never looks finished.
/// Every test starts its children here (most through `Subprocess`), so that no child holds a descriptor
/// of another test's: all test targets run in one process, on threads of their own.
public enum Spawn {
    /// A child could not be started, or what it needed could not be made.
    public struct Failed: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Starts `executable` with `arguments` and `environment` (added to this process's), its standard
    /// streams connected to the given descriptors (nil leaves this process's). Returns the pid.
    ///
    /// `XDG_STATE_HOME` is a directory of this test run's unless `environment` names another, so a
    /// `pairs play` under test never keeps a seat's token in the real home.
    public static func start(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                             stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (source, target) in [(stdin, Int32(0)), (stdout, 1), (stderr, 2)] {
            if let source { posix_spawn_file_actions_adddup2(&actions, source, target) }
        }
        // Nothing but the three streams: a descriptor another test has open without close-on-exec for an
        // instant (Foundation's pipes and the socket by which `Process` learns that its child exited) would
        // otherwise live on in this child, for good in a daemon such as tmux's server, and that test would
        // never see its end.
        _ = closeFrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let merged = ProcessInfo.processInfo.environment.merging(StateDirectory.shared.environment) { $1 }
            .merging(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let status = spawning.withLock { _ in posix_spawn(&pid, executable, &actions, &attributes, argv, envp) }
        guard status == 0 else { throw Failed(description: "cannot start \(executable): \(String(cString: strerror(status)))") }
        return pid
    }

    /// The exit status of `pid` if it has exited (128 + N if killed by signal N), without waiting. Once it
    /// has answered, the child is reaped and its pid may belong to another process: send it nothing more.
    public static func exitStatus(of pid: pid_t) -> Int32? {
        reap(pid, options: WNOHANG)
    }

    /// Kills `pid` (a child not reaped yet) with SIGKILL and waits for it, so that nothing is left running
    /// or unreaped after a test gave up on it. The wait is short: SIGKILL cannot be caught or ignored.
    /// Returns its status, nil if it was not a child of this process.
    @discardableResult
    public static func killAndReap(_ pid: pid_t) -> Int32? {
        kill(pid, SIGKILL)
        return reap(pid, options: 0)
    }

    private static func reap(_ pid: pid_t, options: Int32) -> Int32? {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, options) } while result < 0 && errno == EINTR
        guard result == pid else { return nil }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// A pipe whose two ends are closed in children (the spawned one gets its end by `dup2`).
    public static func pipe() throws -> (read: Int32, write: Int32) {
        try spawning.withLock { _ in
            var ends: [Int32] = [0, 0]
            guard Glibc.pipe(&ends) == 0 else { throw Failed(description: "pipe: \(String(cString: strerror(errno)))") }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 on), which its header declares only under
    /// `_GNU_SOURCE`, out of reach of Swift's Glibc module; looked up by name instead.
    private static let closeFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            fatalError("glibc 2.34 or later is needed to spawn children without this process's descriptors")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Held while a pipe is made and while a child is spawned: a child spawned between `pipe` and
    /// `fcntl` on another thread would inherit both ends, and the reader would never see the end.
    private static let spawning = Mutex(())
}
