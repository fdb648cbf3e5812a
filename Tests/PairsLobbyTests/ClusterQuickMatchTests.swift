import PairsLobby
import PairsRules
import PairsWire
import Testing

/// Quick match across the instances of a cluster, as one instance's lobby sees it: the cluster's answers
/// (a partner elsewhere, queued here, withdrawn or taken first, out of reach) are given by hand.
@Suite("Quick match across instances")
struct ClusterQuickMatchTests {
    private let elsewhere = ServerEndpoint(host: "10.0.0.2", port: 7001)

    /// A connection on `shard` that follows redirects and asks for a quick match.
    private func follower(_ name: String, in lobby: LobbyHarness, on shard: Int = 0, id: Int = 1) -> ConnectionID {
        let connection = lobby.connect(on: shard)
        lobby.send(#"{"type":"hello","name":"\#(name)","redirects":true}"#, from: connection)
        lobby.send(#"{"type":"join","id":\#(id)}"#, from: connection)
        return connection
    }

    /// The room the oldest open question asks to queue, if it is a quick match.
    private func askedQuickRoom(_ lobby: LobbyHarness) -> String? {
        guard case .quickMatch(let room, let rules)? = lobby.clusterInquiries.first?.question, rules.variant.seats != .one else { return nil }
        return room
    }

    @Test("nobody waiting here: the cluster is asked, naming the room that would be made; a partner elsewhere is a redirect to join its room there")
    func partnerElsewhereIsARedirect() throws {
        let cluster = RecordingCluster()
        let lobby = LobbyHarness(cluster: cluster)
        let ann = follower("ann", in: lobby, id: 4)
        let asked = try #require(askedQuickRoom(lobby))
        #expect(asked.hasPrefix("quick-a1b2c3-"))
        #expect(lobby.joined(ann) == nil, "no room before the cluster's word")
        lobby.answerCluster(.matchedWith(room: "quick-ffffff-9", at: elsewhere))
        #expect(lobby.take(ann).last == .redirect(Redirect(host: "10.0.0.2", port: 7001, request: .join, room: "quick-ffffff-9", id: .integer(4))))
        // The room named for the question is not made, and nothing of it is left queued or claimed.
        #expect(lobby.lobbies[0].sharedDirectory.roomCount == 0)
        #expect(cluster.changes.contains(.roomClosed(asked)))
    }

    @Test("nobody waiting anywhere: the room is made here and queued; a local quick joiner withdraws it first, then sits; one asking meanwhile on another shard waits for the same answer")
    func queuedHereThenWithdrawnForALocalPartner() throws {
        let cluster = RecordingCluster()
        let lobby = LobbyHarness(shards: 2, cluster: cluster)
        let ann = follower("ann", in: lobby)
        let room = try #require(askedQuickRoom(lobby))
        let bob = follower("bob", in: lobby, on: 1)
        #expect(lobby.clusterInquiries.count == 1, "one question for one quick room")
        lobby.answerCluster(.here)
        #expect(lobby.joined(ann)?.room == room)
        #expect(lobby.joined(bob) == nil, "the queued room is withdrawn before a local player fills it")
        #expect(lobby.clusterInquiries.map(\.question) == [.withdrawWaiter(room)])
        lobby.answerCluster(.here)
        #expect(lobby.joined(bob)?.room == room)
        #expect(lobby.joined(bob)?.seat == .second)
        #expect(lobby.lastState(ann)?.state.phase == .playing)
        #expect(!cluster.changes.contains(.waiterWithdrawn(room)), "withdrawn once, by the question")
    }

    @Test("a withdrawal too late: the seat is kept for the player another instance sends, who joins by name; the local joiner gets a quick room of its own")
    func takenElsewhereKeepsTheSeat() throws {
        let cluster = RecordingCluster()
        let lobby = LobbyHarness(cluster: cluster)
        let ann = follower("ann", in: lobby)
        let room = try #require(askedQuickRoom(lobby))
        lobby.answerCluster(.here)
        let bob = follower("bob", in: lobby)
        #expect(lobby.clusterInquiries.map(\.question) == [.withdrawWaiter(room)])
        lobby.answerCluster(.takenElsewhere)
        let second = try #require(askedQuickRoom(lobby), "bob asks anew, for a room of his own")
        #expect(second != room)
        lobby.answerCluster(.here)
        #expect(lobby.joined(bob)?.room == second)
        // A netcat quick joiner is not offered the promised seat either: it fills bob's, withdrawn first.
        let netcat = lobby.player("dan", joining: nil)
        #expect(lobby.clusterInquiries.map(\.question) == [.withdrawWaiter(second)])
        lobby.answerCluster(.nowhere)
        #expect(lobby.joined(netcat)?.room == second)
        // The player sent from the other instance arrives with a plain join of the room.
        let cy = lobby.player("cy", joining: room)
        #expect(lobby.joined(cy)?.seat == .second)
        #expect(lobby.lastState(ann)?.state.phase == .playing)
    }

    @Test("a partner found elsewhere for an asker who left goes to the next quick joiner that follows redirects, never to one that does not")
    func partnerOfAnAskerWhoLeft() throws {
        let lobby = LobbyHarness(cluster: RecordingCluster())
        let ann = follower("ann", in: lobby)
        _ = try #require(askedQuickRoom(lobby))
        let netcat = lobby.player("dan", joining: nil)
        let bob = follower("bob", in: lobby, id: 3)
        #expect(lobby.clusterInquiries.count == 1, "both wait for ann's question")
        lobby.drop(ann)
        lobby.answerCluster(.matchedWith(room: "quick-ffffff-2", at: elsewhere))
        #expect(lobby.take(bob).last == .redirect(Redirect(host: "10.0.0.2", port: 7001, request: .join, room: "quick-ffffff-2", id: .integer(3))))
        #expect(lobby.joined(netcat) != nil, "the netcat user starts again, here")
        #expect(!lobby.take(netcat).contains { if case .redirect = $0 { true } else { false } })
    }

    @Test("a promised seat whose player never comes is offered again after 30 s, here too: a netcat quick joiner fills it once the cluster has it back")
    func promiseLapses() throws {
        let lobby = LobbyHarness(cluster: RecordingCluster())
        let ann = follower("ann", in: lobby)
        let room = try #require(askedQuickRoom(lobby))
        lobby.answerCluster(.here)
        let bob = follower("bob", in: lobby, id: 2)
        lobby.answerCluster(.takenElsewhere)
        _ = try #require(askedQuickRoom(lobby))
        lobby.answerCluster(.matchedWith(room: "quick-ffffff-1", at: elsewhere))
        #expect(lobby.take(bob).last == .redirect(Redirect(host: "10.0.0.2", port: 7001, request: .join, room: "quick-ffffff-1", id: .integer(2))))
        lobby.advance(by: 29_000)
        let early = lobby.player("cy", joining: nil)
        #expect(lobby.joined(early)?.room != room, "still kept for the player sent from elsewhere")
        lobby.send("leave", from: early)
        lobby.advance(by: 1_000)
        let late = lobby.player("dan", joining: nil)
        #expect(requeuedRoom(lobby) == room)
        lobby.answerCluster(.here)
        #expect(lobby.clusterInquiries.map(\.question) == [.withdrawWaiter(room)])
        lobby.answerCluster(.here)
        #expect(lobby.joined(late)?.room == room)
        #expect(lobby.lastState(ann)?.state.phase == .playing)
    }

    /// Ann's room, queued, then taken by another instance whose player never comes: the promise is made, and
    /// bob, the local quick joiner who found it taken, is sent to a partner elsewhere. Returns ann and her room.
    private func promisedRoom(in lobby: LobbyHarness) throws -> (ann: ConnectionID, room: String) {
        let ann = follower("ann", in: lobby)
        let room = try #require(askedQuickRoom(lobby))
        lobby.answerCluster(.here)
        _ = follower("bob", in: lobby, id: 2)
        lobby.answerCluster(.takenElsewhere)
        _ = try #require(askedQuickRoom(lobby))
        lobby.answerCluster(.matchedWith(room: "quick-ffffff-1", at: elsewhere))
        #expect(lobby.clusterInquiries.isEmpty)
        return (ann, room)
    }

    /// The room the oldest open question asks to queue again, if it is a requeue.
    private func requeuedRoom(_ lobby: LobbyHarness) -> String? {
        guard case .requeueWaiter(let room, _)? = lobby.clusterInquiries.first?.question else { return nil }
        return room
    }

    @Test("a promise that lapses while its player still waits queues the room in the cluster again, so the player sent by a quick joiner elsewhere joins it here by name")
    func lapsedPromiseIsQueuedAgain() throws {
        let cluster = RecordingCluster()
        let lobby = LobbyHarness(cluster: cluster)
        let (ann, room) = try promisedRoom(in: lobby)
        lobby.advance(by: 29_999)
        #expect(lobby.clusterInquiries.isEmpty, "still kept for the player sent from elsewhere")
        lobby.advance(by: 1)
        #expect(requeuedRoom(lobby) == room)
        lobby.answerCluster(.here)
        #expect(lobby.clusterInquiries.isEmpty)
        // Another instance's quick joiner took the waiter again: its player arrives with a plain join.
        let cy = lobby.player("cy", joining: room)
        #expect(lobby.joined(cy)?.seat == .second)
        #expect(lobby.lastState(ann)?.state.phase == .playing)
        #expect(cluster.changes.contains(.waiterWithdrawn(room)), "full: out of the queue, nobody else is sent")
    }

    @Test("a queued room the cluster's renewal says another instance took keeps its seat for the player sent, and is queued again if they never come")
    func takenAtARenewalIsPromised() throws {
        let lobby = LobbyHarness(cluster: RecordingCluster())
        let ann = follower("ann", in: lobby)
        let room = try #require(askedQuickRoom(lobby))
        lobby.answerCluster(.here)
        lobby.lobbies[0].waitersTakenElsewhere([room, "quick-a1b2c3-99"], at: lobby.now)
        let cy = lobby.player("cy", joining: nil)
        #expect(lobby.clusterInquiries.isEmpty, "no withdrawal: the seat is promised")
        #expect(lobby.joined(cy)?.room != room)
        lobby.send("leave", from: cy)
        lobby.advance(by: 30_000)
        #expect(requeuedRoom(lobby) == room)
        lobby.answerCluster(.here)
        _ = lobby.player("dan", joining: room)
        #expect(lobby.lastState(ann)?.state.phase == .playing)
    }

    @Test("a local quick joiner who comes while the lapsed room is being queued again waits for the answer, then withdraws it before sitting")
    func localJoinerWithdrawsTheRequeuedRoom() throws {
        let lobby = LobbyHarness(shards: 2, cluster: RecordingCluster())
        let (ann, room) = try promisedRoom(in: lobby)
        lobby.advance(by: 30_000)
        #expect(requeuedRoom(lobby) == room)
        let dan = follower("dan", in: lobby, on: 1, id: 5)
        #expect(lobby.joined(dan) == nil, "no seat before the cluster's word on the room")
        #expect(lobby.clusterInquiries.count == 1, "no question of dan's own meanwhile")
        lobby.answerCluster(.here)
        #expect(lobby.joined(dan) == nil, "queued again: withdrawn before a local player fills it")
        #expect(lobby.clusterInquiries.map(\.question) == [.withdrawWaiter(room)])
        lobby.answerCluster(.here)
        #expect(lobby.joined(dan)?.room == room)
        #expect(lobby.lastState(ann)?.state.phase == .playing)
    }

    @Test("a lapsed promise with the cluster out of reach leaves the room to this instance's quick joiners, with no withdrawal")
    func lapsedPromiseStaysLocalWithoutTheCluster() throws {
        let lobby = LobbyHarness(cluster: RecordingCluster())
        let (ann, room) = try promisedRoom(in: lobby)
        lobby.advance(by: 30_000)
        #expect(requeuedRoom(lobby) == room)
        lobby.answerCluster(.unavailable)
        let dan = follower("dan", in: lobby, id: 5)
        #expect(lobby.clusterInquiries.isEmpty, "not queued: filled at once")
        #expect(lobby.joined(dan)?.room == room)
        #expect(lobby.lastState(ann)?.state.phase == .playing)
    }

    @Test("a promise that lapses after its player left is not queued again")
    func lapsedPromiseOfAPlayerWhoLeftIsNotQueued() throws {
        let lobby = LobbyHarness(cluster: RecordingCluster())
        let (ann, room) = try promisedRoom(in: lobby)
        lobby.drop(ann)
        lobby.advance(by: 30_000)
        #expect(requeuedRoom(lobby) == nil, "nobody waits in \(room): nothing to offer the cluster")
        #expect(lobby.clusterInquiries.isEmpty)
    }

    @Test("a queued room whose player leaves, or is joined by name, leaves the cluster's queue")
    func queuedRoomIsWithdrawnWhenItStopsWaiting() throws {
        let cluster = RecordingCluster()
        let lobby = LobbyHarness(cluster: cluster)
        let ann = follower("ann", in: lobby)
        let room = try #require(askedQuickRoom(lobby))
        lobby.answerCluster(.here)
        lobby.send("leave", from: ann)
        #expect(cluster.changes.contains(.waiterWithdrawn(room)))
        let bob = follower("bob", in: lobby)
        let other = try #require(askedQuickRoom(lobby))
        lobby.answerCluster(.here)
        _ = lobby.player("cy", joining: other)
        #expect(lobby.joined(bob)?.room == other)
        #expect(cluster.changes.contains(.waiterWithdrawn(other)), "full: nobody may be sent to it")
    }

    @Test("a client that does not follow redirects is paired on this instance only; with the cluster out of reach, quick match pairs here")
    func localOnlyAndFallback() throws {
        let lobby = LobbyHarness(cluster: RecordingCluster())
        let netcat = lobby.player("ann", joining: nil)
        #expect(lobby.clusterInquiries.isEmpty)
        let local = try #require(lobby.joined(netcat)?.room)
        let bob = follower("bob", in: lobby)
        #expect(lobby.clusterInquiries.isEmpty, "a room waiting here that is not queued is filled at once")
        #expect(lobby.joined(bob)?.room == local)
        let cy = follower("cy", in: lobby)
        _ = try #require(askedQuickRoom(lobby))
        lobby.answerCluster(.unavailable)
        let fallback = try #require(lobby.joined(cy)?.room)
        let dan = follower("dan", in: lobby)
        #expect(lobby.clusterInquiries.isEmpty, "the fallback room is not queued: no withdrawal")
        #expect(lobby.joined(dan)?.room == fallback)
        #expect(lobby.lastState(dan)?.state.phase == .playing)
    }
}
