import PairsWire

/// What a load run measured: games, flips, latency, errors, connections and CPU, as text for a person
/// (`text`) or as one JSON object for a script (`json`, keys listed in `LoadReport.jsonKeys`).
public struct LoadReport: Sendable {
    /// `HOST:PORT` of the server.
    public var target = ""
    /// Games played at once.
    public var concurrency = 0
    public var strategy = ""
    public var thinkMilliseconds = 0
    /// Seconds from the start of the run to its end (before the goodbyes).
    public var durationSeconds = 0.0

    /// Games that reached their end (`over`, or a `forfeit`).
    public var games = 0
    /// Of `games`, those that ended by a forfeit (three turn timeouts).
    public var gamesForfeited = 0
    /// Games given up because a connection failed or dropped.
    public var gamesAbandoned = 0
    /// Games still being played when the run ended (a `--duration` run stops mid-game).
    public var gamesUnfinished = 0

    /// Flips answered by the state carrying their id.
    public var flips = 0
    public var flipsSent = 0
    /// Flips refused with an error other than `rate_limited`.
    public var flipsRefused = 0
    /// Requests sent again after `rate_limited`.
    public var resends = 0

    /// Flip latencies, from the moment a flip was meant to leave (state arrival plus think time) to the
    /// arrival of the state carrying its id. Includes the age of flips still unanswered at the end.
    public var latency = LatencyHistogram()
    public var unfinishedFlips = 0
    public var unfinishedMaxNanoseconds: UInt64 = 0

    /// `error` replies by code.
    public var errors: [String: Int] = [:]
    public var errorCount = 0

    public var connectionsRequested = 0
    public var connectionsOpened = 0
    /// Connections that never took their seat, by reason.
    public var connectionFailures: [String: Int] = [:]
    /// Connections lost after taking their seat, by reason.
    public var connectionsDropped: [String: Int] = [:]
    public var unreadableLines = 0

    /// CPU seconds (user + system) of the load client and, when its pid was given, of the server, over the
    /// same span as `durationSeconds`.
    public var cpuSeconds = 0.0
    public var serverCPUSeconds: Double?

    public init() {}

    public var flipsPerSecond: Double { durationSeconds > 0 ? Double(flips) / durationSeconds : 0 }
    public var gamesPerSecond: Double { durationSeconds > 0 ? Double(games) / durationSeconds : 0 }
    public var connectionFailureCount: Int { connectionFailures.values.reduce(0, +) }
    public var connectionDropCount: Int { connectionsDropped.values.reduce(0, +) }

    /// A latency percentile in milliseconds (`quantile` from 0 to 1).
    public func latencyMilliseconds(atQuantile quantile: Double) -> Double {
        Double(latency.value(atQuantile: quantile)) / 1_000_000
    }

    public var maxLatencyMilliseconds: Double { Double(latency.max) / 1_000_000 }

    /// The keys of `json`, documented in `pairs load --help`; scripts may rely on them.
    public static let jsonKeys = [
        "target", "concurrency", "strategy", "think_ms", "duration_s",
        "games", "games_per_s", "games_forfeited", "games_abandoned", "games_unfinished",
        "flips", "flips_per_s", "flips_sent", "flips_refused", "resends",
        "latency_ms", "unfinished_flips", "unfinished_max_ms",
        "errors", "errors_total",
        "connections", "connection_failures", "connections_dropped", "unreadable_lines",
        "cpu_s",
    ]

