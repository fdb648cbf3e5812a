#if canImport(Glibc)
import Glibc
#endif
import PairsPolling

/// The socket calls the server makes, in one place, each with why.
enum SocketOptions {
    /// Seconds of silence before the kernel starts probing a peer, and how it probes: a player whose
    /// machine vanished (power cut, cable pulled) is found dead within about a minute, and loses the seat
    /// after the grace period like any other dropped connection.
    static let keepAliveIdleSeconds: Int32 = 30
    static let keepAliveIntervalSeconds: Int32 = 10
    static let keepAliveProbes: Int32 = 3
    /// Unacknowledged data older than this kills the connection even while keepalive would wait.
    static let userTimeoutMilliseconds: UInt32 = 60_000

    /// The kernel's send buffer for each client (Linux doubles it for its bookkeeping). Left to itself the
    /// kernel grows it to `tcp_wmem`'s maximum (4 MiB by default) for a peer that stops reading, so a
    /// stalled client could hold megabytes of the machine before the output buffer's limit noticed it. A
    /// state line is under a kilobyte and a history answer tens of kilobytes, so this still never holds a
    /// reading client back.
    static let sendBufferBytes: Int32 = 64 * 1024

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    /// Options for an accepted client socket: no Nagle delay (a flip's answer is one small line that must
    /// leave at once), a bounded send buffer so that the slow-consumer limit bounds what a peer that does
    /// not read costs, and keepalive to find dead peers.
    static func configureClient(_ fd: Int32) {
        setNonBlocking(fd)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        set(fd, Int32(IPPROTO_TCP), TCP_NODELAY, Int32(1))
        set(fd, SOL_SOCKET, SO_SNDBUF, sendBufferBytes)
        set(fd, SOL_SOCKET, SO_KEEPALIVE, Int32(1))
        set(fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, keepAliveIdleSeconds)
        set(fd, Int32(IPPROTO_TCP), TCP_KEEPINTVL, keepAliveIntervalSeconds)
        set(fd, Int32(IPPROTO_TCP), TCP_KEEPCNT, keepAliveProbes)
        set(fd, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, userTimeoutMilliseconds)
    }

    static func set<Value: BitwiseCopyable>(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Value) {
        withUnsafeBytes(of: value) { bytes in
            _ = setsockopt(fd, level, name, bytes.baseAddress, socklen_t(bytes.count))
        }
    }

    /// A listening socket bound to `address`, non-blocking. SO_REUSEADDR lets a restarted server bind
    /// while old connections linger in TIME_WAIT.
    static func listen(on address: SocketAddress, backlog: Int32) throws(SocketError) -> Int32 {
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(call: "socket", errno: errno) }
        set(fd, SOL_SOCKET, SO_REUSEADDR, Int32(1))
        if address.family == AF_INET6 {
            // "::" serves IPv4 clients too, as a LAN user expects of the default address.
            set(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, Int32(0))
        }
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw .system(call: "bind", errno: code)
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw .system(call: "listen", errno: code)
        }
        setNonBlocking(fd)
        return fd
    }
}
