import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import PairsLoad
import PairsPolling
import PairsRules
import PairsTestSupport
import Testing

/// A run on several loops: its configuration dealt out, its loops' counts merged exactly, and whole runs
/// against a real server on 127.0.0.1.
@Suite(.serialized, .ownThread)
struct LoadLoopsTests {
    // MARK: Dealing out

    @Test("A run's games in flight and --games limit are dealt out among the loops, each loop's rooms numbered after the loops before it, and never more loops than games in flight")
    func sharesAreDealtOut() {
        var configuration = LoadConfiguration()
        configuration.concurrency = 10
        configuration.games = 25
        configuration.loops = 3
        configuration.roomPrefix = "r"
        let shares = configuration.loopShares
        #expect(shares.map(\.gamesInFlight) == [4, 3, 3])
        #expect(shares.map(\.games) == [9, 8, 8])
        #expect(shares.map { $0.room(0) } == ["r0", "r4", "r7"])
        #expect(shares.flatMap { share in (0..<share.gamesInFlight).map(share.room) } == (0..<10).map { "r\($0)" })
        #expect(Set(shares.map(\.seed)).count == 3)
        #expect(shares[0].seed == configuration.seed, "loop 0 plays as a one-loop run would")

        configuration.concurrency = 2
        configuration.games = nil
        #expect(configuration.loopsInUse == 2)
        #expect(configuration.loopShares.map(\.gamesInFlight) == [1, 1])
        configuration.loops = 0
        #expect(configuration.problem == "--loops must be from 1 to \(LoadConfiguration.maxLoops)")
    }

    // MARK: Merging

    @Test("Three histograms merged bucket by bucket equal one histogram fed every sample, percentiles, minimum and maximum included")
    func histogramsMergeExactly() {
        var random = SplitMix64(seed: 7)
        var whole = LatencyHistogram()
        var parts = [LatencyHistogram](repeating: LatencyHistogram(), count: 3)
        for _ in 0..<50_000 {
            // From nanoseconds to minutes: every range of buckets, the exact ones included.
            let value = random.next() >> (20 + random.next() % 44)
            whole.record(value)
            parts[Int(random.next() % 3)].record(value)
        }
        var merged = LatencyHistogram()
        merged.add(LatencyHistogram()) // an idle loop adds nothing
        for part in parts { merged.add(part) }
        #expect(merged == whole)
        #expect(merged.count == 50_000)
        for quantile in [0.0, 0.5, 0.9, 0.99, 0.999, 1] {
            #expect(merged.value(atQuantile: quantile) == whole.value(atQuantile: quantile))
        }
        #expect(merged.min == whole.min && merged.max == whole.max)
    }

