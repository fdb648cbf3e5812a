import PairsLobby
import PairsWire
import Testing

@Suite("Tournament requests before the lobby runs tournaments")
struct TournamentRefusalTests {
    @Test("every tournament request is refused with unknown_type and its id, and the connection goes on as before")
    func tournamentRequestsAreRefused() {
        let lobby = LobbyHarness()
        let ann = lobby.connect()
        let lines = [
            #"{"type":"tournament_create","name":"cup","format":"swiss","id":1}"#,
            #"{"type":"tournament_join","tournament":"cup","id":2}"#,
            #"{"type":"tournament_list","id":3}"#,
            "tournament watch cup",
        ]
        for line in lines { lobby.send(line, from: ann) }
        let answers = lobby.take(ann)
        let refusals = answers.compactMap { if case .error(let error) = $0 { error } else { nil } }
        #expect(refusals.map(\.code) == Array(repeating: .unknownType, count: 4))
        #expect(refusals.map(\.id) == [.integer(1), .integer(2), .integer(3), nil])
        lobby.send(#"{"type":"ping","id":9}"#, from: ann)
        #expect(lobby.take(ann).contains(.pong(id: .integer(9))))
    }
}
