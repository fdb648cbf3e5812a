import Foundation
@testable import PairsLoad
import PairsRules
import PairsWire
import Testing

/// What the general decoder makes of a state, in the scanner's terms: the reference.
private struct Expected: Equatable, CustomStringConvertible {
    var game: Int
    var seq: Int
    var phase: Phase
    var turn: Seat?
    var cards: [String]
    var kind: EventKind
    var id: RequestID?

    init(decoded message: StateMessage) {
        game = message.state.game
        seq = message.state.seq
        phase = message.state.phase
        turn = message.state.turn
        cards = message.state.cards.map {
            switch $0 {
            case .down: "down"
            case .up(let face): "up \(face)"
            case .matched(let face, _): "matched \(face)"
            }
        }
        kind = message.state.event.kind
        id = message.id
    }

    init(scanned state: ScannedState, faces: FaceTable) {
        game = state.game
        seq = state.seq
        phase = state.phase
        turn = state.turn
        cards = state.cards.map {
            switch $0.side {
            case .down: "down"
            case .up: "up \(faces.name($0.face))"
            case .matched: "matched \(faces.name($0.face))"
            }
        }
        kind = state.eventKind
        id = state.eventID
    }

    var description: String { "game \(game) seq \(seq) \(phase) turn \(String(describing: turn)) \(kind) id \(String(describing: id)) \(cards)" }
}

private let encodedLines: [[UInt8]] = playedStates.map { ServerMessageEncoder.encode(.state($0)) }

private func decode(_ line: some Collection<UInt8>) throws -> StateMessage {
    guard case .state(let message) = try ServerMessageDecoder.decode(line: line) else {
        throw ScanFailure(reason: "not a state")
    }
    return message
}

private struct ScanFailure: Error {
    var reason: String
}

@Test("The generated games hold every event kind, card side and phase, so the comparisons below cover them")
func statesCoverEveryShape() {
    let kinds = Set(playedStates.map(\.state.event.kind))
    #expect(kinds == Set(EventKind.known))
    #expect(Set(playedStates.map(\.state.phase)) == Set(Phase.allCases))
    let sides = Set(playedStates.flatMap { $0.state.cards.map { card -> String in
        switch card {
        case .down: "down"
        case .up: "up"
        case .matched: "matched"
        }
    } })
    #expect(sides == ["down", "up", "matched"])
    #expect(playedStates.contains { $0.state.cards.count == 2 * RuleSet.pairsLimits.upperBound })
}

@Test("The states compared hold every field the variants add: rules, the game clock, Matchismo's points, sets of three, the peek")
func statesCoverTheVariants() {
    let text = encodedLines.map { String(decoding: $0, as: UTF8.self) }
    for field in [#""rules":{"#, #""game_ms_left":"#, #""points":"#, #""phase":"peek""#, #""kind":"time_up""#, #""kind":"exhausted""#] {
        #expect(text.contains { $0.contains(field) }, "no state holds \(field)")
    }
    #expect(playedStates.contains { $0.state.event.cards?.count == 3 })
    #expect(playedStates.contains { $0.state.players.count == 1 })
    // Playing cards, whose faces (`10♥`) are not ASCII.
    #expect(playedStates.contains { $0.state.cards.contains { card in
        if case .up(let face) = card { PlayingCard(face: face)?.rank == .ten } else { false }
    } })
}

@Test("The scanner reads every state the rules produce exactly as ServerMessageDecoder does")
func scannerMatchesDecoder() throws {
    var scanner = StateScanner()
    var state = ScannedState()
    for line in encodedLines {
        let body = line.dropLast() // the newline
        let expected = Expected(decoded: try decode(body))
        let scanned = body.withUnsafeBytes { bytes in
            #expect(StateScanner.looksLikeState(bytes))
            return scanner.scan(bytes, into: &state)
        }
        #expect(scanned, "scanner declined \(String(decoding: body, as: UTF8.self))")
        #expect(Expected(scanned: state, faces: scanner.faces) == expected)
    }
}

/// A few states of every shape: the first of each event kind, phase and card side, and the largest board.
private let sampleLines: [[UInt8]] = {
    var seen = Set<String>()
    var lines: [[UInt8]] = []
    let largest = playedStates.map(\.state.cards.count).max()!
    for (message, line) in zip(playedStates, encodedLines) {
        let id = switch message.id {
        case nil: "none"
        case .integer?: "integer"
        case .string?: "string"
        }
        var shapes = ["kind \(message.state.event.kind)", "phase \(message.state.phase)", "id \(id)"]
        for card in message.state.cards {
            switch card {
            case .down: shapes.append("down")
            case .up: shapes.append("up")
            case .matched: shapes.append("matched")
            }
        }
        if message.state.cards.count == largest { shapes.append("largest") }
        if shapes.contains(where: { !seen.contains($0) }) {
            seen.formUnion(shapes)
            lines.append(line)
        }
    }
    return lines
}()

