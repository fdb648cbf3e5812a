import Foundation
import PairsWire
#if canImport(Glibc)
import Glibc
#endif
import PairsClient
import Testing
import PairsTestSupport

// A seat outlives the `pairs play` that took it: killed, hung up or crashed, the same command takes it back
// while the server holds it. Every run keeps its tokens in a directory of the test's own.

/// `pairs play` printing plain lines (its output is a pipe) to the server on `port`, keeping its seats in
/// `state`.
private func play(_ arguments: [String], port: Int, state: StateDirectory) throws -> Subprocess {
    try Subprocess(try Tools.pairs(), ["play", "--host", "127.0.0.1", "--port", String(port)] + arguments, environment: state.environment)
}

/// The permission bits of the file at `path`.
private func mode(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
}

@Test("after kill -9 the same command takes the seat back; --new takes a new seat instead (here: the room is full, exit 1)", .ownThread,
      .timeLimit(.minutes(1)))
func killedClientTakesItsSeatBack() async throws {
    let server = try startServer(pairs: 3, seed: 4)
    defer { server.stop() }
    let state = StateDirectory()
    defer { state.remove() }
    // The bot's choices are seeded too: unseeded, it now and then matched all three pairs on its own turns
    // while ann was away, and the game was over before she came back (about one run in fifteen).
    let bot = try Subprocess(try Tools.pairs(), ["bot", "--host", "127.0.0.1", "--port", String(server.port), "--room", "seat",
                                                 "--think-ms", "100", "--name", "robo", "--seed", "1"])
    defer { bot.terminate() }
    let command = ["--room", "seat", "--name", "ann"]
    let first = try play(command, port: server.port, state: state)
    defer { first.terminate() }
    try await first.waitForLine("the game") { $0.hasPrefix("game 1 started: ") }
    let files = state.seatFiles
    #expect(files.count == 1)
    let file = state.seatsDirectory + "/" + (files.first ?? "")
    #expect(try mode(file) == 0o600)
    #expect(try String(contentsOfFile: file, encoding: .utf8).contains("token "))

    kill(first.pid, SIGKILL)
    #expect(try await first.waitForExit() == 128 + SIGKILL)
    let again = try play(command, port: server.port, state: state)
    defer { again.terminate() }
    try await again.waitForLine("the seat back") { $0 == "back in room seat, in the seat you had" }
    #expect(!again.lines.contains { $0.contains("full") })
    #expect(server.statistics().gamesFinished == 0)

    let fresh = try play(command + ["--new"], port: server.port, state: state)
    defer { fresh.terminate() }
    #expect(try await fresh.waitForExit() == 1)
    #expect(fresh.errorText == "pairs play: room seat is full; you can watch it (/watch ROOM)\n")

    // Quitting gives the seat up, and forgets it.
    again.write("/quit\n")
    #expect(try await again.waitForExit() == 0, "\(again.errorText)")
    #expect(state.seatFiles.isEmpty)
    try await waitUntil("the forfeit") { server.statistics().gamesFinished == 1 }
}

@Test("a saved seat the server no longer holds is said to be gone, and the same command joins afresh", .ownThread)
func staleSeatFallsBackToAJoin() async throws {
    let server = try startServer(pairs: 3, seed: 4)
    defer { server.stop() }
    let state = StateDirectory()
    defer { state.remove() }
    // A seat saved by a client that has exited since, for a server that never gave that token.
    let gone = try Subprocess(URL(fileURLWithPath: "/bin/sh"), ["-c", "exit 0"])
    #expect(try await gone.waitForExit() == 0)
    let key = SavedSeats.Key(endpoint: ServerEndpoint(host: "127.0.0.1", port: server.port), room: "stale", name: "ann")
    let seats = SavedSeats(directory: state.seatsDirectory)
    try FileManager.default.createDirectory(atPath: state.seatsDirectory, withIntermediateDirectories: true)
    try "server 127.0.0.1:\(server.port)\nroom stale\nname ann\ntoken 00000000000000000000000000000000\npid \(gone.pid)\n"
        .write(toFile: seats.path(for: key), atomically: true, encoding: .utf8)

    let ann = try play(["--room", "stale", "--name", "ann"], port: server.port, state: state)
    defer { ann.terminate() }
    try await ann.waitForLine("the new seat") { $0 == "you joined room stale as player 1" }
    #expect(ann.lines.contains("the seat saved from last time is gone (that token is unknown, expired or already used); joining room stale afresh"))
    // The new seat's token replaced the stale one.
    #expect(seats.seat(for: key)?.token != "00000000000000000000000000000000")
    #expect(seats.seat(for: key) != nil)
    ann.write("/quit\n")
    #expect(try await ann.waitForExit() == 0)
}

@Test("a second pairs play with the same command, while the first still runs, takes a seat of its own instead of the first's", .ownThread)
func runningClientKeepsItsSeat() async throws {
    let server = try startServer(pairs: 3, seed: 4)
    defer { server.stop() }
    let state = StateDirectory()
    defer { state.remove() }
    let command = ["--room", "twin", "--name", "ann"]
    let first = try play(command, port: server.port, state: state)
    defer { first.terminate() }
    try await first.waitForLine("the first seat") { $0 == "you joined room twin as player 1" }
    let second = try play(command, port: server.port, state: state)
    defer { second.terminate() }
    try await second.waitForLine("the second seat") { $0 == "you joined room twin as player 2" }
    #expect(second.lines.contains("the seat saved for this room is in use by another pairs play (pid \(first.pid)); taking a new one"))
    try await first.waitForLine("the game, still seated") { $0.hasPrefix("game 1 started: ") }
    #expect(!first.errorText.contains("taken over"))
    second.write("/quit\n")
    first.write("/quit\n")
    #expect(try await second.waitForExit() == 0)
    #expect(try await first.waitForExit() == 0)
}
