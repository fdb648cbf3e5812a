import PairsRules
import PairsTestSupport
@testable import PairsWire
import Testing

// The state fast path at the extremes of what it can be given: the largest board, the longest and most
// expensive strings to escape, the widest integers. Its size bound must hold for all of them (or its cursor
// would stop the test process), and it must write exactly what the general writer writes.

/// Strings that cost the most bytes per character or per byte once written into JSON.
private let expensiveStrings: [String] = [
    String(repeating: "😀", count: TextCleaner.maxNameCharacters), // 4 bytes a character
    heaviestName, // the most bytes name cleaning lets through
    String(repeating: "\u{1}", count: TextCleaner.maxNameBytes), // 6 bytes a byte: \u0001
    String(repeating: "\"", count: TextCleaner.maxNameBytes), // 2 bytes a byte: \"
]

private let extremeIDs: [RequestID?] = [
    nil, .integer(.min), .integer(.max), heaviestID, .string(String(repeating: "\\", count: RequestID.maxStringBytes)),
]

/// The largest board, with every card holding `face` where a card shows one.
private func largestBoard(face: String) -> [[CardView]] {
    let cardCount = RuleSet.pairsLimits.upperBound * 2
    return [
        Array(repeating: .matched(face: face, by: .second), count: cardCount),
        Array(repeating: .up(face: face), count: cardCount),
        (0..<cardCount).map { index in
            [CardView.down, .up(face: face), .matched(face: face, by: .first)][index % 3]
        },
    ]
}

/// Every event, with card numbers and points as wide as an integer gets, and sets as large as they come.
private func events(_ number: Int) -> [GameEvent] {
    let set: CardSet = [number, number, number]
    return [
        .join(.second), .peek, .start(turn: .first), .flip(.first, card: number), .match(.second, cards: set, points: number),
        .mismatch(.first, cards: set, points: number), .hide(cards: set),
        .timeout(.second, hidden: [number]), .timeout(.second, hidden: [number, number]), .timeout(.first, hidden: []),
        .over(.second, cards: set, points: number), .timeUp, .exhausted,
        .forfeit(.first, .left), .leave(.second), .disconnect(.first), .reconnect(.second), .rematch(.first),
    ]
}

/// The rules a state's room can have that cost the most to write: every variant rule at its widest, and the
/// classic game (whose rules are not written).
private let extremeRules: [RuleSet] = [
    .standard,
    RuleSet(
        variant: Variant(seats: .two, setSize: .triple, deck: .cards,
                         scoring: .matchismo(MatchismoCosts(flipCost: 100, mismatchPenalty: 100, matchBonus: 100)),
                         gameSeconds: 3600, peekMilliseconds: 10_000),
        pairs: 17, turnSeconds: 3600, revealMilliseconds: 60_000, againOnMatch: false),
]

/// A state with every field at an extreme: the widest integers and the given board, names and event. With
/// `faces`, the state of a game over, which lists the faces of the cards face down (each of them `faces`).
private func extremeState(cards: [CardView], names: [String?], number: Int, event: GameEvent, faces: String? = nil) -> PublicState {
    PublicState(
        game: number, seq: number, phase: faces == nil ? .playing : .over,
        layout: RuleSet(pairs: RuleSet.pairsLimits.upperBound, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true).layout,
        cards: cards, players: names.map { $0.map { PlayerView(name: $0, score: number, connected: false) } },
        turn: .second, turnMillisecondsLeft: number, gameMillisecondsLeft: number, outcome: .win(.first),
        series: SeriesTally(wins: [number, number], draws: number), event: event,
        downFaces: faces.map { Array(repeating: $0, count: cards.count { $0 == .down }) })
}

/// One case of the product of extremes: an index into each of its dimensions.
private struct ExtremeCase: Hashable {
    var number, room, face, cards, names, id: Int
}

/// The sizes of the dimensions: integers, rooms, faces, boards, names and ids.
private let extremeDimensions = (number: 2, room: 2, face: 1 + expensiveStrings.count, cards: 3, names: expensiveStrings.count + 1,
                                 id: extremeIDs.count)

/// Every combination of the extremes, 1,500 of them.
private let everyExtremeCase: [ExtremeCase] = {
    let d = extremeDimensions
    var cases: [ExtremeCase] = []
    for number in 0..<d.number { for room in 0..<d.room { for face in 0..<d.face { for cards in 0..<d.cards {
        for names in 0..<d.names { for id in 0..<d.id {
            cases.append(ExtremeCase(number: number, room: room, face: face, cards: cards, names: names, id: id))
        } }
    } } } }
    return cases
}()

