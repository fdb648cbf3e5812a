import Foundation
import PairsRules
import PairsServer
import PairsWire
import PairsTestSupport
import Testing

/// The first board a room of `rules` deals from `seed`, face by face, learnt from a copy of such a match with
/// each card turned up in a copy of its own: the server deals from the same seed, so a test knows the board.
private func firstDeal(_ rules: RuleSet, seed: UInt64) throws -> [String] {
    var match = Match(rules: rules, graceMilliseconds: 0, seed: seed)
    for seat in match.seats { _ = try match.join(name: "p\(seat.index)", at: Moment(milliseconds: 0)) }
    if rules.variant.peekMilliseconds > 0 {
        return try #require(match.currentState(at: Moment(milliseconds: 0))).cards.map { card in
            if case .up(let face) = card { face } else { "" }
        }
    }
    return try (0..<rules.cardCount).map { card in
        var probe = match
        let state = try #require(probe.flip(card: card, by: .first, at: Moment(milliseconds: 0)).last)
        guard case .up(let face) = state.cards[card] else { throw TestTimeout(what: "the face of card \(card)") }
        return face
    }
}

/// The rules a `join` with `extra` makes over the test server's defaults.
private func rules(_ extra: String) throws -> RuleSet {
    let line = #"{"type":"join""# + extra + "}"
    guard case .join(let join)? = try RequestDecoder.decode(line: Array(line.utf8))?.message else {
        throw TestTimeout(what: "a join")
    }
    return try join.rules.rules(over: RuleSet(pairs: 4, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true))
}

/// Three of `down` that make a set of playing cards (one rank or one suit), if there are.
private func knownSet(among down: [Int], faces: [String]) -> [Int]? {
    for a in down.indices { for b in down.indices where b > a { for c in down.indices where c > b {
        let set = [down[a], down[b], down[c]]
        let cards = set.compactMap { PlayingCard(face: faces[$0]) }
        if Set(cards.map(\.rank)).count == 1 || Set(cards.map(\.suit)).count == 1 { return set }
    } } }
    return nil
}

