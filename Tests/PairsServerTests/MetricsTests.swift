import Foundation
@testable import PairsServer
import PairsTestSupport
import PairsWeb
import PairsWire
import Testing

/// One scrape of `/metrics` as Prometheus reads it: the families declared by `# HELP` and `# TYPE`, and
/// every sample with its labels. Parsing fails the test on any line that is not one of the three.
private struct Scrape {
    struct Sample: Hashable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    var help: [String: String] = [:]
    var types: [String: String] = [:]
    var samples: [Sample] = []
    let text: String

    init(_ text: String) throws {
        self.text = text
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { continue }
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst(7).split(separator: " ", maxSplits: 1)
                try #require(parts.count == 2, "a comment line with no name and text: \(line)")
                let name = String(parts[0])
                if line.hasPrefix("# HELP ") { help[name] = String(parts[1]) } else { types[name] = String(parts[1]) }
                continue
            }
            samples.append(try Self.sample(line))
        }
    }

    /// `name{a="x",b="y"} value`: the names and values the server writes have no spaces, braces or quotes
    /// escaped in them, which the label check below verifies.
    private static func sample(_ line: Substring) throws -> Sample {
        let space = try #require(line.lastIndex(of: " "), "a sample with no value: \(line)")
        let value = try #require(Double(line[line.index(after: space)...].replacingOccurrences(of: "+Inf", with: "inf")),
                                 "not a number: \(line)")
        var head = line[..<space]
        var labels: [String: String] = [:]
        if let brace = head.firstIndex(of: "{") {
            try #require(head.last == "}", "labels not closed: \(line)")
            for pair in head[head.index(after: brace)..<head.index(before: head.endIndex)].split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                try #require(parts.count == 2 && parts[1].hasPrefix("\"") && parts[1].hasSuffix("\""), "a label that is not name=\"value\": \(line)")
                labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
            }
            head = head[..<brace]
        }
        return Sample(name: String(head), labels: labels, value: value)
    }

    /// The family a sample belongs to: a histogram's `_bucket`, `_sum` and `_count` are its own.
    func family(of sample: Sample) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where sample.name.hasSuffix(suffix) {
            let base = String(sample.name.dropLast(suffix.count))
            if types[base] == "histogram" { return base }
        }
        return sample.name
    }

    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    /// Every sample of a counter family (and every histogram count and sum), by name and labels.
    var monotoneSamples: [String: Double] {
        var found: [String: Double] = [:]
        for sample in samples {
            let type = types[family(of: sample)]
            guard type == "counter" || type == "histogram" else { continue }
            found["\(sample.name)\(sample.labels.sorted { $0.key < $1.key })"] = sample.value
        }
        return found
    }
}

