#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address and port: resolved from a host name or a numeric address, filled in by `accept`,
/// or read from a bound socket. The one address type of the server, the clients and the load generator.
public struct SocketAddress: Sendable, CustomStringConvertible {
    /// What an address is resolved for.
    public enum Use: Sendable {
        /// To listen on: `0.0.0.0` and `::` mean every interface.
        case listening
        /// To connect to.
        case connecting
    }

    private let storage: sockaddr_storage
    public let length: socklen_t

    /// `AF_INET` or `AF_INET6`.
    public var family: Int32 { Int32(storage.ss_family) }

    /// Every address `host` resolves to, in the order the resolver prefers. A name such as `localhost` may
    /// have several (`::1` and `127.0.0.1`), of which a server answers on only one: connecting tries them in
    /// turn (`SocketConnector.connectToFirst`). A bracketed IPv6 address (`[::1]`), as people write one
    /// next to a port, is taken without its brackets.
    public static func resolve(host: String, port: Int, for use: Use) throws(ResolveError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = use == .listening ? AI_PASSIVE | AI_NUMERICSERV : AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(bare(host), String(port), &hints, &results)
        guard status == 0 else {
            let reason = status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
            throw .cannotResolve(host: host, reason: reason)
        }
        defer { freeaddrinfo(results) }
        var addresses: [SocketAddress] = []
        var entry = results
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let address = info.ai_addr else { continue }
            let length = min(info.ai_addrlen, socklen_t(MemoryLayout<sockaddr_storage>.size))
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(length)))
            }
            addresses.append(SocketAddress(storage: storage, length: length))
        }
        guard !addresses.isEmpty else { throw .cannotResolve(host: host, reason: "no address") }
        return addresses
    }

    /// An address as `accept` filled it in.
    public init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    /// The address a socket is bound to (to learn the port the kernel picked for port 0).
    public init(boundTo fd: Int32) throws(SystemCallError) {
        try self.init(of: fd, "getsockname", getsockname)
    }

    /// The address of a connected socket's peer.
    public init(peerOf fd: Int32) throws(SystemCallError) {
        try self.init(of: fd, "getpeername", getpeername)
    }

    private init(of fd: Int32, _ call: String,
                 _ read: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) throws(SystemCallError) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { read(fd, $0, &length) }
        }
        guard status == 0 else { throw SystemCallError(call: call, errno: errno) }
        self.storage = storage
        self.length = length
    }

    public var port: Int {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET: Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
            case AF_INET6: Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
            default: 0
            }
        }
    }

    /// The numeric host (`127.0.0.1`, `::1`).
    public var host: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET:
                var address = raw.load(as: sockaddr_in.self).sin_addr
                _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
            case AF_INET6:
                var address = raw.load(as: sockaddr_in6.self).sin6_addr
                _ = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
            default:
                break
            }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `HOST:PORT` with the numeric host (`SocketAddress.describe`).
    public var description: String { Self.describe(host: host, port: port) }

    /// `HOST:PORT`, with an IPv6 address in brackets so the port stays unambiguous (`[::1]:7777`), whether or
    /// not `host` came with them.
    public static func describe(host: String, port: Int) -> String {
        let host = bare(host)
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Calls `body` with the address as the socket calls want it.
    public func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// `host` without the brackets of `[::1]`.
    private static func bare(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}

/// A host that did not resolve to any address.
public enum ResolveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `reason` is the resolver's, in its words.
    case cannotResolve(host: String, reason: String)

    /// The resolver's reason.
    public var reason: String {
        switch self {
        case .cannotResolve(_, let reason): reason
        }
    }

    public var description: String {
        switch self {
        case .cannotResolve(let host, let reason): "cannot resolve host \"\(host)\": \(reason)"
        }
    }
}
