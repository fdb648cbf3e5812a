import Dispatch
import Foundation
import PairsClient
import PairsTestSupport
import PairsWire

/// The real `pairs serve`, keeping its games in a database of its own in a temporary directory (deleted
/// when the test lets go of it), on a free port of 127.0.0.1: what the commands about kept games ask.
/// `withKeptGamesServer` starts one for a test and stops it afterwards.
final class KeptGamesServer: Sendable {
    let directory: TemporaryDirectory
    let process: Subprocess
    let port: Int

    /// Starts the server with `extra` flags (its rules) and waits for its listening line.
    init(_ extra: [String] = []) async throws {
        directory = try TemporaryDirectory()
        process = try Subprocess(try Tools.pairs(), ["serve", "--host", "127.0.0.1", "--port", "0", "--log-level", "warning",
                                                     "--data", directory.database] + extra)
        let (_, line) = try await process.waitForLine("the listening line") { $0.hasPrefix("pairs listening on ") }
        guard let port = line.split(separator: ":").last.flatMap({ Int($0) }) else { throw TimedOut(what: "a port in \"\(line)\"") }
        self.port = port
    }

    /// `--host` and `--port` of this server, for any `pairs` command.
    var endpoint: [String] { ["--host", "127.0.0.1", "--port", String(port)] }

    func stop() async throws {
        process.terminate()
        _ = try await process.waitForExit()
    }

    /// Runs `pairs ARGUMENTS` against this server (its endpoint added) to its end; returns its status and
    /// output. Times are shown in UTC, so tests can read them.
    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, lines: [String], errors: String) {
        let command = try Subprocess(try Tools.pairs(), arguments + endpoint, environment: ["TZ": "UTC"].merging(environment) { $1 })
        defer { command.terminate() }
        let status = try await command.waitForExit(timeout: .seconds(30))
        return (status, command.lines, command.errorText)
    }

    /// Two bots with claimed names play `games` games to the end in room `room`; returns the lines each
    /// printed (`game N: ...`).
    func playClaimedGames(_ games: Int, room: String, names: (String, String) = ("ann", "bob"), rules: [String] = []) async throws
        -> (first: [String], second: [String]) {
        let common = ["bot"] + endpoint + ["--room", room, "--games", String(games), "--think-ms", "0"] + rules
        let first = try Subprocess(try Tools.pairs(), common + ["--name", names.0, "--seed", "1"],
                                   environment: ["PAIRS_PASSWORD": "\(names.0)'s secret"])
        defer { first.terminate() }
        let second = try Subprocess(try Tools.pairs(), common + ["--name", names.1, "--seed", "2"],
                                    environment: ["PAIRS_PASSWORD": "\(names.1)'s secret"])
        defer { second.terminate() }
        let statuses = (try await first.waitForExit(timeout: .seconds(60)), try await second.waitForExit(timeout: .seconds(60)))
        guard statuses == (0, 0) else {
            throw Spawn.Failed(description: "the bots exited \(statuses): \(first.errorText) \(second.errorText)")
        }
        return (first.lines, second.lines)
    }

    /// Asks this server one question, as the commands do. It blocks: the suites that use this server run
    /// on threads of their own (`.ownThread`), not on Swift Testing's pool.
    func ask(_ request: ClientMessage) throws -> ServerMessage {
        try ServerQuery.ask(request, at: ServerEndpoint(host: "127.0.0.1", port: port)).message
    }
}

/// Runs `body` with a `KeptGamesServer` started with `extra`, and stops the server however `body` ends.
func withKeptGamesServer(_ extra: [String] = [], _ body: (KeptGamesServer) async throws -> Void) async throws {
    let server = try await KeptGamesServer(extra)
    do {
        try await body(server)
    } catch {
        try? await server.stop()
        throw error
    }
    try await server.stop()
}
