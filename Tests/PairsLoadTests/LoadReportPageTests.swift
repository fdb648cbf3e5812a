import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#endif
@testable import PairsLoad
import PairsLobby
import PairsServer
import PairsTestSupport
import Testing

/// The run's seconds as `LoadTimeline` kept them, summed.
private func sums(_ seconds: [LoadSecond]) -> (flips: Int, games: Int, errors: Int, dropped: Int, failed: Int) {
    seconds.reduce(into: (0, 0, 0, 0, 0)) { total, second in
        total.0 += second.flips
        total.1 += second.games
        total.2 += second.errors
        total.3 += second.connectionsDropped
        total.4 += second.connectionsFailed
    }
}

/// Every `d` of the SVG paths in a page that is well-formed XML (the report is written so, and an HTML parser
/// reads it the same), and the ids of its figures; throws on the first error in the markup.
func svgPaths(ofPage html: String) throws -> (paths: [String], charts: [String]) {
    final class Collector: NSObject, XMLParserDelegate {
        var paths: [String] = []
        var charts: [String] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if name == "path", let d = attributes["d"] { paths.append(d) }
            if name == "figure", let id = attributes["id"] { charts.append(id) }
        }
    }
    let parser = XMLParser(data: Data(html.utf8))
    let collector = Collector()
    parser.delegate = collector
    guard parser.parse() else {
        throw TimedOut(what: "well-formed markup: \(parser.parserError.map { "\($0)" } ?? "?") at line \(parser.lineNumber)")
    }
    return (collector.paths, collector.charts)
}

/// How many points a path's data has: each number pair after M, and each H or V.
func pointCount(_ d: String) -> Int {
    d.filter { "MHVL".contains($0) }.count
}

@Suite(.serialized, .ownThread)
struct LoadReportPageTests {
    @Test("A run's seconds add up to its totals (flips, games, errors, dropped connections), and the whole run's latency histogram is the merge of the seconds' histograms")
    func secondsAddUpToTheRun() throws {
        // A low rate limit makes errors (rate_limited), and a cut connection a drop, both mid-run.
        let server = try startServer { $0.lobby.rateLimit = RateLimit(messagesPerSecond: 4) }
        defer { server.stop() }
        let proxy = try TCPProxy(serverPort: server.port)
        defer { proxy.close() }
        let runner = try LoadRunner(configuration: loadConfiguration(port: proxy.port, concurrency: 4, games: 10))
        let done = DispatchSemaphore(value: 0)
        let box = ReportBox()
        runner.start { report in
            box.set(report)
            done.signal()
        }
        try blockingWaitUntil("games under way", within: 30) { server.statistics().flips >= 10 }
        proxy.cut(0)
        guard done.wait(timeout: .now() + 90) == .success, let report = box.get() else {
            runner.stop()
            throw TimedOut(what: "the report")
        }

        let seconds = report.timeline.seconds
        // Ten games at four flips a second a connection take well over a second: the run has several.
        #expect(seconds.count >= 2, "\(report.durationSeconds) s")
        let total = sums(seconds)
        #expect(total.flips == report.flips && report.flips > 0)
        #expect(total.games == report.games && report.games == 10)
        #expect(total.errors == report.errorCount && report.errorCount > 0, "errors: \(report.errors)")
        // At least the cut one: on a starved machine a connection's resends can reach the server in one
        // bunch and be cut for flooding too. What is tested is that the seconds count every drop.
        #expect(total.dropped == report.connectionDropCount && report.connectionDropCount >= 1, "\(report.connectionsDropped)")
        #expect(total.failed == report.connectionFailureCount)

        var merged = LatencyHistogram()
        for second in seconds { merged.add(second.latency) }
        // Compared whole (a failure would print 7,424 buckets twice): the buckets, count, min and max.
        let mergedIsWholeRun = merged == report.latency
        #expect(mergedIsWholeRun, "merged seconds: \(merged.count) samples, max \(merged.max); the run: \(report.latency.count), max \(report.latency.max)")
        #expect(merged.count == UInt64(report.flips + report.unfinishedFlips))
        // The seconds end with the run: all whole but the last.
        #expect(Double(seconds.count - 1) <= report.durationSeconds && report.durationSeconds < Double(seconds.count) + 0.5)
        #expect(seconds.contains { $0.cpuSeconds != nil }, "CPU read second by second")

        // The JSON's series carry the same sums.
        let summary = try LoadRunSummary(json: report.json)
        let series = try #require(summary.series)
        #expect(series.count == seconds.count)
        #expect(series.flips.reduce(0, +) == report.flips)
        #expect(series.games.reduce(0, +) == report.games)
        #expect(series.errors.reduce(0, +) == report.errorCount)
        #expect(series.dropped.reduce(0, +) == report.connectionDropCount)
        #expect(series.samples.reduce(0, +) == Int(report.latency.count))
        #expect(summary.histogram.reduce(0) { $0 + $1.count } == Int(report.latency.count))
    }

    @Test("Connections refused before they take a seat are counted in the seconds they failed in")
    func failuresAreInTheSeconds() throws {
        let (fd, port) = try Loopback.bind()
        defer { close(fd) }
        let report = try runToEnd(LoadRunner(configuration: loadConfiguration(port: port, concurrency: 3, games: 5)), within: 30)
        #expect(report.connectionFailureCount >= 3)
        #expect(sums(report.timeline.seconds).failed == report.connectionFailureCount)
    }