// The whole product under PAIRS_TEST_DEPTH=deep; by default every seventh case, a stride with no factor in
// common with the dimensions' sizes (2, 3 and 5), so that every extreme of every dimension, every event and
// both rules are still written (the test checks that they were).
@Test("at every extreme of board, names, ids and integers, the state fast path writes the general writer's bytes within its bound")
func extremeStatesMatchTheGeneralWriterWithinTheBound() {
    let numbers = [Int.min, Int.max]
    let rooms = [String(repeating: "r", count: RoomName.maxLength), String(repeating: "\u{7F}", count: RoomName.maxLength)]
    let faces = ["ant"] + expensiveStrings
    let nameSets: [[String?]] = expensiveStrings.map { [$0, $0] } + [[nil, nil]]
    let cases = TestDepth.sample(everyExtremeCase, quickStride: 7)
    var checked = 0
    var eventsWritten = Set<Int>()
    var phasesWritten = Set<Phase>()
    for extreme in cases {
        let number = numbers[extreme.number]
        let rules = extremeRules[checked % extremeRules.count]
        let everyEvent = events(number)
        let event = checked % everyEvent.count
        eventsWritten.insert(event)
        // Every other pair of cases is a game over, whose line also lists the faces never found.
        let over = (checked / extremeRules.count) % 2 == 1
        let state = extremeState(cards: largestBoard(face: faces[extreme.face])[extreme.cards], names: nameSets[extreme.names],
                                 number: number, event: everyEvent[event], faces: over ? faces[extreme.face] : nil)
        phasesWritten.insert(state.phase)
        let room = rooms[extreme.room], id = extremeIDs[extreme.id]
        let fast = StateLineEncoder.encode([state], room: room, spectators: number, rules: rules, id: id)
        let general = ServerMessageEncoder.encode(.state(
            StateMessage(room: room, spectators: number, state: state, rules: rules, id: id)))
        #expect(fast == general)
        #expect(fast.count <= bound(of: state, room: room, rules: RulesJSON.bytesIfSent(rules), id: id))
        checked += 1
    }
    #expect(everyExtremeCase.count == 2 * 2 * 5 * 3 * 5 * 5)
    #expect(checked == cases.count && checked >= everyExtremeCase.count / 7)
    let d = extremeDimensions
    #expect(Set(cases.map(\.number)).count == d.number && Set(cases.map(\.room)).count == d.room)
    #expect(Set(cases.map(\.face)).count == d.face && Set(cases.map(\.cards)).count == d.cards)
    #expect(Set(cases.map(\.names)).count == d.names && Set(cases.map(\.id)).count == d.id)
    #expect(eventsWritten.count == events(0).count && checked >= extremeRules.count)
    #expect(phasesWritten == [.playing, .over])
}

@Test("the states of one change at their largest are encoded together within the sum of their bounds")
func extremeStatesBatchWithinTheirBounds() {
    let name = String(repeating: "\u{1}", count: TextCleaner.maxNameBytes)
    let states = events(Int.min).flatMap { event in
        [extremeState(cards: largestBoard(face: name)[0], names: [name, name], number: Int.min, event: event),
         extremeState(cards: largestBoard(face: name)[0], names: [name, name], number: Int.min, event: event, faces: name)]
    }
    for rules in extremeRules {
        let batched = StateLineEncoder.encode(states, room: "kitchen", spectators: Int.min, rules: rules, id: heaviestID)
        let alone = states.flatMap {
            ServerMessageEncoder.encode(.state(StateMessage(room: "kitchen", spectators: Int.min, state: $0, rules: rules, id: heaviestID)))
        }
        #expect(batched == alone)
        let json = RulesJSON.bytesIfSent(rules)
        #expect(batched.count <= states.reduce(0) { $0 + bound(of: $1, room: "kitchen", rules: json, id: heaviestID) })
    }
}

@Test("no states encode to no bytes")
func noStatesEncodeToNothing() {
    #expect(StateLineEncoder.encode([], room: "kitchen", spectators: 0, rules: .standard, id: nil) == [])
}

/// `StateLineEncoder.bound`, which reads a state in place, for a state at hand.
private func bound(of state: PublicState, room: String, rules: [UInt8]?, id: RequestID?) -> Int {
    withUnsafePointer(to: state) { StateLineEncoder.bound(of: $0, room: room, rules: rules, id: id) }
}
