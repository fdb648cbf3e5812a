#if canImport(Glibc)
import Glibc
#endif

/// A failed socket call, with the call's name and errno, or a host that did not resolve.
public enum SocketError: Error, CustomStringConvertible, Sendable {
    case system(call: String, errno: Int32)
    case resolve(host: String, message: String)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .resolve(let host, let message): "cannot resolve host \"\(host)\": \(message)"
        }
    }
}
