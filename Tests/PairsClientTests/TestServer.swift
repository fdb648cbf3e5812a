#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
import PairsRules
import PairsServer

/// A real server on 127.0.0.1 and a free port, for one test. Stop it with `stop()` (use `defer`).
func startServer(pairs: Int = 3, revealMilliseconds: Int = 0, turnSeconds: Int = 30, graceSeconds: Int = 60,
                 seed: UInt64? = 11, rateLimit: Int? = nil) throws -> Server {
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.lobby.defaultRules = RuleSet(pairs: pairs, turnSeconds: turnSeconds,
                                               revealMilliseconds: revealMilliseconds, againOnMatch: true)
    configuration.lobby.graceSeconds = graceSeconds
    configuration.lobby.seed = seed
    if let rateLimit { configuration.lobby.rateLimit = rateLimit > 0 ? RateLimit(messagesPerSecond: rateLimit) : nil }
    configuration.logLevel = .error
    let server = Server(configuration: configuration)
    try server.start()
    return server
}

/// A port on 127.0.0.1 that refuses connections for as long as the returned socket stays open: it is
/// bound (so no other test's server can take it) but not listening. Close the socket when done.
func refusingPort() throws -> (socket: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SocketSetupFailed(call: "socket") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { close(fd); throw SocketSetupFailed(call: "bind") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}

struct SocketSetupFailed: Error {
    var call: String
}