    @Test("Three loops' statistics added together equal one loop's that counted every event: latency bucket by bucket, seconds second by second (slivers included), errors and lost connections by code")
    func statisticsMergeExactly() {
        let start: UInt64 = 1_000_000_000_000
        let second: UInt64 = 1_000_000_000
        // The run ends at 5.3 s: a sliver the whole run counts into second 4. Loop 0 ends at 4.3 s, whose own
        // sliver is second 4 of the run all the same; loop 1 a moment before the run.
        let end = start + 5 * second + 300_000_000
        let loopEnds = [start + 4 * second + 300_000_000, end - 10_000_000, end]
        var random = SplitMix64(seed: 11)
        var events: [(loop: Int, time: UInt64, kind: UInt64, latency: UInt64)] = []
        for _ in 0..<6_000 {
            let loop = Int(random.next() % 3)
            let time = start + random.next() % (loopEnds[loop] - start)
            events.append((loop, time, random.next() % 6, 100_000 + random.next() % 90_000_000))
        }
        events.sort { $0.time < $1.time }
        func count(_ event: (loop: Int, time: UInt64, kind: UInt64, latency: UInt64), into statistics: inout LoadStatistics) {
            switch event.kind {
            case 0, 1: statistics.countFlip(latency: event.latency, at: event.time)
            case 2: statistics.countGame(forfeit: event.latency % 2 == 0, at: event.time)
            case 3: statistics.count(error: event.latency % 2 == 0 ? "rate_limited" : "bad_card", at: event.time)
            case 4: statistics.recordUnfinished(age: event.latency, at: event.time)
            default:
                if event.latency % 2 == 0 {
                    statistics.countDrop("closed", at: event.time)
                } else {
                    statistics.countFailure("ECONNREFUSED", at: event.time)
                }
            }
        }
        var whole = LoadStatistics()
        whole.timeline.begin(at: start, cpu: 1, serverCPU: 2)
        var loops = [LoadStatistics](repeating: LoadStatistics(), count: 3)
        for index in loops.indices { loops[index].timeline.begin(at: start, cpu: 0, serverCPU: nil) }
        for event in events {
            count(event, into: &whole)
            count(event, into: &loops[event.loop])
        }
        whole.timeline.close(at: end, cpu: 9, serverCPU: 5)
        for index in loops.indices { loops[index].timeline.close(at: loopEnds[index], cpu: 0, serverCPU: nil, keepingSliver: true) }
        var runTimeline = LoadTimeline()
        runTimeline.begin(at: start, cpu: 1, serverCPU: 2)
        runTimeline.close(at: end, cpu: 9, serverCPU: 5)
        var merged = LoadStatistics()
        merged.timeline = runTimeline
        for loop in loops { merged.add(loop) }

        #expect(merged.latency == whole.latency)
        #expect(merged.flips == whole.flips && merged.games == whole.games && merged.gamesForfeited == whole.gamesForfeited)
        #expect(merged.unfinishedFlips == whole.unfinishedFlips && merged.unfinishedMaxNanoseconds == whole.unfinishedMaxNanoseconds)
        #expect(merged.errors == whole.errors && merged.errorCount == whole.errorCount)
        #expect(merged.connectionFailures == whole.connectionFailures && merged.connectionsDropped == whole.connectionsDropped)
        #expect(merged.timeline.seconds.count == 5)
        func counts(_ timeline: LoadTimeline) -> [String] {
            timeline.seconds.map { "\($0.flips) \($0.games) \($0.errors) \($0.connectionsDropped) \($0.connectionsFailed) \($0.latency.count)" }
        }
        #expect(counts(merged.timeline) == counts(whole.timeline), "flips, games, errors, dropped, failed, latencies per second")
        let sameSeconds = merged.timeline.seconds == whole.timeline.seconds
        #expect(sameSeconds, "every second's latency buckets and CPU too")
        #expect(merged.timeline.durationNanoseconds == whole.timeline.durationNanoseconds)
    }

    // MARK: Whole runs

    @Test("A run on 3 loops finishes exactly its --games, with the totals of a run on 1: every connection opened, no error, the server counting the same, and the seconds adding up to the totals",
          arguments: [1, 3])
    func runOnLoops(loops: Int) throws {
        let server = try startServer()
        defer { server.stop() }
        var configuration = loadConfiguration(port: server.port, concurrency: 7, games: 40)
        configuration.loops = loops
        let group = try LoadRunGroup(configuration: configuration)
        #expect(group.runners.count == loops)
        let report = try runToEnd(group)

        #expect(report.loops == loops)
        #expect(report.concurrency == 7)
        #expect(report.games == 40)
        #expect(report.errorCount == 0, "errors: \(report.errors)")
        #expect(report.connectionsRequested == 14 && report.connectionsOpened == 14)
        #expect(report.connectionFailureCount == 0 && report.connectionDropCount == 0)
        #expect(report.gamesAbandoned == 0 && report.gamesUnfinished == 0 && report.unfinishedFlips == 0)
        #expect(report.flips > 0 && report.flips == report.flipsSent)
        #expect(report.latency.count == UInt64(report.flips))
        #expect(report.serverVersion != nil)
        #expect(report.durationSeconds > 0 && report.cpuSeconds > 0)
        let seconds = report.timeline.seconds
        #expect(!seconds.isEmpty)
        #expect(seconds.reduce(0) { $0 + $1.flips } == report.flips)
        #expect(seconds.reduce(0) { $0 + $1.games } == report.games)
        var latency = LatencyHistogram()
        for second in seconds { latency.add(second.latency) }
        #expect(latency == report.latency)
        #expect(seconds.allSatisfy { $0.cpuSeconds != nil }, "the CPU is read for every second, once")
        let statistics = server.statistics()
        #expect(statistics.gamesFinished == 40)
        #expect(statistics.flips == report.flips)
        try blockingWaitUntil("the server to close every connection") { server.statistics().connections == 0 }
    }

