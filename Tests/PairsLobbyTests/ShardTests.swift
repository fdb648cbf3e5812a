import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

/// Several lobby shards sharing one directory, as a server's event loops do, driven from one thread on a
/// manual clock. Hand-offs are delivered by hand where a test needs a race to happen in a given order.
@Suite("Rooms on several shards")
struct ShardTests {
    private func join(_ room: String) -> String { #"{"type":"join","room":"\#(room)"}"# }

    /// Grace periods without turn clocks, so that only the grace period's end forfeits.
    private static func noTurnClock(_ configuration: inout LobbyConfiguration) {
        configuration.graceSeconds = 60
        configuration.defaultRules.turnSeconds = 0
    }

    private func errors(_ messages: [ServerMessage]) -> [ErrorCode] {
        messages.compactMap { if case .error(let error) = $0 { error.code } else { nil } }
    }

    @Test("a join for a room on another shard moves the connection there and seats it, with only the usual replies")
    func joinMovesToTheRoomsShard() throws {
        let lobby = LobbyHarness(shards: 3)
        let ann = lobby.player("ann", joining: "den", on: 0)
        let bob = lobby.player("bob", joining: "den", on: 1)
        #expect(lobby.shard(of: bob) == 0)
        let messages = lobby.take(bob)
        #expect(errors(messages).isEmpty)
        guard messages.count > 3, case .welcome(let greeting) = messages[0], case .welcome(let named) = messages[1],
              case .joined(let joined) = messages[2], case .state = messages[3] else {
            Issue.record("not welcome, welcome with the name, joined, states: \(messages)")
            return
        }
        #expect(greeting.name == nil)
        #expect(named.name == "bob")
        #expect(joined.room == "den")
        #expect(joined.seat == .second)
        #expect(lobby.lastState(ann)?.state.phase == .playing)
        #expect(lobby.lobbies.map(\.loopStatistics.connections) == [2, 0, 0])
        #expect(lobby.lobbies.map(\.loopStatistics.rooms) == [1, 0, 0])
        #expect(lobby.lobbies.map(\.loopStatistics.handOffs) == [0, 1, 0])
    }

    @Test("a spectator on another shard moves to the room's shard and sees every state of its game")
    func spectatorFollowsTheRoom() throws {
        let lobby = LobbyHarness(shards: 2)
        let ann = lobby.player("ann", joining: "den", on: 0)
        lobby.player("bob", joining: "den", on: 0)
        let eve = lobby.connect(on: 1)
        lobby.send(#"{"type":"watch","room":"den"}"#, from: eve)
        #expect(lobby.shard(of: eve) == 0)
        #expect(lobby.joined(eve)?.room == "den")
        #expect(lobby.joined(eve)?.seat == nil)
        _ = lobby.take(eve)
        lobby.flip(0, by: ann)
        #expect(lobby.states(eve).last?.state.cards[0] != .down)
    }

    @Test("messages a connection sends while it moves follow it, in order, to its new shard")
    func unreadInputFollows() throws {
        let lobby = LobbyHarness(shards: 2)
        let ann = lobby.player("ann", joining: "den", on: 0)
        lobby.deliversHandOffs = false
        let bob = lobby.connect(on: 1)
        lobby.send(join("den"), from: bob)
        lobby.send(#"{"type":"say","text":"hi"}"#, from: bob)
        lobby.send(#"{"type":"say","text":"again"}"#, from: bob)
        #expect(lobby.isInFlight(bob))
        _ = lobby.take(ann)
        #expect(lobby.deliver(bob))
        let chat = lobby.take(ann).compactMap { if case .chat(let chat) = $0 { chat.text } else { nil } }
        #expect(chat == ["hi", "again"])
    }

    @Test("the last seat raced from two shards goes to exactly one of them; the other is told the room is full")
    func lastSeatRacedFromTwoShards() throws {
        let lobby = LobbyHarness(shards: 3)
        lobby.player("ann", joining: "den", on: 0)
        lobby.deliversHandOffs = false
        let bob = lobby.player("bob", joining: "den", on: 1)
        let cat = lobby.player("cat", joining: "den", on: 2)
        #expect(lobby.inFlight.count == 2, "both are on their way before either arrives")
        lobby.deliver(cat)
        lobby.deliver(bob)
        let bobMessages = lobby.take(bob), catMessages = lobby.take(cat)
        #expect(catMessages.contains { if case .joined(let joined) = $0 { joined.seat == .second } else { false } })
        #expect(errors(bobMessages) == [.roomFull])
        #expect(!bobMessages.contains { if case .joined = $0 { true } else { false } })
        #expect(lobby.shard(of: bob) == 0, "the loser stays on the room's shard, in no room")
    }

    @Test("two shards opening the same room name make one room, and both players sit in it")
    func sameNameFromTwoShards() throws {
        let lobby = LobbyHarness(shards: 2)
        lobby.deliversHandOffs = false
        let ann = lobby.player("ann", joining: "den", on: 1)
        let bob = lobby.player("bob", joining: "den", on: 0)
        lobby.deliver(bob)
        #expect(lobby.joined(ann)?.room == "den")
        #expect(lobby.joined(bob)?.room == "den")
        #expect(lobby.joined(bob)?.seat == .second)
        #expect(lobby.lobbies.map(\.loopStatistics.rooms) == [0, 1])
        #expect(lobby.lobby.sharedDirectory.roomCount == 1)
    }

    @Test("quick match pairs two players waiting on different shards in one room")
    func quickMatchAcrossShards() throws {
        let lobby = LobbyHarness(shards: 2)
        let ann = lobby.player("ann", joining: nil, on: 0)
        let bob = lobby.player("bob", joining: nil, on: 1)
        #expect(lobby.joined(ann)?.room == lobby.joined(bob)?.room)
        #expect(lobby.lastState(bob)?.state.phase == .playing)
        #expect(lobby.lobby.sharedDirectory.roomCount == 1)
    }

    @Test("three quick joiners racing from three shards: two share a room, the third waits in a new one, nobody is lost")
    func quickMatchRace() throws {
        let lobby = LobbyHarness(shards: 3)
        let ann = lobby.player("ann", joining: nil, on: 0)
        lobby.deliversHandOffs = false
        let bob = lobby.player("bob", joining: nil, on: 1)
        let cat = lobby.player("cat", joining: nil, on: 2)
        #expect(lobby.inFlight.count == 2)
        lobby.deliver(cat)
        lobby.deliver(bob)
        #expect(lobby.joined(cat)?.room == lobby.joined(ann)?.room)
        let bobRoom = try #require(lobby.joined(bob)?.room)
        #expect(bobRoom != lobby.joined(ann)?.room)
        #expect(lobby.joined(bob)?.seat == .first)
        // Bob's new room is offered to the next quick joiner, wherever that one is.
        lobby.deliversHandOffs = true
        let dan = lobby.player("dan", joining: nil, on: 2)
        #expect(lobby.joined(dan)?.room == bobRoom)
        #expect(lobby.lobby.sharedDirectory.roomCount == 2)
    }

    @Test("a player who resumes on another shard gets the seat back on the room's shard and plays on")
    func resumeOnAnotherShard() throws {
        let lobby = LobbyHarness(shards: 3)
        let ann = lobby.player("ann", joining: "den", on: 0)
        let bob = lobby.player("bob", joining: "den", on: 0)
        let token = try #require(lobby.joined(ann)?.token)
        lobby.drop(ann)
        let back = lobby.connect(on: 2)
        lobby.send(#"{"type":"resume","token":"\#(token)"}"#, from: back)
        #expect(lobby.shard(of: back) == 0)
        #expect(lobby.joined(back)?.seat == .first)
        #expect(lobby.lastState(bob)?.state.players[0]?.connected == true)
        _ = lobby.take(bob)
        lobby.flip(0, by: back)
        #expect(lobby.states(bob).last?.state.cards[0] != .down)
    }

    @Test("a token used on one shard no longer resumes from another")
    func usedTokenFailsEverywhere() throws {
        let lobby = LobbyHarness(shards: 2)
        let ann = lobby.player("ann", joining: "den", on: 0)
        lobby.player("bob", joining: "den", on: 0)
        let token = try #require(lobby.joined(ann)?.token)
        lobby.drop(ann)
        let back = lobby.connect(on: 1)
        lobby.send(#"{"type":"resume","token":"\#(token)"}"#, from: back)
        let again = lobby.connect(on: 1)
        lobby.send(#"{"type":"resume","token":"\#(token)"}"#, from: again)
        #expect(lobby.errors(again) == [.badToken])
        #expect(lobby.shard(of: again) == 1, "a token nobody holds sends nobody anywhere")
    }

    @Test("a connection whose socket closes while it moves is counted once, and its seat is held as for any player who drops")
    func handOffRacingDisconnect() throws {
        let lobby = LobbyHarness(shards: 2, Self.noTurnClock)
        let ann = lobby.player("ann", joining: "den", on: 0)
        lobby.deliversHandOffs = false
        let bob = lobby.player("bob", joining: "den", on: 1)
        lobby.drop(bob)
        #expect(lobby.lobbies.map(\.loopStatistics.connections) == [1, 0], "the shard it left forgot it, and ignores the close")
        lobby.deliver(bob)
        #expect(lobby.lobbies.map(\.loopStatistics.connections) == [1, 0])
        let players = try #require(lobby.lastState(ann)?.state.players)
        #expect(players[1]?.name == "bob")
        #expect(players[1]?.connected == false)
        _ = lobby.take(ann)
        lobby.advance(by: 60_000)
        #expect(lobby.states(ann).map(\.state.event).contains(StateEvent(.forfeit(.second, .away))),
                "bob's grace period ran out as anyone's does")
    }

    @Test("a room that closes while a watcher is on the way answers no_such_room, and a join on the way makes the room afresh")
    func roomRemovedWhileMovingIn() throws {
        let lobby = LobbyHarness(shards: 2)
        let ann = lobby.player("ann", joining: "den", on: 0)
        lobby.deliversHandOffs = false
        let eve = lobby.connect(on: 1)
        lobby.send(#"{"type":"watch","room":"den"}"#, from: eve)
        let bob = lobby.player("bob", joining: "den", on: 1)
        lobby.send(#"{"type":"leave"}"#, from: ann)
        #expect(lobby.lobby.sharedDirectory.roomCount == 0)
        _ = lobby.take(eve)
        lobby.deliver(eve)
        #expect(lobby.errors(eve) == [.noSuchRoom])
        lobby.deliver(bob)
        #expect(lobby.joined(bob)?.room == "den")
        #expect(lobby.joined(bob)?.seat == .first)
        #expect(lobby.lobby.sharedDirectory.roomCount == 1)
    }

    @Test("a grace period that ends on the room's shard while its player moves in to resume leaves a dead token")
    func deadlineFiresWhileResumeMovesIn() throws {
        let lobby = LobbyHarness(shards: 2, Self.noTurnClock)
        let ann = lobby.player("ann", joining: "den", on: 0)
        let bob = lobby.player("bob", joining: "den", on: 0)
        let token = try #require(lobby.joined(ann)?.token)
        lobby.drop(ann)
        lobby.deliversHandOffs = false
        let back = lobby.connect(on: 1)
        lobby.send(#"{"type":"resume","token":"\#(token)"}"#, from: back)
        #expect(lobby.isInFlight(back))
        _ = lobby.take(bob)
        lobby.advance(by: 60_000)
        #expect(lobby.states(bob).map(\.state.event).contains(StateEvent(.forfeit(.first, .away))))
        lobby.deliver(back)
        #expect(lobby.errors(back) == [.badToken])
    }

    @Test("a resume that moves in just before the grace period ends takes the seat back, and the deadline then does nothing")
    func resumeMovesInBeforeTheDeadline() throws {
        let lobby = LobbyHarness(shards: 2, Self.noTurnClock)
        let ann = lobby.player("ann", joining: "den", on: 0)
        let bob = lobby.player("bob", joining: "den", on: 0)
        let token = try #require(lobby.joined(ann)?.token)
        lobby.drop(ann)
        lobby.deliversHandOffs = false
        let back = lobby.connect(on: 1)
        lobby.send(#"{"type":"resume","token":"\#(token)"}"#, from: back)
        lobby.advance(by: 59_999)
        lobby.deliver(back)
        #expect(lobby.joined(back)?.seat == .first)
        _ = lobby.take(bob)
        lobby.advance(by: 10 * 60_000)
        #expect(lobby.states(bob).isEmpty, "no forfeit comes")
    }

    @Test("the room list pages over every shard's rooms in one order, as one lobby lists them")
    func listSpansShards() throws {
        let sharded = LobbyHarness(shards: 3) { $0.rateLimit = nil }
        let single = LobbyHarness { $0.rateLimit = nil }
        for number in 0..<40 {
            let name = "r\((number * 17) % 40)"
            sharded.player("a\(number)", joining: name, on: number % 3)
            single.player("a\(number)", joining: name)
            if number.isMultiple(of: 4) {
                sharded.player("b\(number)", joining: name, on: (number + 1) % 3)
                single.player("b\(number)", joining: name)
            }
        }
        func pages(_ lobby: LobbyHarness, from shard: Int) throws -> [[RoomSummary]] {
            let asker = lobby.connect(on: shard)
            var pages: [[RoomSummary]] = []
            var after: RoomListCursor?
            repeat {
                let cursor = after.map { #","after":"\#($0.wireValue)""# } ?? ""
                lobby.send(#"{"type":"list","limit":6\#(cursor)}"#, from: asker)
                guard case .rooms(let list)? = lobby.take(asker).last else { Issue.record("no list"); return pages }
                #expect(list.total == 40)
                pages.append(list.rooms)
                after = list.next
            } while after != nil && pages.count < 20
            return pages
        }
        let expected = try pages(single, from: 0)
        #expect(expected.joined().count == 40)
        for shard in 0..<3 { #expect(try pages(sharded, from: shard) == expected) }
    }

    @Test("each shard counts its own connections, rooms and flips, and the counters summed are the totals")
    func perShardCounters() throws {
        let lobby = LobbyHarness(shards: 2)
        let ann = lobby.player("ann", joining: "den", on: 0)
        lobby.player("bob", joining: "den", on: 1)
        lobby.player("cat", joining: "far", on: 1)
        lobby.connect(on: 1)
        lobby.flip(0, by: ann)
        let loops = lobby.lobbies.map(\.loopStatistics)
        #expect(loops == [LoopCounters(connections: 2, rooms: 1, flips: 1, handOffs: 0),
                          LoopCounters(connections: 2, rooms: 1, flips: 0, handOffs: 1)])
        let total = ServerStatistics.summing(lobby.lobbies.map { $0.statistics(at: lobby.now) })
        #expect(total.connections == 4)
        #expect(total.rooms == 2)
        #expect(total.flips == 1)
        #expect(total.gamesActive == 1)
    }

    @Test("flips, matches, mismatches and reveals in the middle of a game never touch the shared directory; a join does")
    func flipsTouchNothingShared() throws {
        let lobby = LobbyHarness(shards: 2)
        let directory = lobby.lobby.sharedDirectory
        let rules = RuleSet(pairs: 8, turnSeconds: 30, revealMilliseconds: 1000, againOnMatch: true)
        let faces = try lobby.firstDeal(rules)
        let beforeJoins = directory.operationCount
        let ann = lobby.player("ann", joining: "den", extra: #","pairs":8"#, on: 0)
        let bob = lobby.player("bob", joining: "den", on: 1)
        #expect(directory.operationCount > beforeJoins)
        #expect(lobby.lastState(ann)?.state.phase == .playing)
        let beforeFlips = directory.operationCount
        // Ann mismatches (a reveal, then its end passes the turn), bob matches twice, then mismatches.
        let partner = { (card: Int) in faces.indices.first { $0 != card && faces[$0] == faces[card] }! }
        let other = { (card: Int) in faces.indices.first { $0 != card && faces[$0] != faces[card] }! }
        lobby.flip(0, by: ann)
        lobby.flip(other(0), by: ann)
        lobby.advance(by: 1000)
        for card in [0, other(0)] {
            lobby.flip(card, by: bob)
            lobby.flip(partner(card), by: bob)
        }
        let third = try #require(faces.indices.first { ![0, partner(0), other(0), partner(other(0))].contains($0) })
        lobby.flip(third, by: bob)
        lobby.flip(faces.indices.first { ![0, partner(0), other(0), partner(other(0)), third, partner(third)].contains($0) }!, by: bob)
        lobby.advance(by: 1000)
        #expect(lobby.lastState(ann)?.state.players[1]?.score == 2, "the moves were played")
        #expect(lobby.lastState(ann)?.state.phase == .playing)
        #expect(lobby.lobbies[0].loopStatistics.flips == 8)
        #expect(directory.operationCount == beforeFlips)
    }

    @Test("requests waiting behind a hello move with the join that follows it, and are handled in order on the room's shard")
    func deferredRequestsMoveWithTheJoin() throws {
        let lobby = LobbyHarness(shards: 2) { $0.keepsGames = true }
        let ann = lobby.connect(on: 0)
        lobby.send(#"{"type":"hello","name":"ann"}"#, from: ann)
        lobby.answerName(.free)
        lobby.send(join("den"), from: ann)
        let bob = lobby.connect(on: 1)
        lobby.send(#"{"type":"hello","name":"bob"}"#, from: bob)
        lobby.send(join("den"), from: bob)
        lobby.send(#"{"type":"say","text":"hi","id":7}"#, from: bob)
        #expect(lobby.joined(bob) == nil, "the join waits for the store's word on the name")
        _ = lobby.take(ann)
        lobby.answerName(.free)
        #expect(lobby.shard(of: bob) == 0)
        #expect(lobby.joined(bob)?.seat == .second)
        let chat = lobby.take(ann).compactMap { if case .chat(let chat) = $0 { chat } else { nil } }
        #expect(chat.map(\.text) == ["hi"])
        #expect(chat.first?.from == "bob")
    }

    @Test("wrong passwords from one address count together on every shard")
    func passwordGuessesCountAcrossShards() throws {
        let lobby = LobbyHarness(shards: 2) { $0.keepsGames = true }
        for attempt in 0..<4 {
            let guesser = lobby.connect(from: "10.0.0.9", on: attempt % 2)
            lobby.send(#"{"type":"hello","name":"ann","password":"guess\#(attempt)"}"#, from: guesser)
            lobby.answerName(.wrongPassword)
        }
        let next = lobby.connect(from: "10.0.0.9", on: 1)
        lobby.send(#"{"type":"hello","name":"ann","password":"guess"}"#, from: next)
        #expect(lobby.errors(next) == [.tooManyGuesses])
        #expect(lobby.lookups.isEmpty, "refused unchecked")
    }

    @Test("seats held for an address's dropped players count together on every shard")
    func awaySeatsCountAcrossShards() throws {
        let lobby = LobbyHarness(shards: 3) { $0.roomLimits = RoomLimits(awaySeatsPerAddress: 3, awaySeats: 100) }
        for shard in 0..<3 {
            let id = lobby.connect(from: "10.0.0.66", on: shard)
            lobby.send(#"{"type":"join","seats":1}"#, from: id)
            #expect(lobby.joined(id) != nil)
            lobby.drop(id)
        }
        #expect(lobby.lobbies.map(\.loopStatistics.rooms) == [1, 1, 1])
        let late = lobby.connect(from: "10.0.0.66", on: 1)
        lobby.send(#"{"type":"join","seats":1}"#, from: late)
        #expect(lobby.errors(late) == [.tooManyRooms])
    }
}
