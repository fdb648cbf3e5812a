import Foundation
import PairsRules
import PairsServer
import PairsWire
import PairsTestSupport
import Testing

@Suite("Playing over TCP", .ownThread)
struct GameplayTests {
    @Test("two clients play a full game to the end and both see the result")
    func twoClientsPlayAFullGame() throws {
        let server = try startServer()
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server)
        let final = try playToEnd([first, second])
        #expect(final.phase == .over)
        let scores = final.players.map { $0?.score ?? -1 }
        #expect(scores.reduce(0, +) == 4)
        #expect(final.cards.allSatisfy { if case .matched = $0 { true } else { false } })
        let seenBySecond = try second.waitForState { $0.state.phase == .over }
        #expect(seenBySecond.state == final)
        #expect(server.statistics().gamesFinished == 1)
    }

    @Test("a mismatch shows both faces to both players, then hides them and passes the turn")
    func mismatchIsShownToBothThenHidden() throws {
        // A fixed seed makes the deal, and so whether the pairs tried below match, the same on every run:
        // with a random deal, cards 0-1 and 2-3 both matched in one run out of 35 and the test found no mismatch.
        let server = try startServer {
            $0.lobby.defaultRules.revealMilliseconds = 300
            $0.lobby.seed = 7
        }
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server)
        // A match keeps the turn, so the first player tries the pairs 0-1, 2-3, 4-5 until one is a mismatch.
        var shown: StateMessage?
        for pair in 0..<3 {
            let (left, right) = (2 * pair, 2 * pair + 1)
            first.send(#"{"type":"flip","card":\#(left),"id":\#(100 + left)}"#)
            _ = try first.waitForState { $0.id == .integer(Int64(100 + left)) }
            first.send(#"{"type":"flip","card":\#(right),"id":\#(100 + right)}"#)
            let answer = try first.waitForState { $0.id == .integer(Int64(100 + right)) }
            if answer.state.event.kind == .mismatch { shown = answer; break }
        }
        guard let shown, shown.state.event.seat == .first, let pair = shown.state.event.cards else {
            Issue.record("seed 7 deals matching pairs at 0-1, 2-3 and 4-5; pick another seed"); return
        }
        #expect(shown.state.phase == .reveal)
        for player in [first, second] {
            let reveal = player === first ? shown : try player.waitForState { $0.state.event == shown.state.event }
            #expect(reveal.state.cards[pair[0]] != .down)
            #expect(reveal.state.cards[pair[1]] != .down)
            let hidden = try player.waitForState { $0.state.event == StateEvent(.hide(cards: CardSet(pair))) }
            #expect(hidden.state.cards[pair[0]] == .down)
            #expect(hidden.state.cards[pair[1]] == .down)
            #expect(hidden.state.turn == .second)
            #expect(hidden.state.phase == .playing)
        }
    }

    @Test("a turn that runs out passes to the other player with a timeout event")
    func turnTimesOut() throws {
        let server = try startServer { $0.lobby.defaultRules.turnSeconds = 1 }
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server)
        first.send("flip 0")
        _ = try first.waitForState { $0.state.event == StateEvent(.flip(.first, card: 0)) }
        let timeout = try second.waitForState(within: 5) { $0.state.event == StateEvent(.timeout(.first, hidden: [0])) }
        #expect(timeout.state.turn == .second)
        #expect(timeout.state.cards[0] == .down)
        #expect((timeout.state.turnMillisecondsLeft ?? 0) > 500)
    }

    @Test("a turn clock still runs out while another client keeps the server answering pings back to back")
    func turnTimesOutBesideBackToBackTraffic() throws {
        let server = try startServer {
            $0.lobby.defaultRules.turnSeconds = 1
            $0.lobby.rateLimit = nil
        }
        defer { server.stop() }
        // Each ping is sent the moment the last pong arrives: the traffic the server lingers for, which
        // must not keep the room's timer (run on the same queue) from its turn.
        let pinger = try BackToBackPinger(port: server.port)
        defer { pinger.stop() }
        let (first, second) = try seatedPair(on: server)
        first.send("flip 0")
        _ = try first.waitForState { $0.state.event == StateEvent(.flip(.first, card: 0)) }
        let pongsAtTheFlip = pinger.pongs
        let timeout = try second.waitForState(within: 10) { $0.state.event == StateEvent(.timeout(.first, hidden: [0])) }
        #expect(timeout.state.turn == .second)
        let pongsAtTheTimeout = pinger.pongs
        let pongs = pinger.stop()
        #expect(pongs.failure == nil)
        // The traffic really ran while the clock did. How much depends on the machine (far fewer under
        // ThreadSanitizer), so the count is not held to a speed.
        #expect(pongsAtTheTimeout > pongsAtTheFlip)
    }

    @Test("states reach every member in seq order without gaps")
    func statesArriveInOrderWithoutGaps() throws {
        let server = try startServer()
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server)
        let watcher = try TestClient(port: server.port)
        watcher.send("watch r")
        let start = try watcher.waitForState()
        _ = try playToEnd([first, second])
        var seq = start.state.seq
        var last = start
        while last.state.phase != .over {
            last = try watcher.waitForState()
            #expect(last.state.seq == seq + 1)
            seq = last.state.seq
        }
        var secondSeq = 0
        while true {
            let state = try second.waitForState()
            if secondSeq > 0 { #expect(state.state.seq == secondSeq + 1) }
            secondSeq = state.state.seq
            if state.state.phase == .over { break }
        }
        #expect(secondSeq == seq)
    }

    @Test("a rematch starts a new game with the other seat first and the series counted")
    func rematchStartsNewGame() throws {
        let server = try startServer()
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server)
        _ = try playToEnd([first, second])
        first.send("rematch")
        _ = try second.waitForState { $0.state.event == StateEvent(.rematch(.first)) }
        first.send(#"{"type":"rematch","id":"again"}"#)
        _ = try first.waitForError(.rematchPending)
        second.send("rematch")
        let start = try first.waitForState { $0.state.event == StateEvent(.start(turn: .second)) }
        #expect(start.state.game == 2)
        #expect(start.state.series.wins.reduce(0, +) + start.state.series.draws == 1)
    }

    @Test("a spectator receives every state and cannot flip")
    func spectatorWatchesButCannotPlay() throws {
        let server = try startServer()
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server)
        let spectator = try TestClient(port: server.port)
        spectator.send(#"{"type":"watch","room":"r","id":9}"#)
        let joined = try spectator.waitFor("joined") { if case .joined = $0 { true } else { false } }
        #expect(joined == .joined(Joined(room: "r", seat: nil, token: nil, id: .integer(9))))
        let current = try spectator.waitForState()
        #expect(current.state.phase == .playing)
        spectator.send(#"{"type":"flip","card":0,"id":10}"#)
        #expect(try spectator.waitForError(.notAPlayer).id == .integer(10))
        first.send("flip 1")
        let flip = try spectator.waitForState()
        #expect(flip.state.event == StateEvent(.flip(.first, card: 1)))
        #expect(flip.spectators == 1)
        _ = second
    }

    @Test("chat reaches the room with escape sequences removed")
    func chatIsCleaned() throws {
        let server = try startServer()
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server)
        first.send("name \u{1B}[31mann\u{1B}[0m")
        _ = try first.waitFor("welcome") { if case .welcome = $0 { true } else { false } }
        first.send("{\"type\":\"say\",\"text\":\"hi \\u001b[2J\\u001b]0;pwned\\u0007 there\\u009b\",\"id\":4}")
        let message = try second.waitFor("chat") { if case .chat = $0 { true } else { false } }
        guard case .chat(let chat) = message else { return }
        #expect(chat.id == .integer(4))
        #expect(chat.seat == .first)
        #expect(!chat.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(!chat.from.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(chat.text.hasPrefix("hi "))
        #expect(chat.text.hasSuffix("there"))
    }
}

