import PairsWire

/// What a load run measured: games, flips, latency, errors, connections and CPU, as text for a person
/// (`text`) or as one JSON object for a script (`json`, keys listed in `LoadReport.jsonKeys`). The counts
/// read as the report's own properties (`report.flips`, `report.latency`), through `counts`.
@dynamicMemberLookup
public struct LoadReport: Sendable {
    /// `HOST:PORT` of the server.
    public var target = ""
    /// How the connections spoke to it.
    public var transport = LoadTransport.lines
    /// Games played at once.
    public var concurrency = 0
    /// Event loops the connections were spread over.
    public var loops = 1
    public var strategy = ""
    public var thinkMilliseconds = 0
    /// Seconds from the start of the run to its end (before the goodbyes).
    public var durationSeconds = 0.0
    /// Two per game.
    public var connectionsRequested = 0
    /// What the server calls itself in its `welcome` (`pairs 0.1.0`); nil if no welcome was read.
    public var serverVersion: String?

    /// Everything counted during the run.
    public var counts = LoadStatistics()

    /// CPU seconds (user + system) of the load client and, when its pid was given, of the server, over the
    /// same span as `durationSeconds`.
    public var cpuSeconds = 0.0
    public var serverCPUSeconds: Double?

    init() {}

    public subscript<Value>(dynamicMember keyPath: KeyPath<LoadStatistics, Value>) -> Value {
        counts[keyPath: keyPath]
    }

    public var flipsPerSecond: Double { durationSeconds > 0 ? Double(counts.flips) / durationSeconds : 0 }
    public var gamesPerSecond: Double { durationSeconds > 0 ? Double(counts.games) / durationSeconds : 0 }
    public var connectionFailureCount: Int { counts.connectionFailures.values.reduce(0, +) }
    public var connectionDropCount: Int { counts.connectionsDropped.values.reduce(0, +) }
    public var pairingsPerSecond: Double { durationSeconds > 0 ? Double(counts.pairings) / durationSeconds : 0 }
    public var bytesReceivedPerSecond: Double { durationSeconds > 0 ? Double(counts.bytesReceived) / durationSeconds : 0 }
    /// The tournament a run's sessions entered (`LoadConfiguration.tournament`); nil for rooms.
    public var tournament: String?

    /// A latency percentile in milliseconds (`quantile` from 0 to 1).
    public func latencyMilliseconds(atQuantile quantile: Double) -> Double {
        Double(counts.latency.value(atQuantile: quantile)) / 1_000_000
    }

    public var maxLatencyMilliseconds: Double { Double(counts.latency.max) / 1_000_000 }

    /// The keys of `json`, documented in `pairs load --help`; scripts may rely on them.
    public static let jsonKeys = [
        "target", "transport", "concurrency", "loops", "strategy", "think_ms", "duration_s",
        "games", "games_per_s", "games_forfeited", "games_abandoned", "games_unfinished",
        "flips", "flips_per_s", "flips_sent", "flips_refused", "resends",
        "latency_ms", "unfinished_flips", "unfinished_max_ms",
        "errors", "errors_total",
        "connections", "connection_failures", "connections_dropped", "unreadable_lines",
        "cpu_s", "server", "series", "latency_histogram_ms",
        "tournament", "pairings", "pairings_per_s", "free_to_paired_ms", "bytes_received", "bytes_received_per_s",
        "tournament_lines", "tournament_bytes",
    ]

    /// Buckets per doubling in `latency_histogram_ms`: four, so the chart's bars are 19% apart.
    static let histogramBucketsPerDoubling = 4

