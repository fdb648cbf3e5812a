import PairsLobby
import PairsRules
import PairsWire
import Testing

/// The lobby as one instance of a cluster: what it asks, how its clients wait, and what it does with each
/// answer. The cluster itself (Redis) is tested in PairsClusterTests; here its answers are given by hand.
@Suite("The lobby in a cluster of instances")
struct ClusterLobbyTests {
    private let elsewhere = ServerEndpoint(host: "10.0.0.2", port: 7001)

    @Test("a new room name is claimed from the cluster first; a second join of it meanwhile, from another shard, waits for the same answer")
    func claimBeforeMaking() throws {
        let cluster = RecordingCluster()
        let lobby = LobbyHarness(shards: 2, cluster: cluster)
        let ann = lobby.player("ann", joining: "kitchen", on: 0)
        #expect(lobby.clusterInquiries.map(\.question) == [.claimRoom("kitchen")])
        #expect(lobby.joined(ann) == nil, "no room before the cluster's word")
        lobby.send(#"{"type":"ping","id":5}"#, from: ann)
        #expect(!lobby.take(ann).contains(.pong(id: .integer(5))), "the ping waits behind the join")
        let bob = lobby.player("bob", joining: "kitchen", on: 1)
        #expect(lobby.clusterInquiries.count == 1, "no second claim of one name")
        lobby.answerCluster(.here)
        #expect(lobby.joined(ann)?.seat == .first)
        #expect(lobby.joined(bob)?.seat == .second)
        #expect(lobby.take(ann).contains(.pong(id: .integer(5))), "the ping is answered after the join")
        #expect(cluster.changes.contains { if case .tokenIssued = $0 { true } else { false } })
    }

    @Test("a room owned elsewhere: a client that follows redirects gets one; any other an owned_elsewhere naming the address")
    func redirectOrWords() throws {
        let lobby = LobbyHarness(cluster: RecordingCluster())
        let follower = lobby.connect()
        lobby.send(#"{"type":"hello","name":"cy","redirects":true}"#, from: follower)
        lobby.send(#"{"type":"join","room":"kitchen","id":7}"#, from: follower)
        lobby.answerCluster(.elsewhere(elsewhere))
        #expect(lobby.take(follower).last == .redirect(Redirect(host: "10.0.0.2", port: 7001, request: .join, room: "kitchen", id: .integer(7))))
        let netcat = lobby.connect()
        lobby.send("watch kitchen", from: netcat)
        #expect(lobby.clusterInquiries.map(\.question) == [.findRoom("kitchen")])
        lobby.answerCluster(.elsewhere(elsewhere))
        guard case .error(let error)? = lobby.take(netcat).last else { Issue.record("no error"); return }
        #expect(error.code == .ownedElsewhere)
        #expect(error.message == "room kitchen is played on another instance of this server, at 10.0.0.2:7001: connect there and watch kitchen")
        // The name this instance gave up is free here again: a later claim that succeeds makes the room.
        let ann = lobby.player("ann", joining: "kitchen")
        lobby.answerCluster(.here)
        #expect(lobby.joined(ann)?.room == "kitchen")
    }

    @Test("with the cluster out of reach, what needs it is cluster_unavailable, and a game under way plays on")
    func unavailable() throws {
        let lobby = LobbyHarness(cluster: RecordingCluster())
        let ann = lobby.player("ann", joining: "kitchen")
        lobby.answerCluster(.here)
        let bob = lobby.player("bob", joining: "kitchen")
        #expect(lobby.clusterInquiries.isEmpty, "a room this instance has needs no question")
        #expect(lobby.joined(bob)?.seat == .second)
        let late = lobby.player("cy", joining: "attic")
        lobby.answerCluster(.unavailable)
        #expect(lobby.errors(late) == [.clusterUnavailable])
        let resumer = lobby.connect()
        lobby.send("resume 0123456789abcdef0123456789abcdef", from: resumer)
        lobby.answerCluster(.unavailable)
        #expect(lobby.errors(resumer) == [.clusterUnavailable])
        _ = lobby.take(ann)
        lobby.flip(0, by: ann)
        #expect(lobby.states(ann).last?.state.event == StateEvent(.flip(.first, card: 0)))
    }

    @Test("a token nobody holds is bad_token, as on one server; rooms the lobby names carry the instance's tag and are recorded")
    func tokensAndNames() throws {
        let cluster = RecordingCluster()
        let lobby = LobbyHarness(cluster: cluster)
        let resumer = lobby.connect()
        lobby.send("resume 0123456789abcdef0123456789abcdef", from: resumer)
        #expect(lobby.clusterInquiries.map(\.question) == [.findToken("0123456789abcdef0123456789abcdef")])
        lobby.answerCluster(.nowhere)
        #expect(lobby.errors(resumer) == [.badToken])
        let quick = lobby.player("ann", joining: nil)
        let room = try #require(lobby.joined(quick)?.room)
        #expect(room.hasPrefix("quick-a1b2c3-"))
        #expect(cluster.changes.contains(.roomOpened(room)))
        lobby.send("leave", from: quick)
        #expect(cluster.changes.contains(.roomClosed(room)))
    }
}
