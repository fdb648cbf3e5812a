import PairsRules
import PairsTestSupport
@testable import PairsWire
import Testing

// Seeded random games played with the real rules, every state they produce pushed through the wire:
// encoded, decoded back, and searched for faces that should not be there.

/// Collected once: the games are deterministic, and several tests read them.
/// Named P1 and P2, so that no name can be mistaken for a face in the encoded bytes.
private let playedStates: [PublicState] = try! seededMatchRounds(minimumStates: 3000, seed: 2026).flatMap { $0 }

/// The id each state travels with: none, a number or a string, in turn.
private func requestID(for state: PublicState) -> RequestID? {
    switch state.seq % 3 {
    case 0: nil
    case 1: .integer(Int64(state.seq))
    default: .string("m\(state.seq)")
    }
}

private func message(_ state: PublicState) -> ServerMessage {
    .state(StateMessage(room: "r1", spectators: state.seq % 4, state: state, id: requestID(for: state)))
}

/// Each of `playedStates` encoded as the server sends the states of a change, in the same order.
private let playedLines: [[UInt8]] = playedStates.map {
    ServerMessageEncoder.encode(states: [$0], room: "r1", spectators: $0.seq % 4, id: requestID(for: $0))
}

@Test("the random games reach every phase, every kind of card and most kinds of event")
func randomGamesCoverTheProtocol() {
    #expect(playedStates.count > 1000)
    #expect(Set(playedStates.map(\.phase)) == [.waiting, .playing, .reveal, .over])
    let kinds = Set(playedStates.map { EventKind($0.event) })
    for kind in EventKind.known {
        #expect(kinds.contains(kind), "no \(kind) event")
    }
    #expect(playedStates.contains { $0.outcome == .draw } || playedStates.contains { $0.outcome?.winner != nil })
    #expect(playedStates.contains { $0.cards.count == 64 })
}

@Test("every state of the random games survives the trip through the wire unchanged")
func randomGameStatesRoundTrip() {
    var failures: [String] = []
    for (state, line) in zip(playedStates, playedLines) {
        let original = message(state)
        if line.count > LineFramer.maxLineBytes { failures.append("seq \(state.seq): \(line.count) bytes") }
        if line.last != UInt8(ascii: "\n") || line.dropLast().contains(UInt8(ascii: "\n")) {
            failures.append("seq \(state.seq): not one line")
        }
        do throws(ServerMessageError) {
            let decoded = try ServerMessageDecoder.decode(line: line.dropLast())
            if decoded != original { failures.append("seq \(state.seq): decoded to something else") }
        } catch {
            failures.append("seq \(state.seq): \(error)")
        }
    }
    // Collected rather than expected one by one: thousands of #expect calls would dominate the run time.
    #expect(failures.isEmpty, "\(failures.prefix(5))")
}

/// A three-letter word as a number, to count words without building strings.
private func wordKey(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
    UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
}

private let faceKeys: [(face: String, key: UInt32)] = Faces.all.map { face in
    let bytes = Array(face.utf8)
    return (face, wordKey(bytes[0], bytes[1], bytes[2]))
}

/// What a scan of one encoded state found: how often each quoted three-letter string (`"cat"`) occurs
/// anywhere and as the value of a `"face"` key, and how many cards are written as a bare
/// `{"state":"down"}`. One pass, plain loops: this runs over thousands of lines in a debug build.
private struct LineScan {
    var anywhere: [UInt32: Int] = [:]
    var asFace: [UInt32: Int] = [:]
    var bareDownCards = 0

    init(_ line: [UInt8]) {
        let quote = UInt8(ascii: "\"")
        let faceKey = Array(#""face":"#.utf8)
        let bareDown = Array(#"{"state":"down"}"#.utf8)
        line.withUnsafeBufferPointer { line in
            var index = 0
            while index < line.count {
                let byte = line[index]
                if byte == quote, index + 4 < line.count, line[index + 4] == quote,
                   line[index + 1] != quote, line[index + 2] != quote, line[index + 3] != quote {
                    let key = wordKey(line[index + 1], line[index + 2], line[index + 3])
                    anywhere[key, default: 0] += 1
                    if index >= faceKey.count, Self.matches(faceKey, in: line, at: index - faceKey.count) {
                        asFace[key, default: 0] += 1
                    }
                } else if byte == bareDown[0], Self.matches(bareDown, in: line, at: index) {
                    bareDownCards += 1
                }
                index += 1
            }
        }
    }

    private static func matches(_ needle: [UInt8], in line: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard start + needle.count <= line.count else { return false }
        for offset in 0..<needle.count where line[start + offset] != needle[offset] { return false }
        return true
    }
}

@Test("an encoded state shows each face exactly as often as cards showing it are face up or matched, and a face-down card as its state alone")
func encodedStatesHideFaceDownCards() {
    var failures: [String] = []
    for (state, line) in zip(playedStates, playedLines) {
        var visible: [String: Int] = [:]
        var down = 0
        for card in state.cards {
            switch card {
            case .down: down += 1
            case .up(let face), .matched(let face, _): visible[face, default: 0] += 1
            }
        }
        let scan = LineScan(line)
        for (face, key) in faceKeys {
            let shown = visible[face, default: 0]
            let anywhere = scan.anywhere[key, default: 0]
            let asFace = scan.asFace[key, default: 0]
            if anywhere != shown || asFace != shown {
                failures.append("seq \(state.seq) \(state.phase): \(face) appears \(anywhere) times, \(asFace) as a face, for \(shown) cards showing it")
            }
        }
        if scan.bareDownCards != down {
            failures.append("seq \(state.seq): \(scan.bareDownCards) bare face-down cards written for \(down)")
        }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
}

@Test("the face check would notice a leak: a line with a hidden face added fails it")
func faceCheckNoticesALeak() throws {
    let state = try #require(playedStates.first { state in state.cards.contains(.down) && state.cards.contains { $0 != .down } })
    var line = ServerMessageEncoder.encode(message(state))
    let scan = LineScan(line)
    // What a leaking encoder would write for a face-down card: its state and its face.
    let bare = Array(#"{"state":"down"}"#.utf8)
    let leaked = Array(#"{"state":"down","face":"cat"}"#.utf8)
    let start = try #require(line.indices.first { line[$0...].starts(with: bare) })
    line.replaceSubrange(start..<(start + bare.count), with: leaked)
    let leakedScan = LineScan(line)
    let cat = faceKeys.first { $0.face == "cat" }!.key
    #expect(leakedScan.asFace[cat, default: 0] == scan.asFace[cat, default: 0] + 1)
    #expect(leakedScan.bareDownCards == scan.bareDownCards - 1)
}

@Test("the state fast path writes the same bytes as the general writer for every state of real games")
func fastPathMatchesGeneralWriterInPlayedGames() {
    var mismatches = 0
    for (state, line) in zip(playedStates, playedLines) {
        if ServerMessageEncoder.encode(message(state)) != line { mismatches += 1 }
    }
    #expect(mismatches == 0)
}
