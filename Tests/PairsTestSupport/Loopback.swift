import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Plain TCP sockets on 127.0.0.1 for tests: one copy of the address set-up, connect, bind and
/// `getsockname` that tests which talk raw bytes (or need a port nothing listens on) would each write out.
public enum Loopback {
    /// A socket call that failed, with what the system said.
    public struct Failure: Error, CustomStringConvertible {
        public let call: String
        public let reason: String
        public var description: String { "\(call) on 127.0.0.1: \(reason)" }

        init(_ call: String) {
            self.call = call
            reason = String(cString: strerror(errno))
        }
    }

    /// 127.0.0.1 at `port` (0: any free port, when binding).
    public static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    /// A blocking TCP connection to 127.0.0.1 at `port`. The caller closes it.
    public static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        var address = address(port: port)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            let failure = Failure("connect to port \(port)")
            Glibc.close(fd)
            throw failure
        }
        return fd
    }

    /// A socket bound to a free port on 127.0.0.1, listening when `backlog` is given, and its port. Bound
    /// but not listening, it holds a port that refuses connections (so no other test's server can take it)
    /// for as long as it stays open. The caller closes it.
    public static func bind(listening backlog: Int32? = nil) throws -> (socket: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { let failure = Failure("bind"); Glibc.close(fd); throw failure }
        if let backlog, listen(fd, backlog) != 0 { let failure = Failure("listen"); Glibc.close(fd); throw failure }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { let failure = Failure("getsockname"); Glibc.close(fd); throw failure }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
