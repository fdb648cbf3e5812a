import PairsRules
import PairsTestSupport
import PairsWire
import Testing

/// netcat, driven line by line as a person at a terminal would type.
private final class Netcat {
    private let nc: Subprocess
    /// The index of the first line of netcat's output not yet matched by `waitFor`.
    private var nextLine = 0

    init(port: Int) throws {
        nc = try Subprocess(try Tools.external("nc"), ["127.0.0.1", String(port)])
    }

    func type(_ line: String) {
        nc.write(line + "\n")
    }

    /// Reads lines until one decodes to a message that matches.
    func waitFor(_ what: String, within seconds: Double = 5, _ matches: (ServerMessage) -> Bool) throws -> ServerMessage {
        let (index, line) = try nc.blockingWaitForLine(from: nextLine, within: seconds, what) { line in
            (try? ServerMessageDecoder.decode(line: Array(line.utf8))).map(matches) ?? false
        }
        nextLine = index + 1
        return try ServerMessageDecoder.decode(line: Array(line.utf8))
    }

    func waitForState(_ matches: (WireState) -> Bool) throws -> WireState {
        let message = try waitFor("a state") { if case .state(let state) = $0 { matches(state.state) } else { false } }
        guard case .state(let state) = message else { fatalError("unreachable") }
        return state.state
    }

    func stop() {
        nc.kill()
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
