import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

/// netcat, driven line by line as a person at a terminal would type.
private final class Netcat {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private var buffered: [UInt8] = []

    init(port: Int) throws {
        process.executableURL = try Tools.external("nc")
        process.arguments = ["127.0.0.1", String(port)]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func type(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Reads lines until one decodes to a message that matches.
    func waitFor(_ what: String, within seconds: Double = 5, _ matches: (ServerMessage) -> Bool) throws -> ServerMessage {
        let deadline = Date().addingTimeInterval(seconds)
        let fd = output.fileHandleForReading.fileDescriptor
        while true {
            while let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffered[..<newline])
                buffered.removeSubrange(...newline)
                if let message = try? ServerMessageDecoder.decode(line: line), matches(message) { return message }
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw TestTimeout(what: what) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { throw TestTimeout(what: "\(what) (netcat closed)") }
            buffered += chunk[..<count]
        }
    }

    func waitForState(_ matches: (WireState) -> Bool) throws -> WireState {
        let message = try waitFor("a state") { if case .state(let state) = $0 { matches(state.state) } else { false } }
        guard case .state(let state) = message else { fatalError("unreachable") }
        return state.state
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

@Test("two netcat sessions play a whole game with text commands against the real binary", .ownThread, Tools.needs("nc"))
func netcatPlaysAGame() throws {
    let (server, port) = try PairsProcess.serve(["--pairs", "2", "--reveal-ms", "0", "--seed", "7"])
    defer { server.terminate() }
    let ann = try Netcat(port: port)
    let bob = try Netcat(port: port)
    defer { ann.stop(); bob.stop() }
    _ = try ann.waitFor("welcome") { if case .welcome = $0 { true } else { false } }
    ann.type("help")
    _ = try ann.waitFor("help") { if case .help = $0 { true } else { false } }
    ann.type("name ann")
    bob.type("name bob")
    ann.type("join table")
    _ = try ann.waitFor("joined") { if case .joined = $0 { true } else { false } }
    bob.type("join table")
    var state = try ann.waitForState { $0.phase == .playing }
    var memory = Memory()
    var moves = 0
    while state.phase != .over, moves < 50 {
        memory.see(state)
        if state.phase == .playing, let turn = state.turn {
            let card = memory.choose(in: state)
            (turn == .first ? ann : bob).type(moves % 2 == 0 ? "flip \(card)" : "\(card)")
            moves += 1
        }
        state = try ann.waitForState { _ in true }
    }
    #expect(state.phase == .over)
    #expect(state.players.map { $0?.name } == ["ann", "bob"])
    #expect(state.players.compactMap { $0?.score }.reduce(0, +) == 2)
    bob.type("say gg")
    _ = try ann.waitFor("chat") { $0 == .chat(ChatMessage(room: "table", from: "bob", seat: .second, text: "gg")) }
    ann.type("quit")
    _ = try ann.waitFor("bye quit") { $0 == .bye(.quit) }
}