private func scrape(_ port: Int) throws -> (reply: HTTPReply, scrape: Scrape) {
    let client = try TestClient(port: port)
    client.sendRaw(Array("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
    let bytes = try client.readToEnd(within: 20)
    let reply = try #require(HTTPReply(bytes), "not an HTTP response: \(String(decoding: bytes, as: UTF8.self).prefix(200))")
    return (reply, try Scrape(reply.text))
}

/// Checks that `name`'s buckets are in order of their bounds, never go down, and end with +Inf equal to `_count`.
private func expectCumulative(_ name: String, in scrape: Scrape) throws {
    let buckets = scrape.samples.filter { $0.name == name + "_bucket" }
    #expect(buckets.count == AnswerLatency.boundsMicroseconds.count + 1, "\(name)")
    let bounds = buckets.compactMap { Double($0.labels["le"]!.replacingOccurrences(of: "+Inf", with: "inf")) }
    #expect(bounds == bounds.sorted() && bounds.last == .infinity, "\(name)")
    #expect(zip(buckets, buckets.dropFirst()).allSatisfy { $0.value <= $1.value }, "\(name)")
    #expect(buckets.last?.value == scrape.value(name + "_count"), "\(name)")
}

/// A few bot games kept running on `server` by `pairs load`, for as long as the test runs.
private func botGames(on server: Server) throws -> Subprocess {
    try Subprocess(Tools.pairs(), ["load", "--host", "127.0.0.1", "--port", String(server.port), "--concurrency", "3",
                                   "--duration", "120", "--room-prefix", "metrics-"])
}

/// The server's counters, without going through HTTP.
private func waitForFlips(beyond flips: Int, andGames games: Int = 0, on server: Server) throws {
    try blockingWaitUntil("flips beyond \(flips) and \(games) games finished", within: 30) {
        let stats = server.statistics()
        return stats.flips > flips && stats.gamesFinished >= games
    }
}

@Suite("Prometheus metrics", .ownThread)
struct MetricsTests {
    @Test("every /metrics family has HELP and TYPE, counters only grow between scrapes with games between, and histogram buckets are cumulative with +Inf equal to the count")
    func scrapesUnderLoad() throws {
        let server = try startServer()
        defer { server.stop() }
        let bots = try botGames(on: server)
        defer { bots.terminate() }
        // One error of a known code, so a labelled counter is seen above zero.
        let stray = try TestClient(port: server.port)
        stray.send(#"{"type":"flip","card":0}"#)
        _ = try stray.waitFor("not_in_room", within: 20) { if case .error(let error) = $0 { error.code == .notInRoom } else { false } }
        try waitForFlips(beyond: 0, andGames: 1, on: server)

        let (reply, first) = try scrape(server.port)
        #expect(reply.status == 200)
        #expect(reply["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(reply["Cache-Control"] == "no-store")
        try waitForFlips(beyond: Int(first.value("pairs_flips_total") ?? 0), on: server)
        let second = try scrape(server.port).scrape

        var expected: [String: String] = [
            "pairs_connections": "gauge", "pairs_rooms": "gauge", "pairs_games_in_progress": "gauge",
            "pairs_games_finished_total": "counter", "pairs_flips_total": "counter",
            "pairs_messages_received_total": "counter", "pairs_messages_sent_total": "counter",
            "pairs_bytes_received_total": "counter", "pairs_bytes_sent_total": "counter", "pairs_errors_total": "counter",
            "pairs_uptime_seconds": "gauge", "pairs_storage_enabled": "gauge", "pairs_storage_failing": "gauge",
            "pairs_games_stored": "gauge",
            "pairs_storage_errors_total": "counter", "pairs_answer_duration_seconds": "histogram",
            "pairs_store_queue_games": "gauge", "pairs_store_write_duration_seconds": "histogram",
        ]
        if testLoops > 1 {
            // A server with several loops adds one series per loop (protocol.md, /metrics).
            expected.merge(["pairs_loop_connections": "gauge", "pairs_loop_rooms": "gauge", "pairs_loop_flips_total": "counter",
                            "pairs_loop_hand_offs_total": "counter"]) { $1 }
        }
        for scrape in [first, second] {
            #expect(scrape.types == expected)
            #expect(Set(scrape.help.keys) == Set(expected.keys))
            for sample in scrape.samples {
                let family = scrape.family(of: sample)
                #expect(expected[family] != nil, "a sample of no declared family: \(sample.name)")
                if expected[family] == "counter" { #expect(family.hasSuffix("_total")) }
                #expect(sample.value >= 0)
                // Bounded label values only: error codes, variant labels, histogram bounds.
                for (label, value) in sample.labels {
                    switch label {
                    case "code": #expect(ErrorCode(rawValue: value) != nil)
                    case "variant": #expect(value.wholeMatch(of: /(solo|duel)-(pairs|triples)-(words|cards)-(classic|matchismo)/) != nil)
                    case "le": #expect(["pairs_answer_duration_seconds_bucket", "pairs_store_write_duration_seconds_bucket"].contains(sample.name))
                    case "loop": #expect(Int(value).map { (0..<testLoops).contains($0) } == true)
                    default: Issue.record("an unexpected label \(label)")
                    }
                }
            }
            // The histograms: buckets in order of their bounds, never going down, +Inf last and equal to _count.
            for histogram in ["pairs_answer_duration_seconds", "pairs_store_write_duration_seconds"] {
                try expectCumulative(histogram, in: scrape)
            }
            #expect((scrape.value("pairs_answer_duration_seconds_count") ?? 0) > 0)
        }
        // Counters (and the histogram's counts and sum) only grow; the games went on between the scrapes.
        let before = first.monotoneSamples, after = second.monotoneSamples
        #expect(Set(before.keys).isSubset(of: Set(after.keys)))
        for (key, value) in before { #expect(value <= after[key] ?? -1, "\(key) went from \(value) to \(after[key] ?? -1)") }
        #expect(second.value("pairs_flips_total")! > first.value("pairs_flips_total")!)
        #expect((first.value("pairs_errors_total", ["code": "not_in_room"]) ?? 0) >= 1)
        #expect((first.value("pairs_games_finished_total", ["variant": "duel-pairs-words-classic"]) ?? 0) >= 1)
        #expect(first.value("pairs_storage_enabled") == 0)
        #expect(first.value("pairs_storage_failing") == 0)
        withExtendedLifetime(stray) {}
    }

    @Test("promtool check metrics passes on a scrape taken while bot games run", Tools.needs("promtool"))
    func promtoolAcceptsAScrapeUnderLoad() throws {
        let promtool = try Tools.external("promtool")
        let server = try startServer()
        defer { server.stop() }
        let bots = try botGames(on: server)
        defer { bots.terminate() }
        try waitForFlips(beyond: 0, andGames: 1, on: server)
        let text = try scrape(server.port).scrape.text

        let process = Process()
        process.executableURL = promtool
        process.arguments = ["check", "metrics"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "promtool: \(said)\n\(text)")
        #expect(said.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "promtool: \(said)")
    }

    @Test("GET /dashboard serves the page; with the dashboard off it is 404 and /metrics stays")
    func dashboardRoute() throws {
        let on = try startServer()
        defer { on.stop() }
        let page = try exchangeOnce("GET /dashboard HTTP/1.1\r\nHost: x\r\n\r\n", port: on.port)
        #expect(page.status == 200)
        #expect(page["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.body == DashboardPage.bytes)

        let off = try startServer { $0.web.dashboard = false }
        defer { off.stop() }
        #expect(try exchangeOnce("GET /dashboard HTTP/1.1\r\nHost: x\r\n\r\n", port: off.port).status == 404)
        #expect(try exchangeOnce("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", port: off.port).status == 200)
    }
}

@Test("pairs serve --dashboard off answers /dashboard with 404 and still serves /metrics; --dashboard on serves it")
func dashboardFlag() throws {
    for (value, status) in [("off", 404), ("on", 200)] {
        let (server, port) = try PairsProcess.serve(["--dashboard", value])
        defer { server.terminate() }
        #expect(try exchangeOnce("GET /dashboard HTTP/1.1\r\nHost: x\r\n\r\n", port: port).status == status, "--dashboard \(value)")
        #expect(try exchangeOnce("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", port: port).status == 200)
    }
}

private func exchangeOnce(_ request: String, port: Int) throws -> HTTPReply {
    let client = try TestClient(port: port)
    client.sendRaw(Array(request.utf8))
    let bytes = try client.readToEnd(within: 20)
    return try #require(HTTPReply(bytes))
}

@Suite("The exposition writer and the latency histogram")
struct ExpositionTests {
    @Test("label values and help texts are escaped as the text format requires")
    func escaping() {
        var out = PrometheusText()
        out.family("x_total", .counter, help: "a \\ and a\nline")
        out.sample("x_total", ["k": "a\"b\\c\nd"], 3)
        #expect(out.text == "# HELP x_total a \\\\ and a\\nline\n# TYPE x_total counter\nx_total{k=\"a\\\"b\\\\c\\nd\"} 3\n")
    }

    @Test("a histogram is written cumulative, +Inf last and equal to _count, bounds as Go reads floats")
    func histogramLines() {
        var latency = AnswerLatency()
        latency.record(microseconds: 10, answers: 2)     // first bucket
        latency.record(microseconds: 50, answers: 1)     // on the bound: still the first
        latency.record(microseconds: 51, answers: 1)     // second
        latency.record(microseconds: 9_000_000, answers: 1) // above every bound
        #expect(latency.cumulativeCounts.first == 3)
        #expect(latency.cumulativeCounts[1] == 4)
        #expect(latency.cumulativeCounts.last == 5 && latency.count == 5)
        #expect(latency.sumMicroseconds == 20 + 50 + 51 + 9_000_000)
        #expect(AnswerLatency(cumulativeCounts: latency.cumulativeCounts, sumMicroseconds: latency.sumMicroseconds) == latency)
        #expect(AnswerLatency(cumulativeCounts: [2, 1] + Array(repeating: 1, count: 14), sumMicroseconds: 0) == nil)

        var out = PrometheusText()
        out.histogram("h_seconds", help: "h", bounds: [0.00005, 1, 2.5], cumulativeCounts: [1, 2, 2, 7], sum: 0.5)
        #expect(out.text.split(separator: "\n").dropFirst(2) == [
            #"h_seconds_bucket{le="5e-05"} 1"#, #"h_seconds_bucket{le="1"} 2"#, #"h_seconds_bucket{le="2.5"} 2"#,
            #"h_seconds_bucket{le="+Inf"} 7"#, "h_seconds_sum 0.5", "h_seconds_count 7",
        ])
    }
}
