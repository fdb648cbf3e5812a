import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsTestSupport
import PairsWire
import Testing

/// What the operator of a real `pairs serve` process sees: the log file and its rotation, JSON lines, the
/// pid file, the shutdown line, and the listening line on a terminal.
@Suite("The operator's view of pairs serve", .ownThread)
struct OperatorLogTests {
    /// Seconds a SIGTERM'd server gets to exit before the test gives up: it needs milliseconds, but a
    /// thread-sanitized build on a machine busy with other builds once took more than 5 s to start and stop.
    static let exitBound: Double = 15

    @Test("--log-file gets the log, the listening line has the pid, and after a rename SIGUSR1 sends the next lines to a new file")
    func logFileRotates() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pairs.log")
        let (server, port) = try PairsProcess.serve(["--log-level", "info", "--log-file", path])
        defer { server.terminate() }
        let pid = server.pid
        let before = try TestClient(port: port)
        try before.join("before")
        try blockingWaitUntil("the join in the log") { try logLines(at: path).contains { $0.event == "join" } }
        let listening = try #require(try logLines(at: path).first)
        #expect(listening.event == "listening" && listening.value("pid") == String(pid))

        try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
        kill(pid, SIGUSR1)
        try blockingWaitUntil("a new log file") { try logLines(at: path).contains { $0.event == "log_reopened" } }
        let after = try TestClient(port: port)
        try after.join("after")
        try blockingWaitUntil("the second join in the new file") {
            try logLines(at: path).contains { $0.event == "join" && $0.value("room") == "after" }
        }
        let rotated = try logLines(at: path + ".1")
        #expect(rotated.contains { $0.event == "join" && $0.value("room") == "before" && $0.value("conn") == "c1" })
        #expect(!rotated.contains { $0.value("room") == "after" })

        kill(pid, SIGTERM)
        #expect(server.waitForExit(within: Self.exitBound) == 0)
        #expect(try logLines(at: path).suffix(2).map(\.event) == ["shutdown", "stopped"])
        #expect(server.errorOutput().isEmpty, "with --log-file, nothing goes to stderr")
    }

    @Test("--log-format json: every line is one JSON object with time, level and event, joins and game ends included")
    func jsonLines() throws {
        let (server, port) = try PairsProcess.serve(["--log-level", "debug", "--log-format", "json"])
        defer { server.terminate() }
        let ann = try TestClient(port: port)
        let bob = try TestClient(port: port)
        ann.send(#"{"type":"hello","name":"ann \"the\" \u001b[31mred"}"#)
        try ann.join("j")
        try bob.join("j")
        _ = try ann.waitForState { $0.state.phase == .playing }
        ann.send("leave")
        _ = try bob.waitForState { $0.state.phase == .over }
        server.send(SIGTERM)
        #expect(server.waitForExit(within: Self.exitBound) == 0)
        let lines = server.errorOutput().split(separator: "\n")
        var events: [String] = []
        for line in lines {
            let object = try #require(try JSONParser.parse(String(line)).objectValue, "\(line)")
            #expect(Array(object.keys.prefix(3)) == ["time", "level", "event"])
            #expect(object["time"]?.stringValue?.hasSuffix("Z") == true)
            events.append(object["event"]?.stringValue ?? "")
            if object["event"]?.stringValue == "join", object["seat"]?.integerValue == 0 {
                #expect(object["name"]?.stringValue == "ann \"the\" [31mred", "the name as the server cleaned it")
            }
        }
        for event in ["listening", "connect", "room_open", "join", "leave", "forfeit", "game_over", "shutdown", "stopped"] {
            #expect(events.contains(event), "no \(event) line in \(events)")
        }
    }

    @Test("--pid-file holds the server's pid once it listens, and is gone after SIGTERM unless another server has put its own pid there since",
          arguments: [false, true])
    func pidFile(replacedByAnotherServer: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pairs.pid")
        let (server, _) = try PairsProcess.serve(["--pid-file", path])
        defer { server.terminate() }
        let pid = server.pid
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(pid)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["pairs.pid"], "no temporary file left")
        if replacedByAnotherServer { try "999999\n".write(toFile: path, atomically: true, encoding: .utf8) }
        kill(pid, SIGTERM)
        #expect(server.waitForExit(within: Self.exitBound) == 0)
        let left = try? String(contentsOfFile: path, encoding: .utf8)
        #expect(left == (replacedByAnotherServer ? "999999\n" : nil))
    }

    @Test("a shutdown says in one line how many connections and games in progress it cut")
    func shutdownLine() throws {
        let (server, port) = try PairsProcess.serve(["--log-level", "info"])
        defer { server.terminate() }
        let ann = try TestClient(port: port)
        let bob = try TestClient(port: port)
        let idle = try TestClient(port: port)
        try ann.join("cut")
        try bob.join("cut")
        _ = try ann.waitForState { $0.state.phase == .playing }
        _ = try idle.waitFor("welcome") { if case .welcome = $0 { true } else { false } }
        server.send(SIGTERM)
        #expect(server.waitForExit(within: Self.exitBound) == 0)
        let shutdown = server.errorOutput().split(separator: "\n").filter { $0.contains(" info shutdown ") }
        #expect(shutdown.count == 1)
        #expect(shutdown.first?.hasSuffix(" info shutdown connections=3 games_in_progress=1") == true, "\(shutdown)")
    }

    @Test("on a terminal that is both stdout and stderr, the listening line shows once, with the pid", Tools.needs("script"))
    func listeningLineOnceOnATerminal() throws {
        // script(1) runs the server on a pseudo-terminal of its own, stdout and stderr both, and copies what
        // the terminal shows to its own stdout.
        let command = [try Tools.pairs().path, "serve", "--host", "127.0.0.1", "--port", "0", "--data", "none"].joined(separator: " ")
        let terminal = try PairsProcess(["-qefc", command, "/dev/null"], executable: try Tools.external("script"))
        defer { terminal.terminate() }
        let first = try terminal.readLine(within: 10)
        let pid = try #require(first.split(separator: " ").first { $0.hasPrefix("pid=") }.flatMap { Int32($0.dropFirst(4)) }, "\(first)")
        #expect(first.contains(" info listening address=127.0.0.1:"))
        // Whatever the server prints after it listens, it prints before it handles the signal.
        kill(pid, SIGTERM)
        var shown = [first]
        while let line = try? terminal.readLine(within: 5) { shown.append(line) }
        #expect(terminal.waitForExit(within: Self.exitBound) == 0)
        #expect(shown.filter { $0.contains("listening") }.count == 1, "\(shown)")
        #expect(shown.contains { $0.contains(" info stopped") }, "\(shown)")
    }
}