    @Test("The JSON reads back into the same report: the page made from the file equals the page made from the run, and shows its figures")
    func jsonRoundTrips() throws {
        let server = try startServer()
        defer { server.stop() }
        var configuration = loadConfiguration(port: server.port, concurrency: 3, games: 12)
        configuration.serverPID = getpid()
        let report = try runToEnd(LoadRunner(configuration: configuration))
        let summary = try LoadRunSummary(json: report.json)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pairs-report-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("run.json").path
        #expect(LoadRunFiles.write(report.json, to: file) == nil)
        let fromFile = try LoadRunSummary(contentsOf: file)
        #expect(fromFile == summary)
        #expect(LoadReportPage.html(fromFile) == LoadReportPage.html(summary))
        #expect(LoadReportPage.html(fromFile, comparedWith: summary) == LoadReportPage.html(summary, comparedWith: fromFile))

        // The figures are the report's own.
        #expect(summary.flips == report.flips && summary.games == 12 && summary.flipsPerSecond == LoadReport.rounded(report.flipsPerSecond, 1))
        #expect(summary.latency.first { $0.name == "p99" }?.milliseconds == LoadReport.rounded(report.latencyMilliseconds(atQuantile: 0.99), 3))
        #expect(summary.server == "pairs dev", "the welcome's server: \(summary.server ?? "none")")
        #expect(summary.serverCPUSeconds != nil && summary.series?.serverCPUSeconds?.count == summary.series?.count)
        let page = LoadReportPage.html(summary)
        for item in LoadReportPage.headline(summary) {
            #expect(page.contains("data-key=\"\(item.key)\">\(item.value)</dd>"), "\(item.key)")
        }
        #expect(page.contains("data-key=\"flips\">\(report.flips)</dd>"))
        #expect(summary.loops == 1 && page.contains("data-key=\"loops\">1</dd>"))
        let (paths, charts) = try svgPaths(ofPage: page)
        #expect(charts == ["chart-throughput", "chart-games", "chart-latency", "chart-histogram", "chart-errors", "chart-cpu"])
        #expect(paths.contains { pointCount($0) >= 2 })
    }

    @Test("Text from the server and the files is escaped in the page: a server name or an error code cannot add markup")
    func serverTextIsEscaped() throws {
        var report = LoadReport()
        report.target = "127.0.0.1:1"
        report.serverVersion = "<script>alert(1)</script> & \"q\""
        report.counts.count(error: "<img src=x onerror=alert(2)>", at: 0)
        report.counts.countDrop("bye <b>", at: 0)
        let page = LoadReportPage.html(try LoadRunSummary(json: report.json))
        #expect(!page.contains("<script"))
        #expect(!page.contains("<img"))
        #expect(!page.contains("<b>"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;"))
        #expect(page.contains("&lt;img src=x onerror=alert(2)&gt;"))
        _ = try svgPaths(ofPage: page)
    }

    @Test("A file that is not a run's JSON is refused with the reason: not JSON, or a key missing or of the wrong kind")
    func badFilesAreRefused() throws {
        #expect(throws: LoadRunFileError.badKey("target")) { try LoadRunSummary(json: "{}") }
        #expect(throws: LoadRunFileError.badKey("(the whole)")) { try LoadRunSummary(json: "[1]") }
        #expect { try LoadRunSummary(json: "{\"target\":") } throws: { error in
            if case .notJSON? = error as? LoadRunFileError { true } else { false }
        }
        var report = LoadReport()
        report.target = "x"
        let good = report.json
        #expect(throws: LoadRunFileError.badKey("flips")) {
            try LoadRunSummary(json: good.replacingOccurrences(of: "\"flips\":0", with: "\"flips\":\"0\""))
        }
        #expect(throws: LoadRunFileError.badKey("series.flips")) {
            try LoadRunSummary(json: good.replacingOccurrences(of: "\"seconds\":0", with: "\"seconds\":2"))
        }
        #expect { try LoadRunSummary(contentsOf: "/nonexistent/run.json") } throws: { error in
            if case .unreadable(path: "/nonexistent/run.json", errno: ENOENT)? = error as? LoadRunFileError { true } else { false }
        }
    }

    @Test("A comparison with an earlier run shows both runs' figures and which way each changed")
    func comparisonShowsBeforeAndAfter() throws {
        var before = LoadReport()
        before.target = "a"
        before.durationSeconds = 2
        before.counts.flips = 1000
        var after = before
        after.counts.flips = 2000
        after.counts.count(error: "bad_card", at: 0)
        let page = LoadReportPage.html(try LoadRunSummary(json: after.json), comparedWith: try LoadRunSummary(json: before.json))
        #expect(page.contains("<tr class=\"better\"><td>flips/s</td><td>500</td><td>1000</td><td>+100.0% better</td></tr>"))
        #expect(page.contains("<tr class=\"worse\"><td>errors</td><td>0</td><td>1</td><td>new worse</td></tr>"))
        _ = try svgPaths(ofPage: page)
    }
}
