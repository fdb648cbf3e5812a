import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsLoad
import PairsServer
import PairsTestSupport
import Testing

/// The built `pairs` binary, run as a person runs it, to its end, with its output collected.
private struct PairsRun {
    /// The exit status; nil if the run did not end within its time and was killed.
    var status: Int32?
    var stdout: String
    var stderr: String

    init(_ arguments: [String], within seconds: Double = 30) throws {
        let run = try Subprocess(try Tools.pairs(), arguments)
        status = try? run.blockingWaitForExit(within: seconds)
        if status == nil { run.kill() }
        stdout = run.lines.joined(separator: "\n")
        stderr = run.errorText
    }
}

@Suite(.serialized, .ownThread)
struct LoadCommandTests {
    @Test("pairs load --json prints one JSON object with every documented key, and Foundation parses it")
    func jsonSummary() throws {
        let server = try startServer()
        defer { server.stop() }
        let run = try PairsRun(["load", "--host", "127.0.0.1", "--port", "\(server.port)", "--games", "20",
                                "--concurrency", "5", "--json", "--server-pid", "\(getpid())"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let summary = try #require(object)
        #expect(Set(summary.keys) == Set(LoadReport.jsonKeys))
        #expect(summary["games"] as? Int == 20)
        #expect(summary["concurrency"] as? Int == 5)
        #expect((summary["flips"] as? Int ?? 0) > 0)
        #expect((summary["errors"] as? [String: Any])?.isEmpty == true)
        let latency = try #require(summary["latency_ms"] as? [String: Double])
        #expect(Set(latency.keys) == ["p50", "p90", "p99", "p999", "max", "samples"])
        #expect(latency["p50"]! <= latency["p99"]! && latency["p99"]! <= latency["max"]!)
        let connections = try #require(summary["connections"] as? [String: Int])
        #expect(connections == ["requested": 10, "opened": 10, "failed": 0, "dropped": 0])
        let cpu = try #require(summary["cpu_s"] as? [String: Any])
        #expect(cpu["load"] is Double && cpu["server"] is Double)
        #expect(server.statistics().gamesFinished == 20)
    }

    @Test("pairs load plays the variant its rule flags ask for, a solo game on one connection of its own, and finishes its games without an error",
          arguments: [
              (["--match", "3", "--deck", "cards", "--scoring", "matchismo"], 2),
              (["--deck", "cards", "--pairs", "10", "--again-on-match", "false", "--peek-ms", "50"], 2),
              (["--solo", "--deck", "cards", "--match", "3", "--pairs", "6"], 1),
              (["--solo", "--game-seconds", "60", "--scoring", "matchismo"], 1),
          ])
    func variants(flags: [String], connectionsPerGame: Int) throws {
        let server = try startServer()
        defer { server.stop() }
        let run = try PairsRun(["load", "--host", "127.0.0.1", "--port", "\(server.port)", "--games", "12",
                                "--concurrency", "4", "--json"] + flags, within: 60)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let summary = try #require(object, "stdout: \(run.stdout)")
        #expect(summary["games"] as? Int == 12)
        #expect(summary["games_abandoned"] as? Int == 0 && summary["games_forfeited"] as? Int == 0)
        #expect((summary["flips"] as? Int ?? 0) > 0)
        #expect(summary["flips_refused"] as? Int == 0)
        #expect((summary["errors"] as? [String: Any])?.isEmpty == true, "\(summary["errors"] ?? "")")
        #expect(summary["unreadable_lines"] as? Int == 0)
        let connections = try #require(summary["connections"] as? [String: Int])
        let requested = 4 * connectionsPerGame
        #expect(connections == ["requested": requested, "opened": requested, "failed": 0, "dropped": 0],
                "why dropped: \(summary["connections_dropped"] ?? "none said")")
        #expect(server.statistics().gamesFinished == 12)
    }

    @Test("pairs load --duration prints progress lines on stderr and a human summary on stdout, and ends on time")
    func durationAndProgress() throws {
        let server = try startServer()
        defer { server.stop() }
        let started = Date()
        // Thinking 20 ms, the bots leave the machine's cores to the rest of the suite for the 2.2 s that two
        // progress lines take, and still play.
        let run = try PairsRun(["load", "--host", "127.0.0.1", "--port", "\(server.port)", "--duration", "2.2",
                                "--concurrency", "4", "--think-ms", "20", "--strategy", "random"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        // Generous: it shows the run stops by itself near its duration, not how fast a busy machine is.
        #expect(elapsed < 2.2 + 8)
        let progress = run.stderr.split(separator: "\n").filter { $0.contains("flips/s") && $0.contains("p99") }
        #expect(progress.count >= 2, "stderr: \(run.stderr)")
        for label in ["games", "flips", "latency", "p50", "p90", "p99", "max", "errors", "connections", "cpu"] {
            #expect(run.stdout.contains(label), "no \(label) in: \(run.stdout)")
        }
    }

    @Test("Bad options are refused with a sentence and exit status 2", arguments: [
        ["--concurrency", "0"], ["--strategy", "clever"], ["--bogus"], ["--duration", "soon"], ["--games", "-3"],
        ["--room-prefix", "no spaces"], ["--room-prefix", String(repeating: "x", count: 40)], ["--rate", "0"],
        ["--think-ms", "100000"], ["--pairs", "99"], ["--port", "70000"],
    ])
    func badOptions(arguments: [String]) throws {
        let run = try PairsRun(["load"] + arguments, within: 10)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("pairs load: "), "stderr: \(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test("With no server listening, pairs load says no connection could be opened and exits 1")
    func noServer() throws {
        let (fd, port) = try Loopback.bind()
        defer { close(fd) }
        let run = try PairsRun(["load", "--host", "127.0.0.1", "--port", "\(port)", "--games", "3"], within: 10)
        #expect(run.status == 1)
        #expect(run.stderr.contains("no connection to 127.0.0.1:\(port) could be opened"), "stderr: \(run.stderr)")
        #expect(run.stderr.contains("ECONNREFUSED"))
    }

    @Test("pairs load --help lists every option and the JSON keys, and exits 0")
    func help() throws {
        let run = try PairsRun(["load", "--help"], within: 10)
        #expect(run.status == 0)
        for option in ["--host", "--port", "--games", "--duration", "--concurrency", "--strategy", "--think-ms", "--pairs",
                       "--reveal-ms", "--turn-seconds", "--rate", "--room-prefix", "--server-pid", "--json", "--solo", "--match",
                       "--deck", "--scoring", "--game-seconds", "--peek-ms", "--report", "--compare", "pairs load report", "--loops", "--svg"] {
            #expect(run.stdout.contains(option))
        }
        for key in LoadReport.jsonKeys { #expect(run.stdout.contains(key), "\(key) is not documented") }
    }

    @Test("pairs load --report writes the run as a page that parses, with charts whose paths have points; --compare adds the before and after; pairs load report makes the same page from the JSON")
    func htmlReport() throws {
        let server = try startServer()
        defer { server.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = directory.appendingPathComponent("before.json").path
        let page = directory.appendingPathComponent("after.html").path
        let common = ["load", "--host", "127.0.0.1", "--port", "\(server.port)", "--games", "12", "--concurrency", "3", "--json"]

        let first = try PairsRun(common)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        try (first.stdout + "\n").write(toFile: before, atomically: true, encoding: .utf8)
        let second = try PairsRun(common + ["--report", page, "--compare", before, "--server-pid", "\(getpid())"])
        #expect(second.status == 0, "stderr: \(second.stderr)")
        #expect(second.stderr.contains("report written to \(page)"))
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let (paths, charts) = try svgPaths(ofPage: html)
        #expect(charts.count == 6)
        #expect(paths.filter { pointCount($0) >= 2 }.count >= 6, "\(paths)")
        #expect(html.contains("<section id=\"compare\">"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("src=") && !html.contains("href=") && !html.contains("url("), "nothing fetched, from the network or the disk")

        // The same page from the JSON, by the binary.
        let after = directory.appendingPathComponent("after.json").path
        try (second.stdout + "\n").write(toFile: after, atomically: true, encoding: .utf8)
        let remade = try PairsRun(["load", "report", after, "--compare", before])
        #expect(remade.status == 0, "stderr: \(remade.stderr)")
        #expect(remade.stdout + "\n" == html)

        let missing = try PairsRun(["load", "report", directory.appendingPathComponent("none.json").path], within: 10)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("pairs load report: cannot read"), "stderr: \(missing.stderr)")
        let notARun = try PairsRun(["load", "report", page], within: 10)
        #expect(notARun.status == 1)
        #expect(notARun.stderr.contains("not JSON"), "stderr: \(notARun.stderr)")
        let badCompare = try PairsRun(common + ["--report", page, "--compare", page], within: 10)
        #expect(badCompare.status == 2, "a bad --compare is refused before the run")
        #expect(badCompare.stderr.contains("--compare \(page): not JSON"), "stderr: \(badCompare.stderr)")
    }

    @Test("pairs load report --svg cuts one chart out of a real run's report: a complete SVG document whose paths have points, the very drawing the page shows")
    func chartCutOut() throws {
        let server = try startServer()
        defer { server.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("run.json").path
        let run = try PairsRun(["load", "--host", "127.0.0.1", "--port", "\(server.port)", "--games", "12", "--concurrency", "3",
                                "--json", "--server-pid", "\(getpid())"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        try (run.stdout + "\n").write(toFile: json, atomically: true, encoding: .utf8)
        let page = try PairsRun(["load", "report", json])
        #expect(page.status == 0, "stderr: \(page.stderr)")

        for chart in LoadReportPage.Chart.allCases {
            let cut = try PairsRun(["load", "report", json, "--svg", chart.rawValue])
            #expect(cut.status == 0, "\(chart): \(cut.stderr)")
            #expect(cut.stdout.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""), "\(chart)")
            #expect(cut.stdout.hasSuffix("</svg>"), "\(chart)")
            let (paths, _) = try svgPaths(ofPage: cut.stdout)
            // The axes are one path; the lines or bars the others, each with points.
            #expect(paths.filter { pointCount($0) >= 2 }.count >= 2, "\(chart): \(paths)")
            #expect(page.stdout.contains(cut.stdout), "\(chart) is the page's own drawing")
        }
        let unknown = try PairsRun(["load", "report", json, "--svg", "pie"], within: 10)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--svg must be throughput or games or latency or histogram or errors or cpu, not 'pie'"),
                "stderr: \(unknown.stderr)")
    }
}

/// A new empty directory under the system's temporary one.
func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pairs-load-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}