    @Test("pairs load --loops 3 --duration prints one progress line a second for every loop together, and its --json totals are its series' sums")
    func loopsOnTheCommandLine() throws {
        let server = try startServer()
        defer { server.stop() }
        let run = try Subprocess(try Tools.pairs(), ["load", "--host", "127.0.0.1", "--port", "\(server.port)", "--loops", "3",
                                                     "--concurrency", "6", "--duration", "2.5", "--json", "--server-pid", "\(getpid())"])
        let status = try run.blockingWaitForExit(within: 60)
        #expect(status == 0, "stderr: \(run.errorText)")
        let object = try JSONSerialization.jsonObject(with: Data(run.lines.joined(separator: "\n").utf8)) as? [String: Any]
        let summary = try #require(object)
        #expect(summary["loops"] as? Int == 3)
        #expect(summary["errors_total"] as? Int == 0)
        let series = try #require(summary["series"] as? [String: Any])
        for key in ["flips", "games", "errors"] {
            let values = try #require(series[key] as? [Int])
            #expect(values.reduce(0, +) == summary[key == "errors" ? "errors_total" : key] as? Int, "\(key)")
        }
        let samples = try #require((series["latency_ms"] as? [String: Any])?["samples"] as? [Int])
        #expect(samples.reduce(0, +) == (summary["latency_ms"] as? [String: Any])?["samples"] as? Int)
        let cpu = try #require(series["cpu_s"] as? [String: Any])
        #expect((cpu["server"] as? [Any])?.count == (series["flips"] as? [Int])?.count)
        // A line a second, from 1 s on; the run lasts 2.5 s and a busy machine may fire the ticks late.
        let progress = run.errorText.split(separator: "\n").filter { $0.contains("flips/s") }
        #expect(progress.count >= 1, "stderr: \(run.errorText)")
    }

    @Test("--loops refuses 0, a negative number and a word with a sentence naming the flag, and exits 2",
          arguments: ["0", "-2", "many"])
    func badLoops(value: String) throws {
        let run = try Subprocess(try Tools.pairs(), ["load", "--loops", value])
        let status = try run.blockingWaitForExit(within: 10)
        #expect(status == 2)
        #expect(run.errorText.contains("pairs load: --loops must be a whole number from 1 to \(LoadConfiguration.maxLoops), not '\(value)'"),
                "stderr: \(run.errorText)")
        #expect(run.lines.isEmpty)
    }

    @Test("The default number of loops is the cores the process may run on: one under taskset -c 0, and in this process the count of /proc's Cpus_allowed_list")
    func defaultLoopsFollowTheAffinityMask() throws {
        let server = try startServer()
        defer { server.stop() }
        let run = try Subprocess(URL(fileURLWithPath: "/usr/bin/taskset"), ["-c", "0", try Tools.pairs().path, "load", "--host", "127.0.0.1",
                                                      "--port", "\(server.port)", "--games", "4", "--concurrency", "4", "--json"])
        #expect(try run.blockingWaitForExit(within: 60) == 0, "stderr: \(run.errorText)")
        let object = try JSONSerialization.jsonObject(with: Data(run.lines.joined(separator: "\n").utf8)) as? [String: Any]
        #expect(object?["loops"] as? Int == 1)

        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        var allowed = 0
        for range in line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces).split(separator: ",") {
            let ends = range.split(separator: "-").compactMap { Int($0) }
            allowed += ends.count == 2 ? ends[1] - ends[0] + 1 : 1
        }
        #expect(ProcessorAffinity.coreCount() == allowed)
    }
}

/// Runs `group` to its end, waiting at most `seconds` for the report.
func runToEnd(_ group: LoadRunGroup, within seconds: Double = 60) throws -> LoadReport {
    let done = DispatchSemaphore(value: 0)
    let box = ReportBox()
    group.start { report in
        box.set(report)
        done.signal()
    }
    guard done.wait(timeout: .now() + seconds) == .success, let report = box.get() else {
        group.stop()
        throw TimedOut(what: "the load run's report")
    }
    return report
}
