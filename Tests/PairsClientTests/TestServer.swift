import PairsRules
import PairsServer

/// A real server on 127.0.0.1 and a free port, for one test. Stop it with `stop()` (use `defer`).
func startServer(pairs: Int = 3, revealMilliseconds: Int = 0, turnSeconds: Int = 30, graceSeconds: Int = 60,
                 seed: UInt64? = 11, rateLimit: Int? = nil) throws -> Server {
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.defaultOptions = GameOptions(pairs: pairs, turnSeconds: turnSeconds,
                                               revealMilliseconds: revealMilliseconds, againOnMatch: true)
    configuration.graceSeconds = graceSeconds
    configuration.seed = seed
    if let rateLimit { configuration.rateLimit = rateLimit }
    configuration.logLevel = .error
    let server = Server(configuration: configuration)
    try server.start()
    return server
}
