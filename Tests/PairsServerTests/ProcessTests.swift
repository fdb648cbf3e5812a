import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsWire
import PairsTestSupport
import Testing

@Suite("The pairs serve process", .ownThread)
struct ProcessTests {
    @Test("SIGTERM, SIGINT and SIGHUP (a dropped SSH session) say bye shutdown to every client, and the process exits 0 within two seconds",
          arguments: [SIGTERM, SIGINT, SIGHUP])
    func signalShutsDownCleanly(signal: Int32) throws {
        let (server, port) = try PairsProcess.serve()
        defer { server.terminate() }
        let clients = try (0..<3).map { _ in try TestClient(port: port) }
        try clients[0].join("x")
        try clients[1].join("x")
        for client in clients { _ = try client.waitFor("welcome or state") { _ in true } }
        let sent = Date()
        server.send(signal)
        for client in clients {
            #expect(try client.waitForBye(within: 3) == .shutdown)
        }
        let status = server.waitForExit(within: 3)
        #expect(status == 0)
        #expect(Date().timeIntervalSince(sent) < 2.5)
    }

    @Test("a SIGTERM sent the moment pairs serve says it listens is never lost: the server exits 0 every time")
    func signalAtOnceIsNotLost() throws {
        // Dispatch's own signal sources dropped such a signal most of the time on a busy machine, and the
        // server ran on. Each round is quick; twenty make a loss all but certain to show.
        for round in 1...20 {
            let (server, _) = try PairsProcess.serve()
            defer { server.terminate() }
            server.send(SIGTERM)
            #expect(server.waitForExit(within: 10) == 0, "round \(round)")
        }
    }

    @Test("bad flag values are refused with a message and a non-zero exit before anything listens", arguments: [
        ["--port", "70000"], ["--pairs", "1"], ["--turn-seconds", "x"], ["--log-level", "loud"], ["--bogus", "1"],
        ["--host", "no.such.host.invalid"], ["--log-format", "xml"], ["--log-file", "/nonexistent-pairs-dir/pairs.log"],
        ["--pid-file", "/nonexistent-pairs-dir/pairs.pid"], ["--log-file", ""], ["--allow-origin", "evil.example"], ["--dashboard", "maybe"],
    ])
    func badFlagsAreRefused(flags: [String]) throws {
        let process = try PairsProcess(["serve", "--port", "0", "--data", "none"] + flags)
        let status = process.waitForExit(within: 10)
        #expect(status != nil && status != 0)
        #expect(!process.errorOutput().isEmpty)
    }

    @Test("serve --help lists every flag", arguments: [[String]()])
    func helpListsFlags(_: [String]) throws {
        let process = try PairsProcess(["serve", "--help"])
        var text = ""
        while let line = try? process.readLine(within: 5) { text += line + "\n" }
        #expect(process.waitForExit(within: 5) == 0)
        for flag in ["--host", "--port", "--pairs", "--turn-seconds", "--reveal-ms", "--grace-seconds", "--seed",
                     "--max-connections", "--idle-seconds", "--rate-limit", "--log-level", "--log-format", "--log-file", "--pid-file",
                     "--allow-origin", "--dashboard"] {
            #expect(text.contains(flag), "missing \(flag)")
        }
    }

    @Test("unknown subcommands print usage and exit non-zero; --version works")
    func unknownSubcommand() throws {
        let unknown = try PairsProcess(["frobnicate"])
        #expect(unknown.waitForExit(within: 5) == 2)
        #expect(unknown.errorOutput().contains("usage"))
        let version = try PairsProcess(["--version"])
        #expect(try version.readLine(within: 5).hasPrefix("pairs "))
        #expect(version.waitForExit(within: 5) == 0)
    }
}
