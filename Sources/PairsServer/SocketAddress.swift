#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address and port, resolved from a numeric host or a name such as `localhost`.
struct SocketAddress: CustomStringConvertible {
    private(set) var storage = sockaddr_storage()
    let length: socklen_t

    var family: Int32 { Int32(storage.ss_family) }

    /// Resolves `host` for a listening (passive) socket. Numeric addresses are used as they are.
    init(host: String, port: Int) throws(SocketError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw .resolve(host: host, message: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(results) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        self.storage = storage
        self.length = first.pointee.ai_addrlen
    }

    /// An address as `accept` filled it in.
    init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    /// The address a socket is bound to (to learn the port the kernel picked for port 0).
    init(boundTo fd: Int32) throws(SocketError) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { throw .system(call: "getsockname", errno: errno) }
        self.storage = storage
        self.length = length
    }

    var port: Int {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET: Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
            case AF_INET6: Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
            default: 0
            }
        }
    }

    /// The numeric host, with IPv6 in brackets so `HOST:PORT` stays unambiguous.
    var host: String {
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
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return family == AF_INET6 ? "[\(text)]" : text
    }

    var description: String { "\(host):\(port)" }

    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}

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
