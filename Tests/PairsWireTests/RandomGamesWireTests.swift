import PairsRules
import PairsTestSupport
@testable import PairsWire
import Testing

// Seeded random games played with the real rules, every state they produce pushed through the wire:
// encoded, decoded back, and searched for faces that should not be there.

/// Collected once: the games are deterministic, and several tests read them. Every variant takes its turn.
/// Named P1 and P2, so that no name can be mistaken for a face in the encoded bytes. 3,000 states under
/// `PAIRS_TEST_DEPTH=deep`, 1,800 by default: enough rounds for every variant to take its turn, so still
/// every phase, card side and event kind (the last to come, a game clock running out, comes at about 1,700),
/// which `randomGamesCoverTheProtocol` checks.
private let playedRounds: [SeededRound] = try! seededMatchRounds(minimumStates: TestDepth.pick(quick: 1800, deep: 3000), seed: 2026,
                                                                 variants: everyVariantForTests)

/// Every state of the rounds with the rules of its room.
private let played: [(rules: RuleSet, state: PublicState)] = playedRounds.flatMap { round in
    round.states.map { (round.rules, $0) }
}
private let playedStates: [PublicState] = played.map(\.state)

/// The id each state travels with: none, a number or a string, in turn.
private func requestID(for state: PublicState) -> RequestID? {
    switch state.seq % 3 {
    case 0: nil
    case 1: .integer(Int64(state.seq))
    default: .string("m\(state.seq)")
    }
}

private func message(_ state: PublicState, rules: RuleSet) -> ServerMessage {
    .state(StateMessage(room: "r1", spectators: state.seq % 4, state: state, rules: rules, id: requestID(for: state)))
}

/// Each of `played` encoded as the server sends the states of a change, in the same order.
private let playedLines: [[UInt8]] = played.map {
    ServerMessageEncoder.encode(states: [$0.state], room: "r1", spectators: $0.state.seq % 4, rules: $0.rules, id: requestID(for: $0.state))
}

@Test("the random games reach every phase, every kind of card and most kinds of event")
func randomGamesCoverTheProtocol() {
    #expect(playedStates.count > 1000)
    #expect(Set(playedStates.map(\.phase)) == Set(Phase.allCases))
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
    for ((rules, state), line) in zip(played, playedLines) {
        let original = message(state, rules: rules)
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

/// Every face any deck has: the words and the playing cards.
private let allFaces: Set<String> = Set(Faces.all + PlayingCard.deck.map(\.face))

/// What a scan of one encoded state found: how often each face occurs as a JSON string anywhere and as the
/// value of a `"face"` key, and how many cards are written as a bare `{"state":"down"}`. One pass over the
/// bytes, reading each string as it comes: this runs over thousands of lines in a debug build.
private struct LineScan {
    var anywhere: [String: Int] = [:]
    var asFace: [String: Int] = [:]
    var bareDownCards = 0

    init(_ line: [UInt8]) {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        let faceKey = Array(#""face":"#.utf8)
        let bareDown = Array(#"{"state":"down"}"#.utf8)
        line.withUnsafeBufferPointer { line in
            var index = 0
            while index < line.count {
                let byte = line[index]
                if byte == quote {
                    var end = index + 1
                    var escaped = false
                    while end < line.count, line[end] != quote {
                        if line[end] == backslash { escaped = true; end += 1 }
                        end += 1
                    }
                    if !escaped, end < line.count {
                        let text = String(decoding: UnsafeBufferPointer(rebasing: line[(index + 1)..<end]), as: UTF8.self)
                        if allFaces.contains(text) {
                            anywhere[text, default: 0] += 1
                            if index >= faceKey.count, Self.matches(faceKey, in: line, at: index - faceKey.count) {
                                asFace[text, default: 0] += 1
                            }
                        }
                    }
                    index = end + 1
                    continue
                }
                if byte == bareDown[0], Self.matches(bareDown, in: line, at: index) {
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

@Test("an encoded state shows each face exactly as often as cards showing it are face up or matched, and a face-down card as its state alone, but for the faces never found of a game over")
func encodedStatesHideFaceDownCards() {
    var failures: [String] = []
    let downFacesKey = Array(#""down_faces""#.utf8)
    for (state, line) in zip(playedStates, playedLines) {
        var visible: [String: Int] = [:]
        var down = 0
        for card in state.cards {
            switch card {
            case .down: down += 1
            case .up(let face), .matched(let face, _): visible[face, default: 0] += 1
            }
        }
        // Only a game over lists the faces never found, one per face-down card; no other state names them.
        var neverFound: [String: Int] = [:]
        if state.phase == .over {
            if state.downFaces?.count != down { failures.append("seq \(state.seq): \(state.downFaces?.count ?? -1) faces never found for \(down)") }
            for face in state.downFaces ?? [] { neverFound[face, default: 0] += 1 }
        } else if state.downFaces != nil || line.indices.contains(where: { line[$0...].starts(with: downFacesKey) }) {
            failures.append("seq \(state.seq) \(state.phase): faces never found in a game not over")
        }
        let scan = LineScan(line)
        for face in Set(visible.keys).union(scan.anywhere.keys) {
            let shown = visible[face, default: 0]
            let anywhere = scan.anywhere[face, default: 0]
            let asFace = scan.asFace[face, default: 0]
            if anywhere != shown + neverFound[face, default: 0] || asFace != shown {
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
    let (rules, state) = try #require(played.first { $0.state.cards.contains(.down) && $0.state.cards.contains { $0 != .down } })
    var line = ServerMessageEncoder.encode(message(state, rules: rules))
    let scan = LineScan(line)
    // What a leaking encoder would write for a face-down card: its state and its face.
    let bare = Array(#"{"state":"down"}"#.utf8)
    let leaked = Array(#"{"state":"down","face":"cat"}"#.utf8)
    let start = try #require(line.indices.first { line[$0...].starts(with: bare) })
    line.replaceSubrange(start..<(start + bare.count), with: leaked)
    let leakedScan = LineScan(line)
    #expect(leakedScan.asFace["cat", default: 0] == scan.asFace["cat", default: 0] + 1)
    #expect(leakedScan.bareDownCards == scan.bareDownCards - 1)
}

@Test("the state fast path writes the same bytes as the general writer for every state of real games")
func fastPathMatchesGeneralWriterInPlayedGames() {
    var mismatches = 0
    for ((rules, state), line) in zip(played, playedLines) {
        if ServerMessageEncoder.encode(message(state, rules: rules)) != line { mismatches += 1 }
    }
    #expect(mismatches == 0)
}
