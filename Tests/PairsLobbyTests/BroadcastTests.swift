import PairsLobby
import PairsRules
import PairsWire
import Testing

@Suite("Broadcasts")
struct BroadcastTests {
    @Test("a room's state goes to its players and spectators as one broadcast, the flipper first, all the same bytes")
    func stateIsOneBroadcast() {
        let lobby = LobbyHarness()
        let ann = lobby.player("ann", joining: "table")
        let bob = lobby.player("bob", joining: "table")
        let watcher = lobby.connect()
        lobby.send("watch table", from: watcher)
        lobby.advance(by: 60_000)
        let before = lobby.broadcasts.count
        let flipper = lobby.lastState(ann)?.state.turn == .first ? ann : bob
        lobby.flip(0, by: flipper)
        let flip = Array(lobby.broadcasts[before...])
        #expect(flip.map(\.to).first == flipper)
        #expect(Set(flip.map(\.to)) == [ann, bob, watcher])
        #expect(flip.map(\.first) == [true, false, false])
        #expect(Set(flip.map(\.bytes)).count == 1)
    }

    @Test("chat in a room is one broadcast, and the next one starts anew")
    func chatIsOneBroadcast() {
        let lobby = LobbyHarness()
        let ann = lobby.player("ann", joining: "table")
        _ = lobby.player("bob", joining: "table")
        let before = lobby.broadcasts.count
        lobby.send("say one", from: ann)
        lobby.send("say two", from: ann)
        let chats = Array(lobby.broadcasts[before...])
        #expect(chats.map(\.first) == [true, false, true, false])
        #expect(chats[0].bytes == chats[1].bytes)
        #expect(chats[1].bytes != chats[2].bytes)
    }
}
