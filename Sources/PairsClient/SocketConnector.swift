#if canImport(Glibc)
import Glibc
#endif

/// Resolves a host and opens a connected TCP socket to it, with a timeout.
///
/// A host name can have several addresses (`localhost` is usually `::1` and `127.0.0.1`), and a server
/// listening on `0.0.0.0` answers on only one of them, so each address is tried in the order the resolver
/// gives until one accepts.
enum SocketConnector {
    /// A connected, blocking socket with a send timeout and Nagle's algorithm off (a request is one small
    /// write, and a game waits for its answer).
    static func connect(to endpoint: ServerEndpoint, timeoutMilliseconds: Int, sendTimeoutSeconds: Int) throws(ConnectionError) -> Int32 {
        guard (1...65535).contains(endpoint.port) else { throw .badPort(endpoint.port) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        // A bracketed IPv6 address ([::1]) is how people write one next to a port; the resolver wants it bare.
        let host = endpoint.host.hasPrefix("[") && endpoint.host.hasSuffix("]")
            ? String(endpoint.host.dropFirst().dropLast()) : endpoint.host
        let status = getaddrinfo(host, String(endpoint.port), &hints, &results)
        guard status == 0, results != nil else {
            let reason = status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
            throw .cannotResolve(host: endpoint.host, reason: reason)
        }
        defer { freeaddrinfo(results) }

        var lastFailure = "no address to try"
        var entry = results
        while let address = entry?.pointee {
            entry = address.ai_next
            switch attempt(address, timeoutMilliseconds: timeoutMilliseconds) {
            case .success(let fd):
                configure(fd, sendTimeoutSeconds: sendTimeoutSeconds)
                return fd
            case .failure(let reason):
                lastFailure = reason
            }
        }
        throw .cannotConnect(endpoint, reason: lastFailure)
    }

    private enum Attempt {
        case success(Int32)
        case failure(String)
    }

    /// One address: a non-blocking connect, so the wait can be bounded with `poll`, then back to blocking.
    private static func attempt(_ address: addrinfo, timeoutMilliseconds: Int) -> Attempt {
        let fd = socket(address.ai_family, address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), address.ai_protocol)
        guard fd >= 0 else { return .failure(describe(errno)) }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        if Glibc.connect(fd, address.ai_addr, address.ai_addrlen) != 0 {
            let error = errno
            guard error == EINPROGRESS || error == EINTR else {
                Glibc.close(fd)
                return .failure(describe(error))
            }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            var ready: Int32
            repeat {
                ready = poll(&poller, 1, Int32(timeoutMilliseconds))
            } while ready < 0 && errno == EINTR
            guard ready > 0 else {
                Glibc.close(fd)
                return .failure(ready == 0 ? "no answer within \(timeoutMilliseconds / 1000) seconds" : describe(errno))
            }
            var socketError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length)
            guard socketError == 0 else {
                Glibc.close(fd)
                return .failure(describe(socketError))
            }
        }
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        return .success(fd)
    }

    private static func configure(_ fd: Int32, sendTimeoutSeconds: Int) {
        var timeout = timeval(tv_sec: sendTimeoutSeconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// The system's words for `error`, with a hint for the one every player meets first.
    private static func describe(_ error: Int32) -> String {
        if error == ECONNREFUSED { return "connection refused (is the server running, on that port?)" }
        return String(cString: strerror(error))
    }
}
