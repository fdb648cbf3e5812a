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
    configuration.log.level = .error
    let server = Server(configuration: configuration)
    try server.start()
    return server
}

