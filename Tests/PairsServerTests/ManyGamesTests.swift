import Foundation
import PairsRules
import PairsServer
import PairsWire
import PairsTestSupport
import Testing

@Test("500 concurrent games all finish without an error", .ownThread)
func fiveHundredConcurrentGames() throws {
    let server = try startServer { $0.lobby.rateLimit = nil }
    defer { server.stop() }
    let games = 500
    var players: [[TestClient]] = []
    for game in 0..<games {
        let first = try TestClient(port: server.port)
        let second = try TestClient(port: server.port)
        try first.join("g\(game)") // seat 0, before the second player asks
        second.send("join g\(game)")
        players.append([first, second])
    }
    // Drive every game one step at a time from its seat-0 connection's view.
    var memories = [Memory](repeating: Memory(), count: games)
    var finished = Set<Int>()
    let deadline = Date().addingTimeInterval(120)
    var errors = 0
    while finished.count < games, Date() < deadline {
        for game in 0..<games where !finished.contains(game) {
            let view = try players[game][0].waitFor("a state or error", within: 20) {
                if case .state = $0 { return true }
                if case .error = $0 { errors += 1; return true }
                return false
            }
            guard case .state(let state) = view else { continue }
            memories[game].see(state.state)
            if state.state.phase == .over { finished.insert(game); continue }
            if state.state.phase == .playing, let turn = state.state.turn {
                players[game][turn.index].send("flip \(memories[game].choose(in: state.state))")
            }
        }
    }
    #expect(errors == 0)
    #expect(finished.count == games)
    #expect(server.statistics().gamesFinished == games)
}