    /// The summary as one JSON object on one line (without a newline).
    public var json: String {
        var w = JSONWriter(capacity: 1024)
        w.beginObject()
        w.key("target"); w.string(target)
        w.key("concurrency"); w.integer(concurrency)
        w.key("strategy"); w.string(strategy)
        w.key("think_ms"); w.integer(thinkMilliseconds)
        w.key("duration_s"); w.double(Self.rounded(durationSeconds, 3))
        w.key("games"); w.integer(games)
        w.key("games_per_s"); w.double(Self.rounded(gamesPerSecond, 1))
        w.key("games_forfeited"); w.integer(gamesForfeited)
        w.key("games_abandoned"); w.integer(gamesAbandoned)
        w.key("games_unfinished"); w.integer(gamesUnfinished)
        w.key("flips"); w.integer(flips)
        w.key("flips_per_s"); w.double(Self.rounded(flipsPerSecond, 1))
        w.key("flips_sent"); w.integer(flipsSent)
        w.key("flips_refused"); w.integer(flipsRefused)
        w.key("resends"); w.integer(resends)
        w.key("latency_ms")
        w.beginObject()
        for (name, quantile) in Self.percentiles {
            w.key(name); w.double(Self.rounded(latencyMilliseconds(atQuantile: quantile), 3))
        }
        w.key("max"); w.double(Self.rounded(maxLatencyMilliseconds, 3))
        w.key("samples"); w.integer(latency.count)
        w.endObject()
        w.key("unfinished_flips"); w.integer(unfinishedFlips)
        w.key("unfinished_max_ms"); w.double(Self.rounded(Double(unfinishedMaxNanoseconds) / 1_000_000, 3))
        w.key("errors"); Self.write(errors, to: &w)
        w.key("errors_total"); w.integer(errorCount)
        w.key("connections")
        w.beginObject()
        w.key("requested"); w.integer(connectionsRequested)
        w.key("opened"); w.integer(connectionsOpened)
        w.key("failed"); w.integer(connectionFailureCount)
        w.key("dropped"); w.integer(connectionDropCount)
        w.endObject()
        w.key("connection_failures"); Self.write(connectionFailures, to: &w)
        w.key("connections_dropped"); Self.write(connectionsDropped, to: &w)
        w.key("unreadable_lines"); w.integer(unreadableLines)
        w.key("cpu_s")
        w.beginObject()
        w.key("load"); w.double(Self.rounded(cpuSeconds, 3))
        w.key("server")
        if let serverCPUSeconds { w.double(Self.rounded(serverCPUSeconds, 3)) } else { w.null() }
        w.endObject()
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The summary for a person, several lines ending in a newline.
    public var text: String {
        var lines: [String] = []
        lines.append("pairs load: \(target), \(concurrency) game\(concurrency == 1 ? "" : "s") at once, \(strategy) bots, "
            + "think \(thinkMilliseconds) ms, \(Self.fixed(durationSeconds, 1)) s")
        lines.append("games        \(games) finished (\(Self.fixed(gamesPerSecond, 1))/s), \(gamesForfeited) by forfeit, "
            + "\(gamesAbandoned) abandoned, \(gamesUnfinished) unfinished at the end")
        lines.append("flips        \(flips) (\(Self.fixed(flipsPerSecond, 1))/s), \(flipsRefused) refused, "
            + "\(resends) resent after rate_limited")
        if latency.count == 0 {
            lines.append("latency      no flip was answered")
        } else {
            var latencyLine = "latency      "
            latencyLine += Self.percentiles.map { "\($0.name) \(Self.milliseconds(latency.value(atQuantile: $0.quantile)))" }
                .joined(separator: "  ")
            latencyLine += "  max \(Self.milliseconds(latency.max))  (\(latency.count) samples)"
            lines.append(latencyLine)
        }
        if unfinishedFlips > 0 {
            lines.append("unanswered   \(unfinishedFlips) flip\(unfinishedFlips == 1 ? "" : "s") at the end or in abandoned games, "
                + "oldest \(Self.milliseconds(unfinishedMaxNanoseconds)) (counted in the latency above)")
        }
        lines.append("errors       " + (errors.isEmpty ? "none" : Self.list(errors)))
        var connectionLine = "connections  \(connectionsOpened) of \(connectionsRequested) opened, "
            + "\(connectionFailureCount) failed, \(connectionDropCount) dropped"
        if !connectionFailures.isEmpty { connectionLine += "; failed: " + Self.list(connectionFailures) }
        if !connectionsDropped.isEmpty { connectionLine += "; dropped: " + Self.list(connectionsDropped) }
        lines.append(connectionLine)
        if unreadableLines > 0 { lines.append("unreadable   \(unreadableLines) lines from the server could not be read") }
        var cpuLine = "cpu          load client \(Self.fixed(cpuSeconds, 2)) s (\(percent(cpuSeconds)) of one core)"
        if let serverCPUSeconds {
            cpuLine += ", server \(Self.fixed(serverCPUSeconds, 2)) s (\(percent(serverCPUSeconds)))"
        } else {
            cpuLine += "; server: pass --server-pid to compare"
        }
        lines.append(cpuLine)
        return lines.joined(separator: "\n") + "\n"
    }

    static let percentiles: [(name: String, quantile: Double)] = [("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p999", 0.999)]

    private func percent(_ seconds: Double) -> String {
        // A share of a run too short to measure would only be noise.
        durationSeconds >= 0.1 ? "\(Int((seconds / durationSeconds * 100).rounded()))%" : "-"
    }

    private static func write(_ counts: [String: Int], to w: inout JSONWriter) {
        w.beginObject()
        for key in counts.keys.sorted() {
            w.key(key); w.integer(counts[key]!)
        }
        w.endObject()
    }

    private static func list(_ counts: [String: Int]) -> String {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    static func rounded(_ value: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    /// `value` with exactly `digits` decimals, without Foundation.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((abs(value) * Double(scale)).rounded())
        let whole = scaled / scale
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard digits > 0 else { return "\(sign)\(whole)" }
        var fraction = String(scaled % scale)
        while fraction.count < digits { fraction = "0" + fraction }
        return "\(sign)\(whole).\(fraction)"
    }

    /// Nanoseconds as milliseconds with three significant decimals at most: `0.412 ms`, `12.3 ms`, `1520 ms`.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let value = Double(nanoseconds) / 1_000_000
        let digits = value < 1 ? 3 : value < 10 ? 2 : value < 100 ? 1 : 0
        return "\(fixed(value, digits)) ms"
    }
}
