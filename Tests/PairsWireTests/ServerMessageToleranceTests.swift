import PairsRules
import PairsWire
import Testing

// What protocol.md asks of a client: read what it promises, tolerate what it marks optional, skip what a
// later version may add (fields, event kinds, message types), and say what was skipped.

/// `line` (one JSON object, newline or not) with `change` applied to its object.
private func rewritten(_ line: [UInt8], _ change: (inout JSONObject) -> Void) throws -> [UInt8] {
    let body = line.last == UInt8(ascii: "\n") ? Array(line.dropLast()) : line
    guard case .object(var object) = try JSONParser.parse(body) else { throw JSONError.unexpectedEnd }
    change(&object)
    return JSONWriter.encode(.object(object))
}

/// The object at `key` of `object` (an object member, or the first object in an array member), changed;
/// false if there is no such object.
@discardableResult
private func changing(_ key: String, in object: inout JSONObject, _ change: (inout JSONObject) -> Void) -> Bool {
    switch object[key] {
    case .object(var inner)?:
        change(&inner)
        object[key] = .object(inner)
        return true
    case .array(var elements)?:
        guard let index = elements.firstIndex(where: { $0.objectValue != nil }), var inner = elements[index].objectValue else { return false }
        change(&inner)
        elements[index] = .object(inner)
        object[key] = .array(elements)
        return true
    default:
        return false
    }
}

private func decodedNotingUnknown(_ line: [UInt8]) -> Result<ServerMessageDecoder.DecodedLine, ServerMessageError> {
    Result { () throws(ServerMessageError) in try ServerMessageDecoder.decodeNotingUnknown(line: line) }
}

/// A field name no version of the protocol uses.
private let unknownKey = "x_later"
private let unknownValue: JSONValue = ["version": 2, "tags": ["a", 1, .null]]

@Test("a state whose event is only its kind decodes, with seat, card, cards and id missing", arguments: stateFixtures)
func eventOfOnlyItsKind(fixture: MessageFixture) throws {
    let source = try #require(fixture.source)
    let line = try rewritten(source.fastLine) { message in
        changing("event", in: &message) { event in
            for field in ["seat", "card", "cards", "points", "id"] { event[field] = nil }
        }
    }
    // The reference: the rules' state with nothing of its event but the kind, and no id.
    let bare = WireState(source.state, rules: source.rules).describing(StateEvent(kind: EventKind(source.state.event)))
    let expected = ServerMessage.state(StateMessage(room: source.room, spectators: source.spectators, state: bare,
                                                    rules: source.rules.variant != .classic ? source.rules : nil))
    #expect(decodedNotingUnknown(line) == .success(.message(expected, firstUnknown: nil)))
}

@Test("optional event fields that are null read as missing")
func nullEventFieldsAreMissing() throws {
    let source = try #require(stateFixtures.first?.source)
    let line = try rewritten(source.fastLine) { message in
        changing("event", in: &message) { event in
            for field in ["seat", "card", "cards", "id"] { event[field] = .null }
        }
    }
    guard case .success(.message(.state(let state), nil)) = decodedNotingUnknown(line) else {
        Issue.record("not read as a state: \(decodedNotingUnknown(line))")
        return
    }
    #expect(state.state.event == StateEvent(kind: EventKind(source.state.event)))
    #expect(state.id == nil)
}

/// Where an unknown field can go in a state, and the name the decoder gives it.
private let stateObjects: [(path: [String], name: String)] = [
    ([], "state"), (["event"], "state.event"), (["cards"], "state.cards[]"), (["players"], "state.players[]"),
    (["series"], "state.series"),
]

@Test("an unknown field anywhere in a state is skipped and named, whether it comes first or last",
      arguments: stateObjects.indices, [true, false])
func unknownFieldsInAState(objectIndex: Int, first: Bool) throws {
    let (path, name) = stateObjects[objectIndex]
    for fixture in stateFixtures {
        let source = try #require(fixture.source)
        var added = true
        let line = try rewritten(source.fastLine) { message in
            func add(_ object: inout JSONObject) {
                object = JSONObject(first ? [(unknownKey, unknownValue)] + object.members : object.members + [(unknownKey, unknownValue)])
            }
            if let key = path.first { added = changing(key, in: &message, add) } else { add(&message) }
        }
        // A room with both seats empty has no player object to add a field to.
        let unknown: UnknownPart? = added ? .field("\(name).\(unknownKey)") : nil
        #expect(decodedNotingUnknown(line) == .success(.message(fixture.message, firstUnknown: unknown)), "\(fixture.name)")
    }
}

