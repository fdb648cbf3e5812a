import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsTestSupport

/// A TCP forwarder between the load client and the server that can cut one connection in the middle of a
/// run, as a network fault or a crashed peer would: the load client sees its socket closed without a word.
///
/// Each accepted connection gets a connection of its own to the server and two threads copying bytes, one
/// each way (blocking sockets: the tests using it have a handful of connections).
final class CuttingProxy: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let serverPort: Int
    private let lock = NSLock()
    /// Client and server descriptors of each accepted connection, in the order they were accepted.
    private var pairs: [(client: Int32, server: Int32)] = []
    private var closed = false

    init(serverPort: Int) throws {
        self.serverPort = serverPort
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            Glibc.close(fd)
            throw TimedOut(what: "the proxy's listening socket")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// How many connections were accepted so far.
    var accepted: Int {
        lock.lock()
        defer { lock.unlock() }
        return pairs.count
    }

    /// Cuts connection `index` (in accept order) on both sides at once.
    func cut(_ index: Int) {
        lock.lock()
        let pair = pairs[index]
        lock.unlock()
        shutdown(pair.client, Int32(SHUT_RDWR))
        shutdown(pair.server, Int32(SHUT_RDWR))
    }

    /// Stops accepting and cuts everything.
    func close() {
        lock.lock()
        closed = true
        let all = pairs
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        for pair in all {
            shutdown(pair.client, Int32(SHUT_RDWR))
            shutdown(pair.server, Int32(SHUT_RDWR))
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: serverPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                Glibc.close(client)
                Glibc.close(server)
                continue
            }
            lock.lock()
            let isClosed = closed
            pairs.append((client, server))
            lock.unlock()
            if isClosed {
                shutdown(client, Int32(SHUT_RDWR))
                shutdown(server, Int32(SHUT_RDWR))
            }
            let finished = DispatchGroup()
            for (from, to) in [(client, server), (server, client)] {
                finished.enter()
                Thread.detachNewThread {
                    Self.pump(from: from, to: to)
                    finished.leave()
                }
            }
            finished.notify(queue: .global()) {
                Glibc.close(client)
                Glibc.close(server)
            }
        }
    }

    /// Copies bytes until either side ends, then ends the other side too.
    private static func pump(from source: Int32, to target: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { Glibc.send(target, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL)) }
                if written <= 0 {
                    shutdown(source, Int32(SHUT_RDWR))
                    return
                }
                offset += written
            }
        }
        shutdown(target, Int32(SHUT_RDWR))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
