import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP forwarder on 127.0.0.1 between clients and a server, for tests: it can cut a connection in the
/// middle of a run, as a network fault or a crashed peer would, and it can rewrite what the server sends,
/// to make this server look like another one.
///
/// Each accepted connection gets a connection of its own to the server and two threads copying bytes, one
/// each way (blocking sockets: the tests using it have a handful of connections).
public final class TCPProxy: @unchecked Sendable {
    /// Rewrites the lines one connection's server sends, in order: each line (without its newline) becomes
    /// the bytes returned, which must be whole lines, newlines included. Called on that connection's thread
    /// only, so it may keep state of its own.
    public typealias LineRewriter = ([UInt8]) -> [UInt8]

    /// Bytes read from a socket at a time.
    static let chunkBytes = 16 * 1024

    public let port: Int
    private let listener: Int32
    private let serverPort: Int
    private let makeRewriter: (@Sendable () -> LineRewriter)?
    private let lock = NSLock()
    /// Client and server descriptors of each accepted connection, in the order they were accepted, and
    /// whether they are still open: once closed, their numbers may belong to another test's sockets, which
    /// a late `cut` or `close` must not shut down.
    private var pairs: [(client: Int32, server: Int32, isOpen: Bool)] = []
    private var closed = false

    /// A proxy to the server on `serverPort`. With `makeRewriter`, each connection's server lines go
    /// through a rewriter of its own; without, bytes pass unchanged.
    public init(serverPort: Int, rewritingServerLines makeRewriter: (@Sendable () -> LineRewriter)? = nil) throws {
        self.serverPort = serverPort
        self.makeRewriter = makeRewriter
        (listener, port) = try Loopback.bind(listening: 128)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// How many connections were accepted so far.
    public var accepted: Int {
        lock.lock()
        defer { lock.unlock() }
        return pairs.count
    }

    /// Cuts connection `index` (in accept order) on both sides at once.
    public func cut(_ index: Int) {
        lock.lock()
        defer { lock.unlock() }
        let pair = pairs[index]
        guard pair.isOpen else { return }
        shutdown(pair.client, Int32(SHUT_RDWR))
        shutdown(pair.server, Int32(SHUT_RDWR))
    }

    /// Stops accepting and cuts everything.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        closed = true
        // Wakes the accept loop, which closes the listening socket itself on its way out: closed here, its
        // number could go to another test's socket while the loop is between two `accept` calls, and the
        // next call would take that socket's connections.
        shutdown(listener, Int32(SHUT_RDWR))
        for pair in pairs where pair.isOpen {
            shutdown(pair.client, Int32(SHUT_RDWR))
            shutdown(pair.server, Int32(SHUT_RDWR))
        }
    }

    private func acceptLoop() {
        defer { Glibc.close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            guard let server = try? Loopback.connect(port: serverPort) else {
                Glibc.close(client)
                continue
            }
            lock.lock()
            let isClosed = closed
            let index = pairs.count
            pairs.append((client, server, true))
            lock.unlock()
            if isClosed {
                shutdown(client, Int32(SHUT_RDWR))
                shutdown(server, Int32(SHUT_RDWR))
            }
            let finished = DispatchGroup()
            let directions: [(from: Int32, to: Int32, rewriting: (@Sendable () -> LineRewriter)?)] =
                [(client, server, nil), (server, client, makeRewriter)]
            for direction in directions {
                finished.enter()
                Thread.detachNewThread {
                    // Made on the thread that uses it: a rewriter keeps state and is not shared.
                    Self.pump(from: direction.from, to: direction.to, rewriting: direction.rewriting?())
                    finished.leave()
                }
            }
            finished.notify(queue: .global()) { [self] in
                // Closed under the lock, so no `cut` or `close` can reach the numbers once they are free.
                lock.lock()
                defer { lock.unlock() }
                pairs[index].isOpen = false
                Glibc.close(client)
                Glibc.close(server)
            }
        }
    }

    /// Copies bytes (whole lines through `rewrite`, if given) until either side ends, then ends the other
    /// side too.
    private static func pump(from source: Int32, to target: Int32, rewriting rewrite: LineRewriter?) {
        var buffer = [UInt8](repeating: 0, count: chunkBytes)
        var partial: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            var output = Array(buffer[..<count])
            if let rewrite {
                partial += output
                output = []
                while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                    output += rewrite(Array(partial[..<newline]))
                    partial.removeSubrange(...newline)
                }
            }
            guard send(output, to: target) else {
                shutdown(source, Int32(SHUT_RDWR))
                return
            }
        }
        _ = send(partial, to: target)
        shutdown(target, Int32(SHUT_RDWR))
    }

    /// Writes all of `bytes`; false if the target is gone.
    private static func send(_ bytes: [UInt8], to target: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(target, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}
