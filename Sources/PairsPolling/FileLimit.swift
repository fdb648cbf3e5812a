#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open file descriptors, which bounds how many connections the server or one load
/// client holds: both raise it as far as they may before they start.
public enum FileLimit {
    /// Raises the soft limit to the hard one (a process may do that without privileges) and returns the
    /// limit now in force.
    @discardableResult
    public static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}