    /// The summary as one JSON object on one line (without a newline).
    public var json: String {
        var w = JSONWriter(capacity: 1024)
        w.beginObject()
        w.key("target"); w.string(target)
        w.key("transport"); w.string(transport.rawValue)
        w.key("concurrency"); w.integer(concurrency)
        w.key("loops"); w.integer(loops)
        w.key("strategy"); w.string(strategy)
        w.key("think_ms"); w.integer(thinkMilliseconds)
        w.key("duration_s"); w.double(Self.rounded(durationSeconds, 3))
        w.key("games"); w.integer(counts.games)
        w.key("games_per_s"); w.double(Self.rounded(gamesPerSecond, 1))
        w.key("games_forfeited"); w.integer(counts.gamesForfeited)
        w.key("games_abandoned"); w.integer(counts.gamesAbandoned)
        w.key("games_unfinished"); w.integer(counts.gamesUnfinished)
        w.key("flips"); w.integer(counts.flips)
        w.key("flips_per_s"); w.double(Self.rounded(flipsPerSecond, 1))
        w.key("flips_sent"); w.integer(counts.flipsSent)
        w.key("flips_refused"); w.integer(counts.flipsRefused)
        w.key("resends"); w.integer(counts.resends)
        w.key("latency_ms")
        w.beginObject()
        for (name, quantile) in Self.percentiles {
            w.key(name); w.double(Self.rounded(latencyMilliseconds(atQuantile: quantile), 3))
        }
        w.key("max"); w.double(Self.rounded(maxLatencyMilliseconds, 3))
        w.key("samples"); w.integer(counts.latency.count)
        w.endObject()
        w.key("unfinished_flips"); w.integer(counts.unfinishedFlips)
        w.key("unfinished_max_ms"); w.double(Self.rounded(Double(counts.unfinishedMaxNanoseconds) / 1_000_000, 3))
        w.key("errors"); Self.write(counts.errors, to: &w)
        w.key("errors_total"); w.integer(counts.errorCount)
        w.key("connections")
        w.beginObject()
        w.key("requested"); w.integer(connectionsRequested)
        w.key("opened"); w.integer(counts.connectionsOpened)
        w.key("failed"); w.integer(connectionFailureCount)
        w.key("dropped"); w.integer(connectionDropCount)
        w.endObject()
        w.key("connection_failures"); Self.write(counts.connectionFailures, to: &w)
        w.key("connections_dropped"); Self.write(counts.connectionsDropped, to: &w)
        w.key("unreadable_lines"); w.integer(counts.unreadableLines)
        w.key("cpu_s")
        w.beginObject()
        w.key("load"); w.double(Self.rounded(cpuSeconds, 3))
        w.key("server")
        if let serverCPUSeconds { w.double(Self.rounded(serverCPUSeconds, 3)) } else { w.null() }
        w.endObject()
        w.key("server")
        if let serverVersion { w.string(serverVersion) } else { w.null() }
        w.key("series"); writeSeries(to: &w)
        w.key("tournament")
        if let tournament { w.string(tournament) } else { w.null() }
        w.key("pairings"); w.integer(counts.pairings)
        w.key("pairings_per_s"); w.double(Self.rounded(pairingsPerSecond, 1))
        w.key("free_to_paired_ms")
        w.beginObject()
        for (name, quantile) in Self.percentiles {
            w.key(name); w.double(Self.rounded(Double(counts.freeToPaired.value(atQuantile: quantile)) / 1_000_000, 3))
        }
        w.key("max"); w.double(Self.rounded(Double(counts.freeToPaired.max) / 1_000_000, 3))
        w.key("samples"); w.integer(counts.freeToPaired.count)
        w.endObject()
        w.key("bytes_received"); w.integer(counts.bytesReceived)
        w.key("bytes_received_per_s"); w.double(Self.rounded(bytesReceivedPerSecond, 0))
        w.key("tournament_lines"); w.integer(counts.tournamentLines)
        w.key("tournament_bytes"); w.integer(counts.tournamentBytes)
        w.key("latency_histogram_ms")
        w.beginArray()
        for bucket in counts.latency.logBuckets(perPowerOfTwo: Self.histogramBucketsPerDoubling) {
            w.beginArray()
            w.double(Self.rounded(Double(bucket.low) / 1_000_000, 6))
            w.double(Self.rounded(Double(bucket.high) / 1_000_000, 6))
            w.integer(bucket.count)
            w.endArray()
        }
        w.endArray()
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The summary for a person, several lines ending in a newline.
    public var text: String {
        var lines: [String] = []
        let over = transport == .webSocket ? " over WebSockets" : ""
        let spread = loops > 1 ? " on \(loops) loops" : ""
        lines.append("pairs load: \(target)\(over), \(concurrency) game\(concurrency == 1 ? "" : "s") at once\(spread), \(strategy) bots, "
            + "think \(thinkMilliseconds) ms, \(Self.fixed(durationSeconds, 1)) s")
        lines.append("games        \(counts.games) finished (\(Self.fixed(gamesPerSecond, 1))/s), \(counts.gamesForfeited) by forfeit, "
            + "\(counts.gamesAbandoned) abandoned, \(counts.gamesUnfinished) unfinished at the end")
        lines.append("flips        \(counts.flips) (\(Self.fixed(flipsPerSecond, 1))/s), \(counts.flipsRefused) refused, "
            + "\(counts.resends) resent after rate_limited")
        if counts.latency.count == 0 {
            lines.append("latency      no flip was answered")
        } else {
            var latencyLine = "latency      "
            latencyLine += Self.percentiles.map { "\($0.name) \(Self.milliseconds(counts.latency.value(atQuantile: $0.quantile)))" }
                .joined(separator: "  ")
            latencyLine += "  max \(Self.milliseconds(counts.latency.max))  (\(counts.latency.count) samples)"
            lines.append(latencyLine)
        }
        if counts.unfinishedFlips > 0 {
            lines.append("unanswered   \(counts.unfinishedFlips) flip\(counts.unfinishedFlips == 1 ? "" : "s") at the end or in abandoned games, "
                + "oldest \(Self.milliseconds(counts.unfinishedMaxNanoseconds)) (counted in the latency above)")
        }
        if let tournament {
            var line = "tournament   \(tournament): \(counts.pairings) pairings (\(Self.fixed(pairingsPerSecond, 1))/s); free to paired "
            if counts.freeToPaired.count == 0 {
                line += "never paired"
            } else {
                line += Self.percentiles.map { "\($0.name) \(Self.milliseconds(counts.freeToPaired.value(atQuantile: $0.quantile)))" }
                    .joined(separator: "  ")
                line += "  max \(Self.milliseconds(counts.freeToPaired.max))  (\(counts.freeToPaired.count) waits)"
            }
            lines.append(line)
        }
        var received = "received     \(counts.bytesReceived) bytes from the server (\(Self.fixed(bytesReceivedPerSecond / 1_000_000, 2)) MB/s)"
        if counts.tournamentLines > 0 {
            received += ", \(counts.tournamentBytes) of them in \(counts.tournamentLines) tournament lines"
        }
        lines.append(received)
        lines.append("errors       " + (counts.errors.isEmpty ? "none" : Self.list(counts.errors)))
        var connectionLine = "connections  \(counts.connectionsOpened) of \(connectionsRequested) opened, "
            + "\(connectionFailureCount) failed, \(connectionDropCount) dropped"
        if !counts.connectionFailures.isEmpty { connectionLine += "; failed: " + Self.list(counts.connectionFailures) }
        if !counts.connectionsDropped.isEmpty { connectionLine += "; dropped: " + Self.list(counts.connectionsDropped) }
        lines.append(connectionLine)
        if counts.unreadableLines > 0 { lines.append("unreadable   \(counts.unreadableLines) lines from the server could not be read") }
        var cpuLine = "cpu          load client \(Self.fixed(cpuSeconds, 2)) s (\(percent(cpuSeconds)) of one core)"
        if let serverCPUSeconds {
            cpuLine += ", server \(Self.fixed(serverCPUSeconds, 2)) s (\(percent(serverCPUSeconds)))"
        } else {
            cpuLine += "; server: pass --server-pid to compare"
        }
        lines.append(cpuLine)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The timeline, one array per figure with an element per second.
    private func writeSeries(to w: inout JSONWriter) {
        let seconds = counts.timeline.seconds
        func integers(_ key: String, _ value: (LoadSecond) -> Int) {
            w.key(key)
            w.beginArray()
            for second in seconds { w.integer(value(second)) }
            w.endArray()
        }
        func doubles(_ key: String, _ values: [Double?]) {
            w.key(key)
            w.beginArray()
            for value in values {
                if let value { w.double(Self.rounded(value, 3)) } else { w.null() }
            }
            w.endArray()
        }
        w.beginObject()
        w.key("seconds"); w.integer(seconds.count)
        integers("flips") { $0.flips }
        integers("games") { $0.games }
        integers("errors") { $0.errors }
        integers("dropped") { $0.connectionsDropped }
        integers("failed") { $0.connectionsFailed }
        // One histogram, refilled for each second: an hour's seconds as whole histograms would take 200 MB.
        var percentiles = [[Double?]](repeating: [], count: Self.secondPercentiles.count + 1)
        var histogram = LatencyHistogram()
        for second in seconds {
            histogram.reset()
            histogram.add(second.latency)
            for (index, (_, quantile)) in Self.secondPercentiles.enumerated() {
                percentiles[index].append(histogram.count == 0 ? nil : Double(histogram.value(atQuantile: quantile)) / 1_000_000)
            }
            percentiles[Self.secondPercentiles.count].append(histogram.count == 0 ? nil : Double(histogram.max) / 1_000_000)
        }
        w.key("latency_ms")
        w.beginObject()
        for (index, (name, _)) in Self.secondPercentiles.enumerated() { doubles(name, percentiles[index]) }
        doubles("max", percentiles[Self.secondPercentiles.count])
        integers("samples") { Int($0.latency.count) }
        w.endObject()
        w.key("cpu_s")
        w.beginObject()
        doubles("load", seconds.map(\.cpuSeconds))
        if serverCPUSeconds == nil {
            w.key("server"); w.null()
        } else {
            doubles("server", seconds.map(\.serverCPUSeconds))
        }
        w.endObject()
        w.endObject()
    }

    /// The percentiles the timeline gives for each second (p999 of a second's few thousand flips would be
    /// its maximum, nearly).
    static let secondPercentiles: [(name: String, quantile: Double)] = [("p50", 0.5), ("p90", 0.9), ("p99", 0.99)]

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
