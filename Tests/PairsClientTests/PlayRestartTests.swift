import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import PairsTestSupport

/// `pairs serve` on 127.0.0.1, keeping nothing, and the port it listens on (`port` 0: a free one).
private func serve(port: Int = 0) async throws -> (Subprocess, Int) {
    let server = try Subprocess(try Tools.pairs(), ["serve", "--host", "127.0.0.1", "--port", String(port), "--data", "none",
                                                    "--pairs", "3", "--log-level", "error"])
    let (_, line) = try await server.waitForLine("the server to listen") { $0.hasPrefix("pairs listening on 127.0.0.1:") }
    return (server, try #require(Int(line.split(separator: ":").last ?? "")))
}

@Test("when the server dies and comes back, pairs play says the seat and the game were lost with it; while it is away, input is told so", .ownThread,
      .timeLimit(.minutes(1)))
func serverRestartIsTold() async throws {
    let pairs = try Tools.pairs()
    let (first, port) = try await serve()
    defer { first.terminate() }
    let endpoint = ["--host", "127.0.0.1", "--port", String(port), "--room", "rs"]
    let bot = try Subprocess(pairs, ["bot"] + endpoint + ["--think-ms", "100", "--name", "robo"])
    defer { bot.terminate() }
    let ann = try Subprocess(pairs, ["play"] + endpoint + ["--name", "ann"])
    defer { ann.terminate() }
    try await ann.waitForLine("the game") { $0.hasPrefix("game 1 started: ") }

    // A crash, not a shutdown: no goodbye, so the client tries to get back in.
    kill(first.pid, SIGKILL)
    #expect(try await first.waitForExit() == 128 + SIGKILL)
    var (at, _) = try await ann.waitForLine("the drop") { $0.hasPrefix("connection lost: ") && $0.hasSuffix("; reconnecting") }
    ann.write("0\n")
    (at, _) = try await ann.waitForLine(from: at, "the refusal while away") { $0.hasPrefix("error: ") }
    #expect(ann.lines[at] == "error: not connected: reconnecting… (/quit to give up)")

    let (second, _) = try await serve(port: port)
    defer { second.terminate() }
    try await ann.waitForLine(from: at, timeout: .seconds(20), "the news") {
        $0 == "your seat in room rs and game 1 are lost: the server restarted, or gave the seat away after its grace period"
    }
    try await ann.waitForLine(from: at, "what to do") { $0 == "type /join rs to play again, or /quit" }
    ann.write("/quit\n")
    #expect(try await ann.waitForExit() == 0, "\(ann.errorText)")
}