@Test("an unknown field in any other message is skipped and named", arguments: otherFixtures)
func unknownFieldsInOtherMessages(fixture: MessageFixture) throws {
    let line = try rewritten(ServerMessageEncoder.encode(fixture.message)) { $0[unknownKey] = unknownValue }
    let type = try #require(try JSONParser.parse(line).objectValue?["type"]?.stringValue)
    #expect(decodedNotingUnknown(line) == .success(.message(fixture.message, firstUnknown: .field("\(type).\(unknownKey)"))))
    // What a client that needs no notes calls: the same message.
    #expect(Result { () throws(ServerMessageError) in try ServerMessageDecoder.decode(line: line) } == .success(fixture.message))
}

@Test("an unknown field in a listed room is skipped and named")
func unknownFieldInARoom() throws {
    let fixture = try #require(otherFixtures.first { $0.name == "a room list" })
    let line = try rewritten(ServerMessageEncoder.encode(fixture.message)) { message in
        changing("rooms", in: &message) { $0[unknownKey] = unknownValue }
    }
    #expect(decodedNotingUnknown(line) == .success(.message(fixture.message, firstUnknown: .field("rooms.rooms[].\(unknownKey)"))))
}

@Test("the first unknown thing of a line is the one named: an unknown kind before the fields after it")
func firstUnknownIsNamed() throws {
    let source = try #require(stateFixtures.first?.source)
    let line = try rewritten(source.fastLine) { message in
        message[unknownKey] = unknownValue
        changing("event", in: &message) { $0["kind"] = "x_juggle" }
    }
    guard case .success(.message(_, let unknown)) = decodedNotingUnknown(line) else { Issue.record("not read"); return }
    #expect(unknown == .eventKind("x_juggle"))
}

@Test("a state of an event kind nobody knows keeps the kind by name and everything else it says", arguments: stateFixtures)
func unknownEventKind(fixture: MessageFixture) throws {
    let source = try #require(fixture.source)
    let line = try rewritten(source.fastLine) { message in
        changing("event", in: &message) { $0["kind"] = "x_juggle" }
    }
    var event = StateEvent(source.state.event, rules: source.rules)
    event.kind = .unknown("x_juggle")
    let expected = StateMessage(room: source.room, spectators: source.spectators,
                                state: WireState(source.state, rules: source.rules).describing(event),
                                rules: source.rules.variant != .classic ? source.rules : nil, id: source.id)
    #expect(decodedNotingUnknown(line) == .success(.message(.state(expected), firstUnknown: .eventKind("x_juggle"))))
}

@Test("every known event kind reads back from its wire name, and no known name reads as unknown")
func eventKindNames() {
    #expect(EventKind.known.count == 16)
    #expect(Set(EventKind.known.map(\.wireName)).count == EventKind.known.count)
    for kind in EventKind.known {
        #expect(EventKind(wireName: kind.wireName) == kind)
        let bytes = Array(kind.wireName.utf8)
        #expect(bytes.withUnsafeBytes { EventKind(knownWireName: $0) } == kind)
        // One byte more or less is another name.
        #expect((bytes + [UInt8(ascii: "s")]).withUnsafeBytes { EventKind(knownWireName: $0) } == nil)
        #expect(bytes.dropLast().withUnsafeBytes { EventKind(knownWireName: $0) } == nil)
    }
    #expect(EventKind(wireName: "Flip") == .unknown("Flip"))
    #expect(EventKind(wireName: "") == .unknown(""))
}

