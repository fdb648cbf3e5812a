#if canImport(Glibc)
import Glibc
#endif

/// Opening TCP connections, for the clients and the load generator: a non-blocking connect to watch in a
/// poller, and a connect that waits a bounded time, address after address.
///
/// Every socket opened here has Nagle's algorithm off: a Pairs request is one small write and a game waits
/// for its answer.
public enum SocketConnector {
    /// A new non-blocking socket whose connect to `address` has started (or already completed). The socket
    /// becomes writable once the connect is over; `pendingError(of:)` then says whether it succeeded.
    public static func startConnecting(to address: SocketAddress) -> Result<Int32, ConnectError> {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(address.family, type, 0)
        guard fd >= 0 else { return .failure(.failed(errno: errno)) }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if address.withSockaddr({ Glibc.connect(fd, $0, $1) }) == 0 { return .success(fd) }
        let code = errno
        // EINTR leaves the connect going on in the background, exactly as EINPROGRESS does.
        guard code == EINPROGRESS || code == EINTR else {
            close(fd)
            return .failure(.failed(errno: code))
        }
        return .success(fd)
    }

    /// A non-blocking socket connected to `address` within `timeoutMilliseconds`, or why not.
    public static func connect(to address: SocketAddress, timeoutMilliseconds: Int) -> Result<Int32, ConnectError> {
        let fd: Int32
        switch startConnecting(to: address) {
        case .success(let started): fd = started
        case .failure(let error): return .failure(error)
        }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        var ready: Int32
        repeat {
            ready = poll(&poller, 1, Int32(clamping: timeoutMilliseconds))
        } while ready < 0 && errno == EINTR
        let error = ready > 0 ? pendingError(of: fd) : errno
        guard ready > 0, error == 0 else {
            close(fd)
            return .failure(ready == 0 ? .noAnswer(withinMilliseconds: timeoutMilliseconds) : .failed(errno: error))
        }
        return .success(fd)
    }

    /// Tries `addresses` in order, each within `timeoutMilliseconds`, and returns the first connected socket
    /// (non-blocking) with the address that took it; throws the last failure when none does.
    public static func connectToFirst(
        of addresses: [SocketAddress], timeoutMilliseconds: Int
    ) throws(ConnectError) -> (fd: Int32, address: SocketAddress) {
        var lastFailure = ConnectError.noAddress
        for address in addresses {
            switch connect(to: address, timeoutMilliseconds: timeoutMilliseconds) {
            case .success(let fd): return (fd, address)
            case .failure(let error): lastFailure = error
            }
        }
        throw lastFailure
    }

    /// How the connect of a socket from `startConnecting` ended, once it is writable: 0 when it connected,
    /// else its `errno`.
    public static func pendingError(of fd: Int32) -> Int32 {
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 ? error : errno
    }
}

/// Why a connection could not be opened.
public enum ConnectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There was no address to try.
    case noAddress
    /// The server did not accept within the time allowed.
    case noAnswer(withinMilliseconds: Int)
    /// The system refused: `ECONNREFUSED` when nothing listens, `ENETUNREACH`, ...
    case failed(errno: Int32)

    public var description: String {
        switch self {
        case .noAddress:
            "no address to try"
        case .noAnswer(let milliseconds) where milliseconds % 1000 == 0:
            "no answer within \(milliseconds / 1000) seconds"
        case .noAnswer(let milliseconds):
            "no answer within \(milliseconds) ms"
        case .failed(let code):
            String(cString: strerror(code))
        }
    }
}
