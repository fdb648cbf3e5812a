/// What one progress line shows: the counts so far and the flips and latencies since the last line. A
/// runner takes it on its own queue (`LoadRunner.takeProgress`); a run on several loops adds its loops'
/// together, once a second, and prints one line.
struct LoadProgress: Sendable {
    var connectionsOpened = 0
    var connectionsRequested = 0
    var games = 0
    /// Flips answered since the last line.
    var flips = 0
    var errors = 0
    /// Connections that failed or were dropped so far.
    var connectionsLost = 0
    /// The latencies since the last line.
    var latency = LatencyHistogram()

    /// Adds another loop's counts.
    mutating func add(_ other: LoadProgress) {
        connectionsOpened += other.connectionsOpened
        connectionsRequested += other.connectionsRequested
        games += other.games
        flips += other.flips
        errors += other.errors
        connectionsLost += other.connectionsLost
        latency.add(other.latency)
    }

    /// The line, `elapsed` seconds into the run.
    func line(elapsed: Double) -> String {
        var line = "\(LoadReport.fixed(elapsed, 0))s"
        if connectionsOpened < connectionsRequested { line += "  connected \(connectionsOpened)/\(connectionsRequested)" }
        line += "  games \(games)  flips/s \(flips)"
        line += "  p50 \(LoadReport.milliseconds(latency.value(atQuantile: 0.5)))"
        line += "  p99 \(LoadReport.milliseconds(latency.value(atQuantile: 0.99)))"
        line += "  errors \(errors)"
        if connectionsLost > 0 { line += "  connections lost \(connectionsLost)" }
        return line
    }
}
