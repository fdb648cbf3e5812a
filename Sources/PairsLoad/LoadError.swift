#if canImport(Glibc)
import Glibc
#endif

/// Why a load run could not start, in words for the person who started it.
public enum LoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed.
    case system(call: String, errno: Int32)
    /// The host name does not resolve.
    case cannotResolve(host: String, reason: String)
    /// No address of the host accepts a connection.
    case cannotConnect(endpoint: String, reason: String)
    /// The run needs more file descriptors than the process may open.
    case tooFewDescriptors(needed: Int, limit: Int)

    public var description: String {
        switch self {
        case .system(let call, let code):
            "\(call) failed: \(String(cString: strerror(code)))"
        case .cannotResolve(let host, let reason):
            "cannot resolve \(host): \(reason)"
        case .cannotConnect(let endpoint, let reason):
            "cannot connect to \(endpoint): \(reason)"
        case .tooFewDescriptors(let needed, let limit):
            "this run needs \(needed) file descriptors but the limit is \(limit) (ulimit -n): lower --concurrency"
        }
    }
}
