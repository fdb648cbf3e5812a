import Foundation
import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

@Suite("The room list at scale, on a manual clock")
struct RoomListTests {
    @Test("a list over 20,000 rooms answers a page of 10, the total and where the next page starts; its cost is logged")
    func listOverManyRooms() throws {
        let lobby = LobbyHarness { $0.rateLimit = nil }
        lobby.keepsSends = false
        for _ in 0..<20_000 {
            lobby.send(#"{"type":"join","seats":1}"#, from: lobby.connect())
        }
        lobby.keepsSends = true
        let asker = lobby.connect()
        _ = lobby.take(asker)
        let clock = ContinuousClock()
        let rounds = 20
        let elapsed = clock.measure {
            for _ in 0..<rounds { lobby.send("list", from: asker) }
        }
        let answers = lobby.take(asker)
        print("list over 20,000 rooms: \(elapsed / rounds) each (lobby, this build)")
        #expect(answers.count == rounds)
        let list = try #require(roomList(answers.first))
        #expect(list.total == 20_000)
        #expect(list.rooms.map(\.name) == Array((1...20_000).map { "solo-\($0)" }.sorted().prefix(10)))
        #expect(list.next == RoomListCursor(hasFreeSeat: false, room: list.rooms.last?.name ?? ""))
        let stats = lobby.lobby.statistics(at: lobby.now)
        #expect(stats.gamesActive == 20_000, "games_active is counted as rooms change, not by a scan")
    }

    @Test("paging with next visits every room once, those with a free seat first, each part by name, never more than its limit")
    func pagingVisitsEveryRoomOnce() throws {
        let lobby = LobbyHarness { $0.rateLimit = nil }
        var open: [String] = [], full: [String] = []
        for number in 0..<60 {
            let name = "r\(String(number, radix: 7))"
            lobby.player("a\(number)", joining: name)
            if number.isMultiple(of: 3) { lobby.player("b\(number)", joining: name); full.append(name) } else { open.append(name) }
        }
        let asker = lobby.connect()
        _ = lobby.take(asker)
        var seen: [String] = []
        var after: RoomListCursor?
        var pages = 0
        repeat {
            let cursor = after.map { #","after":"\#($0.wireValue)""# } ?? ""
            lobby.send(#"{"type":"list","limit":7\#(cursor)}"#, from: asker)
            let page = try #require(roomList(lobby.take(asker).first))
            #expect(page.rooms.count <= 7)
            #expect(page.total == 60)
            seen += page.rooms.map(\.name)
            after = page.next
            pages += 1
        } while after != nil && pages < 100
        #expect(seen == open.sorted() + full.sorted())
        #expect(pages == 9, "60 rooms in pages of 7")
    }

    @Test("paging stays exact while rooms come, fill and go: 1,500 rooms, a third full, a fifth left again, read in pages of 50")
    func pagingThroughChurn() throws {
        let lobby = LobbyHarness { $0.rateLimit = nil }
        var open: Set<String> = [], full: Set<String> = []
        var leavers: [(ConnectionID, String)] = []
        for number in 0..<1_500 {
            // Names in no particular order, so rooms land all over the list.
            let name = "r\((number * 7_919) % 1_500)"
            let first = lobby.player("a\(number)", joining: name)
            if number % 3 == 0 {
                lobby.player("b\(number)", joining: name)
                full.insert(name)
            } else if number % 5 == 1 {
                leavers.append((first, name))
            } else {
                open.insert(name)
            }
        }
        for (leaver, _) in leavers { lobby.send("leave", from: leaver) }
        let asker = lobby.connect()
        _ = lobby.take(asker)
        var seen: [String] = []
        var after: RoomListCursor?
        repeat {
            let cursor = after.map { #","after":"\#($0.wireValue)""# } ?? ""
            lobby.send(#"{"type":"list","limit":50\#(cursor)}"#, from: asker)
            let page = try #require(roomList(lobby.take(asker).first))
            #expect(page.rooms.count <= 50)
            #expect(page.total == open.count + full.count)
            seen += page.rooms.map(\.name)
            after = page.next
        } while after != nil && seen.count <= 1_500
        #expect(seen == open.sorted() + full.sorted())
    }

    @Test("a plain list still gets the first page, with no next when every room fits")
    func plainListOfFewRooms() throws {
        let lobby = LobbyHarness()
        lobby.player("ann", joining: "kitchen")
        let asker = lobby.connect()
        _ = lobby.take(asker)
        lobby.send("list", from: asker)
        let list = try #require(roomList(lobby.take(asker).first))
        #expect(list.rooms.map(\.name) == ["kitchen"])
        #expect(list.total == 1)
        #expect(list.next == nil)
        lobby.send(#"{"type":"list","limit":51,"id":1}"#, from: asker)
        lobby.send(#"{"type":"list","limit":0,"id":2}"#, from: asker)
        lobby.send(#"{"type":"list","after":"kitchen","id":3}"#, from: asker)
        lobby.send("list open/kit chen", from: asker)
        #expect(lobby.errors(asker) == [.badField, .badField, .badField, .badField])
        lobby.send("list open/kitchen", from: asker)
        let rest = try #require(roomList(lobby.take(asker).first))
        #expect(rest.rooms.isEmpty && rest.total == 1 && rest.next == nil)
    }

    @Test("a list counts against the rate limit as one message per 5 rooms of its limit")
    func listCostsItsPage() throws {
        let lobby = LobbyHarness { $0.rateLimit = RateLimit(messagesPerSecond: 10) }
        let client = lobby.connect()
        _ = lobby.take(client)
        // A burst of 20 messages' worth: ten lists of the default page (2 each), then the next is dropped.
        for number in 1...11 { lobby.send(#"{"type":"list","id":\#(number)}"#, from: client) }
        let answers = lobby.take(client)
        #expect(answers.count == 11)
        #expect(answers.prefix(10).allSatisfy { roomList($0) != nil })
        guard case .error(let error)? = answers.last else { Issue.record("expected rate_limited, got \(answers.last.map { "\($0)" } ?? "nothing")"); return }
        #expect(error.code == .rateLimited && error.id == .integer(11))
        // A second later the allowance is back: two pages of 50 (10 each) fit it, a third does not.
        lobby.advance(by: 2_000)
        for number in 1...3 { lobby.send(#"{"type":"list","limit":50,"id":\#(number)}"#, from: client) }
        #expect(lobby.take(client).map { roomList($0) != nil } == [true, true, false])
        // One-message requests were never charged more: a ping after a second is answered.
        lobby.advance(by: 1_000)
        lobby.send("ping", from: client)
        #expect(lobby.take(client) == [.pong(id: nil)])
    }

    @Test("a named room whose only player drops before its first game is removed at once; a quick-match room keeps the seat")
    func forsakenNamedRoomGoes() throws {
        let lobby = LobbyHarness()
        let ann = lobby.player("ann", joining: "kitchen")
        let bob = lobby.player("bob", joining: nil)
        #expect(lobby.lobby.statistics(at: lobby.now).rooms == 2)
        lobby.drop(ann)
        lobby.drop(bob)
        let asker = lobby.connect()
        _ = lobby.take(asker)
        lobby.send("list", from: asker)
        let list = try #require(roomList(lobby.take(asker).first))
        #expect(list.rooms.map(\.name) == ["quick-1"])
        // A named room with a game begun keeps a dropped player's seat, as before.
        let cat = lobby.player("cat", joining: "den")
        lobby.player("dan", joining: "den")
        let token = try #require(lobby.joined(cat)?.token)
        lobby.drop(cat)
        let back = lobby.connect()
        lobby.send(#"{"type":"resume","token":"\#(token)"}"#, from: back)
        #expect(lobby.joined(back)?.room == "den")
    }

    @Test("seats kept for dropped players are bounded per address: past the bound a drop frees the seat, and a join that makes a room gets too_many_rooms")
    func awaySeatsPerAddress() throws {
        let lobby = LobbyHarness { $0.roomLimits = RoomLimits(awaySeatsPerAddress: 3, awaySeats: 100) }
        var tokens: [String] = []
        for _ in 0..<3 {
            let id = lobby.connect(from: "[::1]")
            lobby.send(#"{"type":"join","seats":1}"#, from: id)
            tokens.append(try #require(lobby.joined(id)?.token))
            lobby.drop(id)
        }
        #expect(lobby.lobby.statistics(at: lobby.now).rooms == 3)
        // The address holds its 3 seats: no new room, by name, quick match or solo; an existing room is fine.
        let host = lobby.player("host", joining: "hall")
        let late = lobby.connect(from: "[::1]")
        for join in [#"{"type":"join","seats":1,"id":1}"#, #"{"type":"join","room":"new","id":2}"#, #"{"type":"join","id":3}"#] {
            lobby.send(join, from: late)
        }
        #expect(lobby.errors(late) == [.tooManyRooms, .tooManyRooms, .tooManyRooms])
        let waiter = lobby.player("waiter", joining: nil)
        let quick = lobby.connect(from: "[::1]")
        lobby.send(#"{"type":"join"}"#, from: quick)
        #expect(lobby.joined(quick)?.room == lobby.joined(waiter)?.room, "a quick match that fills a waiting room makes none")
        lobby.send(#"{"type":"join","room":"hall"}"#, from: late)
        #expect(lobby.joined(late)?.room == "hall")
        // Another address is not held to this one's bound.
        let other = lobby.connect(from: "192.168.1.20")
        lobby.send(#"{"type":"join","seats":1}"#, from: other)
        #expect(lobby.joined(other) != nil)
        // Past the bound, a player who drops does not keep the seat: the game is forfeited at once.
        _ = lobby.take(host)
        lobby.drop(late)
        let seen = lobby.states(host).map(\.state.event.kind)
        #expect(seen == [.forfeit, .leave], "the room saw the dropped player leave at once: \(seen)")
        // Taking a seat back frees one of the address's: it may make a room again.
        let back = lobby.connect(from: "[::1]")
        lobby.send(#"{"type":"resume","token":"\#(tokens[0])"}"#, from: back)
        #expect(lobby.joined(back) != nil)
        let again = lobby.connect(from: "[::1]")
        lobby.send(#"{"type":"join","seats":1}"#, from: again)
        #expect(lobby.joined(again)?.room != nil)
        #expect(lobby.errors(again).isEmpty)
    }

    @Test("seats kept for dropped players are bounded in all, whatever the addresses, and the grace period's end frees them")
    func awaySeatsInAll() throws {
        let lobby = LobbyHarness { $0.roomLimits = RoomLimits(awaySeatsPerAddress: 10, awaySeats: 2) }
        for host in ["10.0.0.1", "10.0.0.2"] {
            let id = lobby.connect(from: host)
            lobby.send(#"{"type":"join","seats":1}"#, from: id)
            lobby.drop(id)
        }
        let third = lobby.connect(from: "10.0.0.3")
        lobby.send(#"{"type":"join","seats":1}"#, from: third)
        #expect(lobby.errors(third) == [.tooManyRooms])
        lobby.advance(by: 60_001)
        #expect(lobby.lobby.statistics(at: lobby.now).rooms == 0, "the grace periods ended and the rooms went")
        lobby.send(#"{"type":"join","seats":1}"#, from: third)
        #expect(lobby.joined(third) != nil)
    }
}

private func roomList(_ message: ServerMessage?) -> RoomList? {
    if case .rooms(let list)? = message { list } else { nil }
}
