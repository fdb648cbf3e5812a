import PairsLobby
import PairsRules
import PairsTestSupport
import PairsWire
import Testing

@Suite("Rooms of other rules")
struct VariantLobbyTests {
    @Test("a solo join without a room gets a room of its own at once, and the game starts")
    func soloJoinStartsAtOnce() {
        let lobby = LobbyHarness()
        let ann = lobby.player("ann", joining: nil, extra: #","seats":1"#)
        let joined = lobby.joined(ann)
        #expect(joined?.room.hasPrefix("solo-") == true)
        #expect(joined?.rules?.variant.seats == .one)
        #expect(lobby.lastState(ann)?.state.phase == .playing)
        #expect(lobby.lastState(ann)?.state.players.count == 1)
        // Nobody is ever offered a seat in it: a second solo player gets a room of their own.
        let bob = lobby.player("bob", joining: nil, extra: #","seats":1"#)
        #expect(lobby.joined(bob)?.room != joined?.room)
    }

    @Test("quick match keeps players apart who asked for different rules, and pairs those who asked for the same")
    func quickMatchKeepsRulesApart() {
        let lobby = LobbyHarness()
        let triples = lobby.player("t1", joining: nil, extra: #","match":3"#)
        let cards = lobby.player("c1", joining: nil, extra: #","deck":"cards""#)
        let matchismo = lobby.player("m1", joining: nil, extra: #","scoring":"matchismo""#)
        let classic = lobby.player("k1", joining: nil)
        let rooms = [triples, cards, matchismo, classic].map { lobby.joined($0)?.room }
        #expect(Set(rooms).count == 4)
        let secondTriples = lobby.player("t2", joining: nil, extra: #","match":3"#)
        #expect(lobby.joined(secondTriples)?.room == rooms[0])
        // Matchismo's constants make different rules, so a different pool.
        let otherCosts = lobby.player("m2", joining: nil, extra: #","scoring":"matchismo","flip_cost":5"#)
        #expect(lobby.joined(otherCosts)?.room != rooms[2])
        // Constants that count only under Matchismo do not split classic players.
        let classicWithCost = lobby.player("k2", joining: nil, extra: #","flip_cost":5"#)
        #expect(lobby.joined(classicWithCost)?.room == rooms[3])
    }

    @Test("rules that do not fit together are refused with bad_field naming the field and its range, and no room is made",
          arguments: [
              (#","match":3,"pairs":22"#, "pairs must be 2...21"),
              (#","deck":"cards","pairs":27"#, "pairs must be 2...26"),
              (#","deck":"cards","match":3,"pairs":18"#, "pairs must be 2...17"),
          ])
    func badCombinationsAreRefused(extra: String, message: String) {
        let lobby = LobbyHarness()
        let ann = lobby.connect()
        _ = lobby.take(ann)
        lobby.send(#"{"type":"join","room":"big","id":4\#(extra)}"#, from: ann)
        let answer = lobby.take(ann)
        guard case .error(let error)? = answer.first else { Issue.record("expected an error, got \(answer)"); return }
        #expect(error.code == .badField)
        #expect(error.id == .integer(4))
        #expect(error.message.hasPrefix(message))
        lobby.send("list", from: ann)
        guard case .rooms(let list)? = lobby.take(ann).first else { Issue.record("no room list"); return }
        #expect(list.total == 0)
    }

    @Test("a join of a room that exists takes its rules, whatever it asked for")
    func existingRoomKeepsItsRules() {
        let lobby = LobbyHarness()
        let ann = lobby.player("ann", joining: "den", extra: #","match":3"#)
        let bob = lobby.player("bob", joining: "den", extra: #","deck":"cards","pairs":30"#)
        #expect(lobby.joined(bob)?.rules == lobby.joined(ann)?.rules)
        #expect(lobby.joined(bob)?.rules?.variant.setSize == .triple)
        #expect(lobby.lastState(bob)?.state.cards.count == 2 * 3)
    }

    @Test("joined, rooms and state carry a room's rules when they are not the classic game's, and only then")
    func rulesTravelOnlyForVariants() {
        let lobby = LobbyHarness()
        let classic = lobby.player("ann", joining: "plain", extra: #","pairs":3,"turn_seconds":9"#)
        let variant = lobby.player("bob", joining: "odd", extra: #","peek_ms":200"#)
        let classicBytes = String(decoding: lobby.bytes[classic] ?? [], as: UTF8.self)
        let variantBytes = String(decoding: lobby.bytes[variant] ?? [], as: UTF8.self)
        #expect(!classicBytes.contains("\"rules\""))
        #expect(variantBytes.contains(#""rules":{"seats":2,"match":2,"deck":"words","scoring":"classic","flip_cost":1,"mismatch_penalty":2,"match_bonus":4,"game_seconds":0,"peek_ms":200,"pairs":2,"turn_seconds":30,"reveal_ms":1000,"again_on_match":true}"#))
        let looker = lobby.connect()
        lobby.send("list", from: looker)
        guard case .rooms(let list)? = lobby.take(looker).last else { Issue.record("no room list"); return }
        #expect(list.rooms.first { $0.name == "odd" }?.rules?.variant.peekMilliseconds == 200)
        #expect(list.rooms.first { $0.name == "plain" }?.rules == nil)
    }
}
