#if canImport(Glibc)
import Glibc
#endif

/// The one socket address every connection of a run connects to, resolved once before the run.
///
/// Resolving a host name thousands of times would cost more than the connections themselves; and a name
/// such as `localhost` may have several addresses of which a server on `0.0.0.0` answers only one, so
/// when there are several, each is tried with one blocking connect until one accepts.
struct ServerAddress {
    /// How long the probe of one address may take when a name has several.
    static let probeTimeoutMilliseconds: Int32 = 3000

    private let storage: sockaddr_storage
    let length: socklen_t
    let family: Int32
    /// `HOST:PORT`, for messages.
    let description: String

    /// Resolves `host` and picks the address to use. Throws when it does not resolve, or when it has several
    /// addresses and none accepts a connection.
    static func resolve(host: String, port: Int) throws(LoadError) -> ServerAddress {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        // A bracketed IPv6 address ([::1]) is how people write one next to a port; the resolver wants it bare.
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(bare, String(port), &hints, &results)
        guard status == 0, results != nil else {
            let reason = status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
            throw .cannotResolve(host: host, reason: reason)
        }
        defer { freeaddrinfo(results) }
        var candidates: [ServerAddress] = []
        var entry = results
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let address = info.ai_addr else { continue }
            candidates.append(ServerAddress(address, length: info.ai_addrlen, family: info.ai_family, host: bare, port: port))
        }
        guard let first = candidates.first else { throw .cannotResolve(host: host, reason: "no address") }
        if candidates.count == 1 { return first }
        var lastFailure = "no address to try"
        for candidate in candidates {
            let failure = candidate.probe()
            if failure == nil { return candidate }
            lastFailure = failure!
        }
        throw .cannotConnect(endpoint: "\(host):\(port)", reason: lastFailure)
    }

    private init(_ address: UnsafePointer<sockaddr>, length: socklen_t, family: Int32, host: String, port: Int) {
        let length = min(length, socklen_t(MemoryLayout<sockaddr_storage>.size))
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(length)))
        }
        self.storage = storage
        self.length = length
        self.family = family
        description = family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Calls `body` with the address as the socket calls want it.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafeBytes(of: storage) { bytes in
            body(bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }

    /// One connect with a timeout, closed at once; nil when it was accepted, else why not.
    private func probe() -> String? {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        if withSockaddr({ connect(fd, $0, $1) }) == 0 { return nil }
        guard errno == EINPROGRESS else { return String(cString: strerror(errno)) }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&poller, 1, Self.probeTimeoutMilliseconds) > 0 else { return "no answer" }
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
        return error == 0 ? nil : String(cString: strerror(error))
    }
}