@Test("A stream of states cut into chunks of every size, from 1 byte to more than a line, reads the same after splitting and scanning")
func everyChunkSize() throws {
    let lines = sampleLines
    let stream = lines.flatMap { $0 }
    let expected = try lines.map { Expected(decoded: try decode($0.dropLast())) }
    let longest = lines.map(\.count).max()!
    #expect(lines.count >= 13 && longest > 1000)
    for size in Array(1...(longest + 1)) + [4096, 65_536, stream.count] {
        var framer = LineFramer()
        var scanner = StateScanner()
        var state = ScannedState()
        var read: [Expected] = []
        var failures = 0
        stream.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + size, bytes.count)
                framer.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) { frame in
                    guard case .line(let line) = frame, scanner.scan(line, into: &state) else {
                        failures += 1
                        return
                    }
                    read.append(Expected(scanned: state, faces: scanner.faces))
                }
                offset = end
            }
        }
        #expect(failures == 0, "chunk size \(size)")
        #expect(read == expected, "chunk size \(size)")
    }
}

@Test("Keys in any order, spaces between tokens and fields the scanner does not know are read as the decoder reads them")
func otherLayouts() throws {
    let line = #"""
     { "extra" : {"nested":[1,{"a":"}"}],"s":"\"{"} , "event" : { "id" : "x-1" , "seat" : 1 , "kind" : "mismatch" , "cards":[0,2] },
       "turn" : 1 , "cards" : [ {"face":"ape" , "state":"up"} , { "state" : "down" } , {"by":0,"state":"matched","face":"cat"}, {"state":"up","face":"ant","new":true} ],
       "phase":"reveal","seq":  12 ,"game":3,"type":"state","room":"r","rows":1,"cols":4,"players":[null,null],
       "spectators":0,"turn_ms_left":null,"winner":null,"series":{"wins":[0,0],"draws":0} }
    """#
    let bytes = Array(line.utf8)
    var scanner = StateScanner()
    var state = ScannedState()
    let scanned = bytes.withUnsafeBytes { scanner.scan($0, into: &state) }
    #expect(scanned)
    #expect(Expected(scanned: state, faces: scanner.faces) == Expected(decoded: try decode(bytes)))
    #expect(state.eventID == .string("x-1"))
}

@Test("Lines the scanner does not handle are declined, for the general decoder to read")
func declines() {
    let good = String(decoding: encodedLines[5].dropLast(), as: UTF8.self)
    let declined = [
        "",
        "{}",
        #"{"type":"welcome","protocol":1,"server":"pairs","session":"c1","hint":"h"}"#,
        #"{"type":"error","code":"bad_card","message":"no","id":4}"#,
        String(good.dropLast()), // cut short
        good + "x",
        good.replacingFirst(#""game":"#, with: #""game":1.5,"g":"#),
        good.replacingFirst(#""seq":"#, with: #""seq":"4","s":"#),
        good.replacingFirst(#""phase":""#, with: #""phase":"dancing","p":""#),
        good.replacingFirst(#""kind":""#, with: #""kind":"juggle","k":""#),
        good.replacingFirst(#""turn":"#, with: #""turn":2,"t":"#),
        good.replacingFirst(#""cards":["#, with: #""cards":[{"state":"up"},"#), // a face up without its face
        good.replacingFirst(#""cards":["#, with: #""cards":[{"state":"up","face":"c\u0061t"},"#), // escaped
        good.replacingFirst(#""event":{"#, with: #""event":{"id":99999999999999999999,"#), // overflow
        good.replacingFirst(#""event":{"#, with: #""event":{"id":007,"#), // leading zeros
    ]
    var scanner = StateScanner()
    var state = ScannedState()
    for line in declined {
        let bytes = Array(line.utf8)
        let scanned = bytes.withUnsafeBytes { scanner.scan($0, into: &state) }
        #expect(!scanned, "should decline: \(line.prefix(120))")
    }
}

@Test("A state the scanner declines still reaches the bots through the decoder, with the same result")
func fallbackAssign() throws {
    var scanner = StateScanner()
    for message in playedStates.prefix(300) {
        var viaScanner = ScannedState()
        let line = ServerMessageEncoder.encode(.state(message)).dropLast()
        let scanned = line.withUnsafeBytes { scanner.scan($0, into: &viaScanner) }
        #expect(scanned)
        var viaDecoder = ScannedState()
        var faces = scanner.faces
        #expect(viaDecoder.assign(try decode(line), faces: &faces))
        #expect(Expected(scanned: viaDecoder, faces: faces) == Expected(scanned: viaScanner, faces: scanner.faces))
    }
}

extension String {
    /// This string with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