/// A client on its own thread that sends a ping the moment each pong arrives, until stopped (or 30 s pass).
private final class BackToBackPinger: @unchecked Sendable {
    /// Used by the pinger's thread alone once `init` has returned.
    private let client: TestClient
    /// Signalled by the pinger's thread as it ends.
    private let finished = DispatchSemaphore(value: 0)
    /// Touched by the test's thread alone.
    private var isJoined = false
    /// Guards the fields below, shared between the test and the pinger's thread.
    private let lock = NSLock()
    private var stopping = false
    private var pongCount = 0
    private var failure: String?

    /// Connects, and returns once the first pong has come back.
    init(port: Int) throws {
        client = try TestClient(port: port)
        client.send(#"{"type":"ping"}"#)
        _ = try client.waitFor("the first pong") { if case .pong = $0 { true } else { false } }
        Thread.detachNewThread { [self] in
            let deadline = Date().addingTimeInterval(30)
            while !isStopping, Date() < deadline {
                client.send(#"{"type":"ping"}"#)
                do {
                    guard case .pong = try client.next() else { record(failure: "not a pong"); break }
                } catch {
                    record(failure: "\(error)")
                    break
                }
                lock.withLock { pongCount += 1 }
            }
            finished.signal()
        }
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    /// The pongs received so far.
    var pongs: Int { lock.withLock { pongCount } }

    private func record(failure: String) {
        lock.withLock { self.failure = failure }
    }

    /// Stops the pings and waits for the thread: the pongs received, and what went wrong, if anything.
    @discardableResult
    func stop() -> (count: Int, failure: String?) {
        lock.withLock { stopping = true }
        if !isJoined {
            isJoined = true
            if finished.wait(timeout: .now() + 10) == .timedOut { record(failure: "the pinger did not stop") }
        }
        return lock.withLock { (pongCount, failure) }
    }
}
