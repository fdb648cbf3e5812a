import PairsPolling
import PairsTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A socket bound to 127.0.0.1 at a port the kernel picked, listening or not (a bound socket that does not
/// listen holds its port and refuses every connect), closed when the test is done with it.
private final class BoundSocket {
    let fd: Int32
    let address: SocketAddress

    init(listening: Bool) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let any = try SocketAddress.resolve(host: "127.0.0.1", port: 0, for: .listening)[0]
        guard any.withSockaddr({ bind(fd, $0, $1) }) == 0, !listening || listen(fd, 8) == 0 else {
            let code = errno
            close(fd)
            throw SystemCallError(call: "bind", errno: code)
        }
        self.fd = fd
        do {
            address = try SocketAddress(boundTo: fd)
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }
}

@Test("connecting to a listening socket gives a connected, non-blocking socket without Nagle's delay", .ownThread)
func connectsToAListener() throws {
    let listener = try BoundSocket(listening: true)
    let fd = try SocketConnector.connect(to: listener.address, timeoutMilliseconds: 5000).get()
    defer { close(fd) }
    #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
    var noDelay: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    #expect(getsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, &size) == 0)
    #expect(noDelay != 0)
    var peer = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let status = withUnsafeMutablePointer(to: &peer) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
    }
    #expect(status == 0)
    #expect(SocketAddress(storage: peer, length: length).port == listener.address.port)
}

@Test("connecting where nothing listens fails with ECONNREFUSED, said in words", .ownThread)
func refusedConnect() throws {
    let refusing = try BoundSocket(listening: false)
    defer { withExtendedLifetime(refusing) {} }
    let address = refusing.address
    guard case .failure(let error) = SocketConnector.connect(to: address, timeoutMilliseconds: 5000) else {
        Issue.record("connected to \(address), where nothing should listen")
        return
    }
    #expect(error == .failed(errno: ECONNREFUSED))
    #expect("\(error)".lowercased().contains("refused"))
}

@Test("addresses are tried in order: a refusing one is passed over for the next that accepts", .ownThread)
func firstThatAccepts() throws {
    let listener = try BoundSocket(listening: true)
    let refusingSocket = try BoundSocket(listening: false)
    defer { withExtendedLifetime(refusingSocket) {} }
    let refusing = refusingSocket.address
    let connected = try SocketConnector.connectToFirst(of: [refusing, listener.address], timeoutMilliseconds: 5000)
    defer { close(connected.fd) }
    #expect(connected.address.port == listener.address.port)
    #expect(throws: ConnectError.failed(errno: ECONNREFUSED)) {
        _ = try SocketConnector.connectToFirst(of: [refusing], timeoutMilliseconds: 5000)
    }
    #expect(throws: ConnectError.noAddress) {
        _ = try SocketConnector.connectToFirst(of: [], timeoutMilliseconds: 5000)
    }
}

@Test("a connect started without waiting says how it ended once the socket is writable", .ownThread)
func startedConnectEnds() throws {
    let listener = try BoundSocket(listening: true)
    let fd = try SocketConnector.startConnecting(to: listener.address).get()
    defer { close(fd) }
    var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    #expect(poll(&poller, 1, 5000) == 1)
    #expect(SocketConnector.pendingError(of: fd) == 0)
    let refusing = try BoundSocket(listening: false)
    defer { withExtendedLifetime(refusing) {} }
    let refused = try SocketConnector.startConnecting(to: refusing.address).get()
    defer { close(refused) }
    poller = pollfd(fd: refused, events: Int16(POLLOUT), revents: 0)
    #expect(poll(&poller, 1, 5000) == 1)
    #expect(SocketConnector.pendingError(of: refused) == ECONNREFUSED)
}

@Test("the wait is described in seconds when it is whole seconds, else in milliseconds", .ownThread)
func noAnswerIsDescribed() {
    #expect("\(ConnectError.noAnswer(withinMilliseconds: 5000))" == "no answer within 5 seconds")
    #expect("\(ConnectError.noAnswer(withinMilliseconds: 250))" == "no answer within 250 ms")
}
