import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

/// Turn clocks, reveals, grace periods and the idle limit, on a manual clock: minutes of game time in
/// microseconds, and each deadline checked to the millisecond on both sides.
@Suite("Time in the lobby, on a manual clock")
struct ClockTests {
    static let options = RuleSet(pairs: 2, turnSeconds: 30, revealMilliseconds: 1000, againOnMatch: true)

    /// Two players seated in `room`, the game started, every message so far taken.
    private func startedGame(_ lobby: LobbyHarness, room: String = "clock") -> (ConnectionID, ConnectionID) {
        let ann = lobby.player("ann", joining: room)
        let bob = lobby.player("bob", joining: room)
        _ = lobby.take(ann)
        _ = lobby.take(bob)
        return (ann, bob)
    }

    @Test("a turn runs out after exactly turn_seconds: the turn passes with a timeout event, not a millisecond sooner")
    func turnClockRunsOut() {
        let lobby = LobbyHarness()
        let (ann, bob) = startedGame(lobby)
        lobby.advance(by: 29_999)
        #expect(lobby.states(ann).isEmpty)
        lobby.advance(by: 1)
        let states = lobby.states(bob)
        #expect(states.count == 1)
        #expect(states.first?.state.event == StateEvent(.timeout(.first, hidden: [])))
        #expect(states.first?.state.turn == .second)
        #expect(states.first?.state.turnMillisecondsLeft == 30_000)
    }

    @Test("the turn clock keeps running through the first flip of a turn, and that card turns back down at the timeout")
    func timeoutHidesTheFirstCard() {
        let lobby = LobbyHarness()
        let (ann, _) = startedGame(lobby)
        lobby.advance(by: 10_000)
        lobby.flip(0, by: ann)
        #expect(lobby.states(ann).last?.state.turnMillisecondsLeft == 20_000)
        lobby.advance(by: 20_000)
        let timeout = lobby.states(ann).last?.state
        #expect(timeout?.event == StateEvent(.timeout(.first, hidden: [0])))
        #expect(timeout?.cards[0] == .down)
    }

    @Test("three timeouts in a row forfeit the game to the other player, 90 seconds of play in one step")
    func threeTimeoutsForfeit() {
        let lobby = LobbyHarness()
        let (ann, bob) = startedGame(lobby)
        // Neither player moves: ann, bob, ann, bob, then ann's third timeout in a row forfeits.
        lobby.advance(by: 6 * 30_000)
        let events = lobby.states(bob).map(\.state.event)
        let timeouts: [GameEvent] = [.timeout(.first, hidden: []), .timeout(.second, hidden: []),
                                     .timeout(.first, hidden: []), .timeout(.second, hidden: []),
                                     .timeout(.first, hidden: [])]
        #expect(Array(events.prefix(5)) == timeouts.map(StateEvent.init))
        #expect(events.dropFirst(5).first == StateEvent(.forfeit(.first, .timeouts)))
        #expect(lobby.lastState(ann)?.state.outcome == .win(.second))
    }

    @Test("a mismatch stays on show for exactly reveal_ms, then both cards turn down and the turn passes")
    func revealEndsOnTime() throws {
        let lobby = LobbyHarness()
        let (ann, bob) = startedGame(lobby)
        let faces = try lobby.firstDeal(Self.options)
        let partner = try #require(faces.indices.first { $0 != 0 && faces[$0] != faces[0] })
        lobby.flip(0, by: ann)
        lobby.flip(partner, by: ann)
        #expect(lobby.states(bob).last?.state.phase == .reveal)
        lobby.advance(by: 999)
        #expect(lobby.states(bob).isEmpty)
        lobby.advance(by: 1)
        let hide = try #require(lobby.states(bob).last?.state)
        #expect(hide.event == StateEvent(.hide(cards: [0, partner])))
        #expect(hide.turn == .second)
        #expect(hide.cards.allSatisfy { $0 == .down })
        // The turn clock was stopped during the reveal and starts afresh for bob.
        #expect(hide.turnMillisecondsLeft == 30_000)
    }

    @Test("a dropped player keeps the seat for exactly the grace period, then forfeits and loses it")
    func gracePeriodRunsOut() {
        let lobby = LobbyHarness { $0.graceSeconds = 60; $0.defaultRules.turnSeconds = 0 }
        let (ann, bob) = startedGame(lobby)
        lobby.drop(ann)
        #expect(lobby.states(bob).last?.state.event == StateEvent(.disconnect(.first)))
        lobby.advance(by: 59_999)
        #expect(lobby.states(bob).isEmpty)
        lobby.advance(by: 1)
        let events = lobby.states(bob).map(\.state.event)
        #expect(events == [StateEvent(.forfeit(.first, .away)), StateEvent(.leave(.first))])
    }

    @Test("a player back within the grace period keeps the seat, and the forfeit never comes")
    func resumeWithinGrace() throws {
        let lobby = LobbyHarness { $0.graceSeconds = 60; $0.defaultRules.turnSeconds = 0 }
        let ann = lobby.player("ann", joining: "back")
        let token = try #require(lobby.joined(ann)?.token)
        let bob = lobby.player("bob", joining: "back")
        lobby.drop(ann)
        lobby.advance(by: 59_000)
        let again = lobby.connect()
        lobby.send(#"{"type":"resume","token":"\#(token)"}"#, from: again)
        #expect(lobby.joined(again)?.seat == .first)
        _ = lobby.take(bob)
        lobby.advance(by: 10 * 60_000)
        #expect(lobby.states(bob).isEmpty)
    }

    @Test("a connection in no room is closed with bye idle after exactly the idle limit, and a ping starts it over")
    func idleLimit() {
        let lobby = LobbyHarness { $0.idleSeconds = 300 }
        let quiet = lobby.connect()
        let chatty = lobby.connect()
        lobby.advance(by: 200_000)
        lobby.send("ping", from: chatty)
        lobby.advance(by: 99_999)
        #expect(lobby.closed.isEmpty)
        lobby.advance(by: 1)
        #expect(lobby.closed == [quiet: .idle])
        lobby.advance(by: 199_999)
        #expect(lobby.closed[chatty] == nil)
        lobby.advance(by: 1)
        #expect(lobby.closed[chatty] == .idle)
    }

    @Test("connections in a room are never idle-closed, and leaving the room starts the idle clock")
    func seatedConnectionsAreNotIdle() {
        let lobby = LobbyHarness { $0.idleSeconds = 300; $0.defaultRules.turnSeconds = 0 }
        let ann = lobby.player("ann", joining: "idle")
        lobby.advance(by: 3_600_000)
        #expect(lobby.closed.isEmpty)
        lobby.send("leave", from: ann)
        lobby.advance(by: 299_999)
        #expect(lobby.closed.isEmpty)
        lobby.advance(by: 1)
        #expect(lobby.closed == [ann: .idle])
    }

    @Test("the next deadline is the earliest of every room's clock and the idle limit")
    func nextDeadlineIsTheEarliest() {
        let lobby = LobbyHarness { $0.idleSeconds = 300 }
        #expect(lobby.lobby.nextDeadline == nil)
        let start = lobby.now
        let idler = lobby.connect()
        #expect(lobby.lobby.nextDeadline == start.adding(milliseconds: 300_000))
        _ = startedGame(lobby)
        #expect(lobby.lobby.nextDeadline == start.adding(milliseconds: 30_000))
        lobby.send("ping", from: idler)
        #expect(lobby.lobby.nextDeadline == start.adding(milliseconds: 30_000))
    }
}
