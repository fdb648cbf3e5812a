import Foundation
import PairsWire
#if canImport(Glibc)
import Glibc
#endif
import PairsClient
import PairsTestSupport
import Testing

private let kitchen = SavedSeats.Key(endpoint: ServerEndpoint(host: "localhost", port: 7777), room: "kitchen", name: "ann")

/// The permission bits of the file at `path`.
private func mode(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
}

@Test("a seat's token is saved in a file of its owner's alone, in a directory of theirs alone, and read back")
func seatIsSavedPrivately() throws {
    let state = StateDirectory()
    defer { state.remove() }
    let seats = SavedSeats(directory: state.seatsDirectory)
    #expect(seats.seat(for: kitchen) == nil)
    try seats.save("0123456789abcdef0123456789abcdef", for: kitchen)
    let path = seats.path(for: kitchen)
    #expect(try mode(path) == 0o600)
    #expect(try mode(state.seatsDirectory) == 0o700)
    #expect(seats.seat(for: kitchen)?.token == "0123456789abcdef0123456789abcdef")
    #expect(seats.seat(for: kitchen)?.writer == getpid())
    // Saving again replaces it whole (a resume brings a new token), and leaves nothing else behind.
    try seats.save("fedcba9876543210fedcba9876543210", for: kitchen)
    #expect(seats.seat(for: kitchen)?.token == "fedcba9876543210fedcba9876543210")
    #expect(state.seatFiles == [URL(fileURLWithPath: path).lastPathComponent])
    #expect(try FileManager.default.contentsOfDirectory(atPath: state.seatsDirectory).count == 1)
    seats.forget(kitchen)
    #expect(seats.seat(for: kitchen) == nil)
    #expect(state.seatFiles.isEmpty)
}

@Test("one file per server, room and name: another server, room, quick match or name is another seat")
func seatsAreKeptApart() throws {
    let state = StateDirectory()
    defer { state.remove() }
    let seats = SavedSeats(directory: state.seatsDirectory)
    let others = [
        SavedSeats.Key(endpoint: ServerEndpoint(host: "localhost", port: 7778), room: "kitchen", name: "ann"),
        SavedSeats.Key(endpoint: ServerEndpoint(host: "::1", port: 7777), room: "kitchen", name: "ann"),
        SavedSeats.Key(endpoint: ServerEndpoint(host: "localhost", port: 7777), room: "den", name: "ann"),
        SavedSeats.Key(endpoint: ServerEndpoint(host: "localhost", port: 7777), room: nil, name: "ann"),
        SavedSeats.Key(endpoint: ServerEndpoint(host: "localhost", port: 7777), room: "kitchen", name: "bob"),
        SavedSeats.Key(endpoint: ServerEndpoint(host: "localhost", port: 7777), room: "kitchen", name: nil),
        SavedSeats.Key(endpoint: ServerEndpoint(host: "localhost", port: 7777), room: "kitchen", name: "名前 / ../x"),
    ]
    try seats.save("t0", for: kitchen)
    for (index, key) in others.enumerated() { try seats.save("t\(index + 1)", for: key) }
    #expect(seats.seat(for: kitchen)?.token == "t0")
    for (index, key) in others.enumerated() { #expect(seats.seat(for: key)?.token == "t\(index + 1)") }
    #expect(state.seatFiles.count == others.count + 1)
    // Every file stays inside the directory, whatever the name holds.
    #expect(state.seatFiles.allSatisfy { !$0.contains("/") })
}

@Test("a file that is not a seat's is no seat: another seat's header, a broken token, a huge file, no pid")
func brokenFilesAreNoSeat() throws {
    let state = StateDirectory()
    defer { state.remove() }
    let seats = SavedSeats(directory: state.seatsDirectory)
    try seats.save("abc", for: kitchen)
    let path = seats.path(for: kitchen)
    let header = "server localhost:7777\nroom kitchen\nname ann\n"
    for text in [
        "server localhost:7777\nroom den\nname ann\ntoken abc\npid 1\n",
        header + "token has space\npid 1\n",
        header + "token \u{1B}[2J\npid 1\n",
        header + "token abc\n",
        header + "pid 1\n",
        header + "token " + String(repeating: "a", count: 5000) + "\npid 1\n",
        "",
    ] {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(seats.seat(for: kitchen) == nil, "\(text.prefix(80))")
    }
    try (header + "token abc\npid 1\n").write(toFile: path, atomically: false, encoding: .utf8)
    #expect(seats.seat(for: kitchen)?.token == "abc" && seats.seat(for: kitchen)?.writer == 1)
    #expect(throws: SavedSeatError.notAToken) { try seats.save("two words", for: kitchen) }
}

@Test("the directory is $XDG_STATE_HOME/pairs, else ~/.local/state/pairs; a relative XDG_STATE_HOME is ignored, as the specification says")
func standardDirectory() {
    #expect(SavedSeats.standardDirectory(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/pairs")
    #expect(SavedSeats.standardDirectory(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h/"]) == "/h/.local/state/pairs")
    #expect(SavedSeats.standardDirectory(environment: ["HOME": "/h"]) == "/h/.local/state/pairs")
    #expect(SavedSeats.standardDirectory(environment: [:]) == nil)
}

@Test("a directory that cannot be made is an error in words, not a crash")
func unwritableDirectory() throws {
    let state = StateDirectory()
    defer { state.remove() }
    // A file where the directory should be.
    #expect(FileManager.default.createFile(atPath: state.path + "/blocked", contents: Data()))
    let seats = SavedSeats(directory: state.path + "/blocked/pairs")
    #expect { try seats.save("abc", for: kitchen) } throws: { error in
        "\(error)".hasPrefix("mkdir \(state.path)/blocked/pairs: ")
    }
    #expect(SavedSeats.isRunning(getpid()) == false)
    #expect(SavedSeats.isRunning(1))
}
