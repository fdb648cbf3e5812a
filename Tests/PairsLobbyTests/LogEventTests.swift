import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

/// The lobby's log, as typed events on a manual clock: one line per join, watch, leave, disconnect, resume
/// and forfeit, naming the connection, the name, the room and the peer, and a line per finished game.
@Suite("The lobby's log")
struct LogEventTests {
    /// The connection as the log names it: the harness's peers are 127.0.0.1:40000+N.
    private func who(_ id: ConnectionID, _ name: String) -> LoggedConnection {
        LoggedConnection(id: id, name: name, peer: "127.0.0.1:\(40_000 + id.value)")
    }

    /// The events logged at `level` since the last call.
    private func events(_ lobby: LobbyHarness, at level: LogLevel = .info, since start: inout Int) -> [LobbyEvent] {
        defer { start = lobby.log.count }
        return lobby.log[start...].filter { $0.level == level }.map(\.event)
    }

    @Test("a join, a spectator's watch and leave, and a player's leave are one info line each, with connection, name, room and peer")
    func joinWatchLeave() {
        let lobby = LobbyHarness()
        var seen = 0
        let ann = lobby.player("ann", joining: "kitchen")
        let eve = lobby.connect()
        lobby.send("name eve", from: eve)
        lobby.send("watch kitchen", from: eve)
        lobby.send("leave", from: eve)
        lobby.send("leave", from: ann)
        #expect(events(lobby, since: &seen) == [
            .roomOpened(room: "kitchen", rules: RuleSet(pairs: 2, turnSeconds: 30, revealMilliseconds: 1000, againOnMatch: true)),
            .joined(who(ann, "ann"), room: "kitchen", seat: .first),
            .watching(who(eve, "eve"), room: "kitchen"),
            .left(who(eve, "eve"), from: .watching(room: "kitchen")),
            .left(who(ann, "ann"), from: .seated(room: "kitchen", seat: .first)),
            .roomClosed(room: "kitchen"),
        ])
        #expect(lobby.log.filter { $0.level == .debug }.map(\.event) == [
            .connected(ann, peer: "127.0.0.1:40001"), .connected(eve, peer: "127.0.0.1:40002"),
        ])
    }

    @Test("a dropped player's disconnect says why and where it sat; the resume names the new connection; the lobby's own closes say their bye")
    func disconnectAndResume() throws {
        let lobby = LobbyHarness { $0.idleSeconds = 300 }
        let ann = lobby.player("ann", joining: "r")
        let token = try #require(lobby.joined(ann)?.token)
        let bob = lobby.player("bob", joining: "r")
        var seen = lobby.log.count
        lobby.drop(ann, because: .readFailed("Connection reset by peer"))
        #expect(events(lobby, since: &seen) == [
            .disconnected(who(ann, "ann"), from: .seated(room: "r", seat: .first), .lost(.readFailed("Connection reset by peer"))),
        ])
        let again = lobby.connect()
        lobby.send("resume \(token)", from: again)
        #expect(events(lobby, since: &seen) == [.resumed(who(again, "ann"), room: "r", seat: .first)])
        lobby.send("quit", from: bob)
        #expect(events(lobby, since: &seen) == [.disconnected(who(bob, "bob"), from: .seated(room: "r", seat: .second), .closed(.quit))])
        let idler = lobby.connect()
        lobby.send("list", from: idler)
        lobby.advance(by: 300_000)
        #expect(events(lobby, since: &seen).contains(.disconnected(who(idler, "player\(idler.value)"), from: .lobby, .closed(.idle))))
    }

    @Test("a connection that never sent anything is no player: its end, dropped or idle, is a debug silent_close without a made-up name")
    func silentConnectionsAreDebug() {
        let lobby = LobbyHarness { $0.idleSeconds = 300 }
        var seen = lobby.log.count
        let dropped = lobby.connect()
        let idler = lobby.connect()
        lobby.drop(dropped, because: .resetByPeer)
        lobby.advance(by: 300_000)
        #expect(events(lobby, since: &seen).isEmpty, "no info line for a connection that said nothing")
        let silent = lobby.log.filter { if case .silentClosed = $0.event { true } else { false } }
        #expect(silent == [LogEntry(.debug, .silentClosed(dropped, peer: "127.0.0.1:\(40_000 + dropped.value)", .lost(.resetByPeer))),
                           LogEntry(.debug, .silentClosed(idler, peer: "127.0.0.1:\(40_000 + idler.value)", .closed(.idle)))])
    }

    @Test("a leave followed by the end of the connection from the client's side is a quit; the end of a connection that did something else since is not",
          arguments: [DisconnectCause.closedByPeer, .resetByPeer, .writeFailed("Broken pipe"), .readFailed("Connection timed out")])
    func leaveThenGoneIsQuit(cause: DisconnectCause) {
        let lobby = LobbyHarness()
        let ann = lobby.player("ann", joining: "r")
        let bob = lobby.player("bob", joining: "r")
        lobby.send("leave", from: ann)
        lobby.send("leave", from: bob)
        lobby.send("list", from: bob)
        var seen = lobby.log.count
        lobby.drop(ann, because: cause)
        lobby.drop(bob, because: cause)
        #expect(events(lobby, since: &seen) == [.disconnected(who(ann, "ann"), from: .lobby, .quitAfterLeave),
                                                .disconnected(who(bob, "bob"), from: .lobby, .lost(cause))])
    }

    @Test("a leave does not make a shutdown, or a client too slow, a quit")
    func leaveThenServerReasonIsNotQuit() {
        let lobby = LobbyHarness()
        let ann = lobby.player("ann", joining: "r")
        lobby.send("leave", from: ann)
        lobby.drop(ann, because: .tooSlow)
        #expect(lobby.log.last == LogEntry(.info, .disconnected(who(ann, "ann"), from: .lobby, .lost(.tooSlow))))
    }

    @Test("connections cut by a shutdown are logged at debug only: the transport says how many in one line")
    func shutdownIsDebug() {
        let lobby = LobbyHarness()
        let ann = lobby.player("ann", joining: "r")
        var seen = lobby.log.count
        lobby.drop(ann, because: .shutdown)
        #expect(events(lobby, since: &seen).isEmpty)
        #expect(lobby.log.last == LogEntry(.debug, .disconnected(who(ann, "ann"), from: .seated(room: "r", seat: .first), .lost(.shutdown))))
    }

    @Test("three timeouts: a forfeit line naming the player's connection, then a game over line with winner, loser and scores")
    func forfeitByTimeouts() {
        let lobby = LobbyHarness()
        let ann = lobby.player("ann", joining: "clock")
        _ = lobby.player("bob", joining: "clock")
        var seen = lobby.log.count
        lobby.advance(by: 5 * 30_000)
        #expect(events(lobby, since: &seen) == [
            .forfeited(room: "clock", game: 1, seat: .first, player: "ann", .timeouts, connection: who(ann, "ann")),
            .gameOver(GameOverLog(room: "clock", game: 1, players: [FinishedPlayer(name: "ann", claimed: false, score: 0),
                                                                    FinishedPlayer(name: "bob", claimed: false, score: 0)],
                                  outcome: .win(.second), end: .forfeit(.timeouts))),
        ])
        #expect(lobby.log.filter { $0.event.isPerGame }.count == 2)
    }

    @Test("a player away past the grace period forfeits with no connection to name")
    func forfeitAway() {
        let lobby = LobbyHarness { $0.graceSeconds = 60; $0.defaultRules.turnSeconds = 0 }
        let ann = lobby.player("ann", joining: "g")
        _ = lobby.player("bob", joining: "g")
        lobby.drop(ann)
        var seen = lobby.log.count
        lobby.advance(by: 60_000)
        let logged = events(lobby, since: &seen)
        #expect(logged.first == .forfeited(room: "g", game: 1, seat: .first, player: "ann", .away, connection: nil))
        guard case .gameOver(let game)? = logged.dropFirst().first else {
            Issue.record("no game over after the forfeit: \(logged)")
            return
        }
        #expect(game.end == .forfeit(.away) && game.outcome == .win(.second))
    }

    @Test("a board cleared: the game over line has both names and scores and says it was cleared")
    func clearedGame() throws {
        let lobby = LobbyHarness()
        let ann = lobby.player("ann", joining: "full")
        let bob = lobby.player("bob", joining: "full")
        let faces = try lobby.firstDeal(RuleSet(pairs: 2, turnSeconds: 30, revealMilliseconds: 1000, againOnMatch: true))
        var seen = lobby.log.count
        // Ann takes both pairs: a match moves again.
        for face in Set(faces).sorted() {
            let cards = faces.indices.filter { faces[$0] == face }
            for card in cards { lobby.flip(card, by: ann) }
        }
        #expect(lobby.errors(ann).isEmpty)
        _ = lobby.take(bob)
        #expect(events(lobby, since: &seen) == [
            .gameOver(GameOverLog(room: "full", game: 1, players: [FinishedPlayer(name: "ann", claimed: false, score: 2),
                                                                   FinishedPlayer(name: "bob", claimed: false, score: 0)],
                                  outcome: .win(.first), end: .cleared)),
        ])
    }
}