@Test("a message of a type nobody knows is skipped whole and named; decode refuses it as unknown")
func unknownMessageType() {
    let line = Array(#"{"type":"x_news","text":"hi","id":3}"#.utf8)
    #expect(decodedNotingUnknown(line) == .success(.unknownType("x_news")))
    #expect(Result { () throws(ServerMessageError) in try ServerMessageDecoder.decode(line: line) } == .failure(.unknownType("x_news")))
}

@Test("known fields past the 64th member of an object still count as read")
func manyMembersAreTracked() {
    let padding = (0..<70).map { #""x\#($0)":0"# }.joined(separator: ",")
    let line = Array(#"{"type":"pong",\#(padding),"id":9}"#.utf8)
    #expect(decodedNotingUnknown(line) == .success(.message(.pong(id: .integer(9)), firstUnknown: .field("pong.x0"))))
    let known = Array(#"{"x":0,\#(padding.replacingOccurrences(of: "\"x", with: "\"y")),"type":"pong","id":9}"#.utf8)
    #expect(decodedNotingUnknown(known) == .success(.message(.pong(id: .integer(9)), firstUnknown: .field("pong.x"))))
}

@Test("what the protocol does promise is still checked: bad event fields, boards that do not add up, seats that are not two",
      arguments: [
          (#""event":{"kind":"match","cards":[1]}"#, ServerMessageError.badField("cards")),
          (#""event":{"kind":"match","cards":[1,"2"]}"#, .badField("cards")),
          (#""event":{"kind":"match","cards":3}"#, .badField("cards")),
          (#""event":{"kind":"flip","seat":2}"#, .badField("seat")),
          (#""event":{"kind":"flip","card":"1"}"#, .badField("card")),
          (#""event":{"seat":0}"#, .missingField("kind")),
          (#""event":"flip""#, .missingField("event")),
      ])
func badEventsAreRefused(event: String, error: ServerMessageError) {
    let line = #"{"type":"state","room":"r","game":1,"seq":1,"phase":"playing","rows":1,"cols":2,"cards":[{"state":"down"},{"state":"down"}],"players":[null,null],"spectators":0,"turn":0,"turn_ms_left":null,"winner":null,\#(event)}"#
    #expect(decodedNotingUnknown(Array(line.utf8)) == .failure(error))
}

@Test("a board whose rows and columns do not cover its cards, or players that are not one per seat of one or two, are refused",
      arguments: [
          (#""rows":1,"cols":3"#, #"[null,null]"#, ServerMessageError.badField("rows")),
          (#""rows":-1,"cols":-2"#, #"[null,null]"#, .badField("rows")),
          (#""rows":4611686018427387904,"cols":4"#, #"[null,null]"#, .badField("rows")),
          (#""rows":1,"cols":2"#, #"[]"#, .badField("players")),
          (#""rows":1,"cols":2"#, #"[null,null,null]"#, .badField("players")),
      ])
func badBoardsAreRefused(layout: String, players: String, error: ServerMessageError) {
    let line = #"{"type":"state","room":"r","game":1,"seq":1,"phase":"playing",\#(layout),"cards":[{"state":"down"},{"state":"down"}],"players":\#(players),"spectators":0,"turn":0,"turn_ms_left":null,"winner":null,"event":{"kind":"start"}}"#
    #expect(decodedNotingUnknown(Array(line.utf8)) == .failure(error))
}

/// A solo game's state with three cards, two face down, in `phase`, with `field` after its cards.
private func threeCardState(phase: String, _ field: String) -> [UInt8] {
    Array(#"{"type":"state","room":"r","game":1,"seq":9,"phase":"\#(phase)","rows":1,"cols":3,"cards":[{"state":"down"},{"state":"matched","face":"owl","by":0},{"state":"down"}]\#(field),"players":[{"name":"a","score":1,"connected":true}],"spectators":0,"turn":null,"turn_ms_left":null,"winner":null,"event":{"kind":"time_up"}}"#.utf8)
}

@Test("a game over's faces never found are read when sent, missing when null or absent (an older server), and refused unless one string per face-down card",
      arguments: [
          (#","down_faces":["ape","ape"]"#, Result<[String]?, ServerMessageError>.success(["ape", "ape"])),
          ("", .success(nil)),
          (#","down_faces":null"#, .success(nil)),
          (#","down_faces":["ape"]"#, .failure(.badField("down_faces"))),
          (#","down_faces":["ape","ape","owl"]"#, .failure(.badField("down_faces"))),
          (#","down_faces":["ape",1]"#, .failure(.badField("down_faces"))),
          (#","down_faces":"ape""#, .failure(.badField("down_faces"))),
      ])
func downFacesAreRead(field: String, expected: Result<[String]?, ServerMessageError>) {
    let read = decodedNotingUnknown(threeCardState(phase: "over", field)).map { decoded -> [String]? in
        guard case .message(.state(let message), firstUnknown: nil) = decoded else { return ["not a state with every field known"] }
        return message.state.downFaces
    }
    #expect(read == expected)
}

@Test("faces sent in a state of a game not over are not kept: no state of a game in play carries a face-down card's face")
func downFacesOfAGameInPlayAreDropped() throws {
    let decoded = try ServerMessageDecoder.decode(line: threeCardState(phase: "playing", #","down_faces":["ape","ape"]"#))
    guard case .state(let message) = decoded else { Issue.record("not a state: \(decoded)"); return }
    #expect(message.state.downFaces == nil)
    #expect(message.state.cards.filter { $0 == .down }.count == 2)
}
