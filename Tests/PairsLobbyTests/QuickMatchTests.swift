import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

@Suite("Quick match")
struct QuickMatchTests {
    @Test("a quick-match player who dropped while waiting is not offered to the next player, who gets a room of their own")
    func absentWaitingPlayerIsNotOffered() {
        let lobby = LobbyHarness()
        let ghost = lobby.player("ghost", joining: nil)
        let ghostRoom = lobby.joined(ghost)?.room
        lobby.drop(ghost)
        let newcomer = lobby.player("newcomer", joining: nil)
        #expect(lobby.joined(newcomer)?.room != ghostRoom)
        #expect(lobby.joined(newcomer)?.seat == .first)
        let partner = lobby.player("partner", joining: nil)
        #expect(lobby.joined(partner)?.room == lobby.joined(newcomer)?.room)
        #expect(lobby.lastState(partner)?.state.phase == .playing)
    }

    @Test("a waiting player who resumes is offered again to the next quick-match player")
    func resumedWaitingPlayerIsOfferedAgain() throws {
        let lobby = LobbyHarness()
        let ann = lobby.player("ann", joining: nil)
        let joined = try #require(lobby.joined(ann))
        lobby.drop(ann)
        let back = lobby.connect()
        lobby.send(#"{"type":"resume","token":"\#(joined.token ?? "")"}"#, from: back)
        #expect(lobby.joined(back)?.room == joined.room)
        let bob = lobby.player("bob", joining: nil)
        #expect(lobby.joined(bob)?.room == joined.room)
        #expect(lobby.lastState(bob)?.state.phase == .playing)
    }

    @Test("a script that joins and drops in a loop never stalls quick matching for two real players")
    func joinAndDropLoopDoesNotStall() {
        let lobby = LobbyHarness()
        // From an address of its own: past `RoomLimits.awaySeatsPerAddress` the script's joins are refused,
        // which must not touch players elsewhere.
        for number in 0..<50 {
            let ghost = lobby.connect(from: "10.0.0.66")
            lobby.send(#"{"type":"hello","name":"ghost\#(number)"}"#, from: ghost)
            lobby.send(#"{"type":"join"}"#, from: ghost)
            lobby.drop(ghost)
        }
        let ann = lobby.player("ann", joining: nil)
        let bob = lobby.player("bob", joining: nil)
        #expect(lobby.joined(ann)?.room == lobby.joined(bob)?.room)
        #expect(lobby.lastState(ann)?.state.phase == .playing)
        #expect(lobby.lastState(ann)?.state.players.allSatisfy { $0?.connected == true } == true)
    }

    @Test("quick match pairs only players who asked for the same options")
    func sameOptionsOnly() {
        let lobby = LobbyHarness()
        let small = lobby.player("small", joining: nil, extra: #","pairs":2"#)
        let large = lobby.player("large", joining: nil, extra: #","pairs":6"#)
        let alsoSmall = lobby.player("also", joining: nil, extra: #","pairs":2"#)
        #expect(lobby.joined(large)?.room != lobby.joined(small)?.room)
        #expect(lobby.joined(alsoSmall)?.room == lobby.joined(small)?.room)
    }
}
