import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

@Suite("Faces never found")
struct NeverFoundTests {
    @Test("a game given up by timeouts ends in a state listing the faces nobody found, the same for the players and a spectator, and one who watches after the end gets them too; the next game's states list none")
    func forfeitListsTheFacesNeverFound() throws {
        let lobby = LobbyHarness()
        let deal = try lobby.firstDeal(RuleSet(pairs: 2, turnSeconds: 30, revealMilliseconds: 1000, againOnMatch: true))
        let ann = lobby.player("ann", joining: "table")
        let bob = lobby.player("bob", joining: "table")
        let zoe = lobby.connect()
        lobby.send("watch table", from: zoe)
        // Ann takes a pair and, on turn again, lets the clock run: ann, bob, ann, bob, ann time out, and
        // ann's third timeout in a row forfeits the game.
        let pair = [0, try #require(deal.lastIndex(of: deal[0]))]
        lobby.flip(pair[0], by: ann)
        lobby.flip(pair[1], by: ann)
        #expect(lobby.lastState(ann)?.state.cards[pair[1]] == .matched(face: deal[0], by: .first))
        var seen: [ConnectionID: [StateMessage]] = [:]
        for id in [ann, bob, zoe] { _ = lobby.take(id) }
        lobby.advance(by: 6 * 30_000)
        for id in [ann, bob, zoe] { seen[id] = lobby.states(id) }

        let neverFound = deal.indices.filter { !pair.contains($0) }.map { deal[$0] }
        let over = try #require(seen[zoe]?.last)
        #expect(over.state.phase == .over && over.state.event.kind == .forfeit)
        #expect(over.state.downFaces == neverFound)
        #expect(over.state.cards.filter { $0 == .down }.count == neverFound.count)
        #expect(seen[ann]?.last == over && seen[bob]?.last == over)
        // Every state before the end, the timeouts', listed none.
        #expect(seen[zoe]?.dropLast().allSatisfy { $0.state.downFaces == nil } == true)

        let eve = lobby.connect()
        lobby.send("watch table", from: eve)
        let first = try #require(lobby.states(eve).first)
        #expect(first.state.phase == .over && first.state.downFaces == neverFound)

        lobby.send("rematch", from: ann)
        lobby.send("rematch", from: bob)
        let next = lobby.states(eve)
        #expect(next.last?.state.game == 2 && next.last?.state.phase == .playing)
        #expect(next.filter { $0.state.phase != .over }.allSatisfy { $0.state.downFaces == nil })
    }
}
