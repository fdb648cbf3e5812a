import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

@Suite("Chat names")
struct ChatTests {
    private func chats(_ messages: [ServerMessage]) -> [ChatMessage] {
        messages.compactMap { if case .chat(let chat) = $0 { chat } else { nil } }
    }

    @Test("a player who renames to the opponent's name still chats under the name the room shows for their seat")
    func renamedPlayerCannotImpersonate() {
        let lobby = LobbyHarness()
        let ann = lobby.player("ann", joining: "table")
        let mallory = lobby.player("mallory", joining: "table")
        lobby.send("name ann", from: mallory)
        lobby.send("say it's me, ann", from: mallory)
        #expect(lobby.lastState(ann)?.state.players.map { $0?.name } == ["ann", "mallory"])
        let said = chats(lobby.take(ann))
        #expect(said.map(\.from) == ["mallory"])
        #expect(said.map(\.seat) == [.second])
    }

    @Test("a spectator chats with seat null under the name they watched with, whatever they rename to")
    func spectatorIsMarked() {
        let lobby = LobbyHarness()
        let ann = lobby.player("ann", joining: "table")
        _ = lobby.player("bob", joining: "table")
        let watcher = lobby.connect()
        lobby.send("name eve", from: watcher)
        lobby.send("watch table", from: watcher)
        lobby.send("name ann", from: watcher)
        lobby.send("say hello", from: watcher)
        let said = chats(lobby.take(ann))
        #expect(said.map(\.from) == ["eve"])
        #expect(said.map(\.seat) == [nil])
    }
}