@Suite("Playing the variants over TCP", .ownThread)
struct VariantGameTests {
    @Test("a solo player clears the board before the game clock and wins, then loses the rematch when time is up")
    func soloAgainstTheClock() throws {
        // Time enough for four flips on a slow machine (under ThreadSanitizer, 1 s was not), then the
        // rematch runs out of it.
        let extra = #","seats":1,"pairs":2,"game_seconds":3"#
        let server = try startServer { $0.lobby.seed = 11 }
        defer { server.stop() }
        let faces = try firstDeal(try rules(extra), seed: 11)
        let player = try TestClient(port: server.port)
        try player.join("solo", extra: extra)
        #expect(player.joined?.rules?.variant.seats == .one)
        let start = try player.waitForState { $0.state.phase == .playing }
        #expect(start.state.players.count == 1)
        #expect(start.state.gameMillisecondsLeft.map { $0 > 0 && $0 <= 3000 } == true)
        var id = 10
        for face in Set(faces) {
            for card in faces.indices where faces[card] == face {
                id += 1
                player.send(#"{"type":"flip","card":\#(card),"id":\#(id)}"#)
                _ = try player.waitForState { $0.id == .integer(Int64(id)) }
            }
        }
        let won = try #require(player.lastState)
        #expect(won.state.phase == .over)
        #expect(won.state.outcome == .win(.first))
        #expect(won.state.event.kind == .over)
        player.send("rematch")
        _ = try player.waitForState { $0.state.game == 2 && $0.state.phase == .playing }
        let lost = try player.waitForState(within: 10) { $0.state.event.kind == .timeUp }
        #expect(lost.state.phase == .over)
        #expect(lost.state.outcome == .loss)
        #expect(lost.state.series.wins == [1])
    }

    @Test("three-card Matchismo with playing cards is played to the end over TCP, every turn's points adding up to the scores")
    func threeCardMatchismoToTheEnd() throws {
        let extra = #","match":3,"deck":"cards","scoring":"matchismo","pairs":5"#
        let server = try startServer { $0.lobby.seed = 5 }
        defer { server.stop() }
        let faces = try firstDeal(try rules(extra), seed: 5)
        let (first, second) = try seatedPair(on: server, room: "m3", extra: extra)
        var totals = [0, 0]
        var latest = try #require(first.lastState)
        var id = 100
        var turns = 0
        var plan: [Int] = []
        let deadline = Date().addingTimeInterval(20)
        while !latest.state.endsGame {
            guard Date() < deadline else { throw TestTimeout(what: "the end of the game") }
            if latest.state.phase == .playing, let turn = latest.state.turn {
                let cards = latest.state.cards
                let up = cards.indices.filter { if case .up = cards[$0] { true } else { false } }
                if up.isEmpty {
                    // Knowing the deal: every third turn the first three cards face down, which may well
                    // mismatch; otherwise a set of the board's, rank sets and suit sets alike.
                    turns += 1
                    let down = cards.indices.filter { cards[$0] == .down }
                    plan = Array(down.prefix(3))
                    if turns % 3 != 0, let set = knownSet(among: down, faces: faces) { plan = set }
                }
                id += 1
                [first, second][turn.index].send(#"{"type":"flip","card":\#(plan[up.count]),"id":\#(id)}"#)
            }
            latest = try first.waitForState()
            let event = latest.state.event
            switch event.kind {
            case .flip:
                totals[event.seat!.index] -= 1
            case .match, .mismatch, .over:
                #expect(event.cards?.count == 3)
                let points = try #require(event.points)
                // The points of a turn include the flips already charged as the cards turned.
                totals[event.seat!.index] += points + 2
                let set = event.cards!.compactMap { PlayingCard(face: faces[$0]) }
                let value = Set(set.map(\.rank)).count == 1 ? 4 : Set(set.map(\.suit)).count == 1 ? 1 : 0
                #expect(points == (value > 0 ? 4 * value - 3 : -5), "\(set.map(\.face)) scored \(points)")
            default:
                break
            }
            #expect(latest.state.players.map { $0?.score } == totals.map { $0 }, "after \(event.kind)")
        }
        #expect(turns >= 3)
        #expect([EventKind.over, .exhausted].contains(latest.state.event.kind))
    }

    @Test("with playing cards a game ends as exhausted when the last set is gone, though cards are left")
    func playingCardsRunOutOverTCP() throws {
        let extra = #","match":3,"deck":"cards","pairs":2"#
        let deal = try rules(extra)
        // A seed whose first board has one set of three and nothing left to match once it is taken.
        var found: (seed: UInt64, set: [Int])?
        for seed in UInt64(0)..<2000 where found == nil {
            let faces = try firstDeal(deal, seed: seed).compactMap(PlayingCard.init(face:))
            for a in 0..<6 { for b in (a + 1)..<6 { for c in (b + 1)..<6 {
                let set = [faces[a], faces[b], faces[c]]
                guard Set(set.map(\.rank)).count == 1 || Set(set.map(\.suit)).count == 1 else { continue }
                let rest = faces.indices.filter { ![a, b, c].contains($0) }.map { faces[$0] }
                if Set(rest.map(\.rank)).count == 3, Set(rest.map(\.suit)).count == 3 { found = (seed, [a, b, c]) }
            } } }
        }
        let (seed, set) = try #require(found)
        let server = try startServer { $0.lobby.seed = seed }
        defer { server.stop() }
        let (first, second) = try seatedPair(on: server, room: "run-out", extra: extra)
        for card in set { first.send(#"{"type":"flip","card":\#(card)}"#) }
        for player in [first, second] {
            let end = try player.waitForState { $0.state.event.kind == .exhausted }
            #expect(end.state.phase == .over)
            #expect(end.state.outcome == .win(.first))
            #expect(end.state.cards.filter { $0 == .down }.count == 3)
        }
    }

    @Test("during a peek every face is up for everyone and a flip is refused with not_playing; then play starts")
    func peekOverTCP() throws {
        let server = try startServer()
        defer { server.stop() }
        let first = try TestClient(port: server.port)
        let second = try TestClient(port: server.port)
        // Long enough that the flip sent during it arrives during it, however slow the machine.
        try first.join("peek", extra: #","peek_ms":2000"#)
        try second.join("peek")
        let peek = try first.waitForState { $0.state.phase == .peek }
        #expect(peek.state.event.kind == .peek)
        #expect(peek.state.cards.allSatisfy { if case .up = $0 { true } else { false } })
        first.send(#"{"type":"flip","card":0,"id":1}"#)
        let refused = try first.waitForError(.notPlaying)
        #expect(refused.id == .integer(1))
        let start = try first.waitForState(within: 5) { $0.state.event.kind == .start }
        #expect(start.state.cards.allSatisfy { $0 == .down })
        #expect(start.state.phase == .playing)
    }

    @Test("rule values out of range, or that do not fit together, are refused with bad_field naming the field", arguments: [
        (#","seats":3"#, "seats"), (#","match":4"#, "match"), (#","deck":"tarot""#, "deck"), (#","scoring":"golf""#, "scoring"),
        (#","game_seconds":3601"#, "game_seconds"), (#","peek_ms":-1"#, "peek_ms"), (#","flip_cost":101"#, "flip_cost"),
        (#","match":3,"pairs":22"#, "pairs"),
    ])
    func badRuleValues(extra: String, field: String) throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        client.send(#"{"type":"join","room":"bad","id":3\#(extra)}"#)
        let error = try client.waitForError(.badField)
        #expect(error.id == .integer(3))
        #expect(error.message.hasPrefix(field), "\(error.message)")
    }

    @Test("quick match over TCP pairs only players who asked for the same rules")
    func quickMatchKeepsRulesApart() throws {
        let server = try startServer()
        defer { server.stop() }
        let asks = [#","match":3"#, #","deck":"cards""#, "", #","match":3"#, #","deck":"cards""#, ""]
        var rooms: [String] = []
        var clients: [TestClient] = []
        for extra in asks {
            let client = try TestClient(port: server.port)
            try client.join(nil, extra: extra)
            rooms.append(try #require(client.joined?.room))
            clients.append(client)
        }
        #expect(Set(rooms.prefix(3)).count == 3)
        #expect(Array(rooms.suffix(3)) == Array(rooms.prefix(3)))
        #expect(clients[3].joined?.rules?.variant.setSize == .triple)
        #expect(clients[5].joined?.rules == nil)
    }
}
