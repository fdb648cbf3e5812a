import PairsRecords
import Foundation
import PairsRules
@testable import PairsWire
import Testing

private func decoded(_ text: String) -> Result<Request?, RequestError> {
    Result { () throws(RequestError) in try RequestDecoder.decode(line: Array(text.utf8)) }
}

private let twentyName = String(repeating: "t", count: TournamentLimits.maxNameCharacters)

/// A line and the tournament request it is.
struct TournamentLine: Sendable, CustomTestStringConvertible {
    let text: String
    let expected: Request
    init(_ text: String, _ expected: Request) {
        self.text = text
        self.expected = expected
    }
    var testDescription: String { text }
}

private let goodLines: [TournamentLine] = [
    TournamentLine(#"{"type":"tournament_create","name":"cup","format":"swiss","id":1}"#,
                   Request(id: .integer(1), .tournament(.create(TournamentCreation(name: "cup", length: .rounds(nil)))))),
    TournamentLine(#"{"type":"tournament_create","name":"cup","format":"swiss","rounds":20,"start":1024,"claimed_only":true}"#,
                   Request(.tournament(.create(TournamentCreation(name: "cup", length: .rounds(20), start: .players(1024), claimedOnly: true))))),
    TournamentLine(#"{"type":"tournament_create","name":"\#(twentyName)","format":"arena","minutes":0.5,"start":"manual"}"#,
                   Request(.tournament(.create(TournamentCreation(name: twentyName, length: .milliseconds(30_000)))))),
    TournamentLine(#"{"type":"tournament_create","name":"a","format":"arena","minutes":1440,"start":2}"#,
                   Request(.tournament(.create(TournamentCreation(name: "a", length: .milliseconds(86_400_000), start: .players(2)))))),
    TournamentLine(#"{"type":"tournament_create","name":"a","format":"arena","minutes":0.1}"#,
                   Request(.tournament(.create(TournamentCreation(name: "a", length: .milliseconds(6_000)))))),
    TournamentLine(#"{"type":"tournament_create","name":"m3","format":"swiss","rounds":1,"rules":{"match":3,"deck":"cards","scoring":"matchismo","pairs":4}}"#,
                   Request(.tournament(.create(TournamentCreation(name: "m3", length: .rounds(1), rules: {
                       var rules = RuleChoices()
                       rules.setSize = .triple; rules.deck = .cards; rules.scoring = .matchismo; rules.pairs = 4
                       return rules
                   }()))))),
    TournamentLine(#"{"type":"tournament_join","tournament":"cup","id":"j"}"#, Request(id: .string("j"), .tournament(.join(tournament: "cup")))),
    TournamentLine(#"{"type":"tournament_leave","tournament":"cup"}"#, Request(.tournament(.leave(tournament: "cup")))),
    TournamentLine(#"{"type":"tournament_start","tournament":"cup"}"#, Request(.tournament(.start(tournament: "cup")))),
    TournamentLine(#"{"type":"tournament_list"}"#, Request(.tournament(.list))),
    TournamentLine(#"{"type":"tournament_watch","tournament":"Cup_2-b"}"#, Request(.tournament(.watch(tournament: "Cup_2-b")))),
    // the standings a follower asks its pushes to carry: 0 (its own row alone) to 1024
    TournamentLine(#"{"type":"tournament_join","tournament":"bots","standings":0,"id":3}"#,
                   Request(id: .integer(3), .tournament(.join(tournament: "bots", standings: 0)))),
    TournamentLine(#"{"type":"tournament_watch","tournament":"bots","standings":1024}"#,
                   Request(.tournament(.watch(tournament: "bots", standings: 1024)))),
    TournamentLine(#"{"type":"tournament_join","tournament":"bots","standings":null}"#, Request(.tournament(.join(tournament: "bots")))),
    // text commands
    TournamentLine("tournament create cup swiss", Request(.tournament(.create(TournamentCreation(name: "cup", length: .rounds(nil)))))),
    TournamentLine("TOURNAMENT Create cup Swiss rounds 3 players 8 claimed",
                   Request(.tournament(.create(TournamentCreation(name: "cup", length: .rounds(3), start: .players(8), claimedOnly: true))))),
    TournamentLine("tournament create bots arena minutes 0.5", Request(.tournament(.create(TournamentCreation(name: "bots", length: .milliseconds(30_000)))))),
    TournamentLine("tournament create bots arena minutes 60 players 6",
                   Request(.tournament(.create(TournamentCreation(name: "bots", length: .milliseconds(3_600_000), start: .players(6)))))),
    TournamentLine("tournament join cup", Request(.tournament(.join(tournament: "cup")))),
    TournamentLine("tournament leave cup", Request(.tournament(.leave(tournament: "cup")))),
    TournamentLine("tournament start cup", Request(.tournament(.start(tournament: "cup")))),
    TournamentLine("tournament watch cup", Request(.tournament(.watch(tournament: "cup")))),
    TournamentLine("tournament join bots standings 0", Request(.tournament(.join(tournament: "bots", standings: 0)))),
    TournamentLine("tournament watch bots STANDINGS 10", Request(.tournament(.watch(tournament: "bots", standings: 10)))),
    TournamentLine("tournament list", Request(.tournament(.list))),
]

@Test("every tournament request, as JSON or as a text command, decodes to its request", arguments: goodLines)
func tournamentRequestsDecode(line: TournamentLine) {
    #expect(decoded(line.text) == .success(line.expected))
}

@Test("every tournament request the clients send reads back as itself through the server's decoder", arguments: goodLines)
func tournamentRequestsRoundTrip(line: TournamentLine) throws {
    let bytes = RequestEncoder.encode(line.expected)
    #expect(bytes.last == UInt8(ascii: "\n"))
    #expect(try RequestDecoder.decode(line: bytes.dropLast()) == line.expected)
}

/// A line and the error code it must get.
struct RefusedTournamentLine: Sendable, CustomTestStringConvertible {
    let text: String
    let code: ErrorCode
    init(_ text: String, _ code: ErrorCode) {
        self.text = text
        self.code = code
    }
    var testDescription: String { "\(text) -> \(code.rawValue)" }
}

private func create(_ fields: String) -> String { #"{"type":"tournament_create","id":4,"# + fields + "}" }

private let refusedLines: [RefusedTournamentLine] = [
    // standings: a whole number 0-1024, one over each end refused
    RefusedTournamentLine(#"{"type":"tournament_join","tournament":"bots","standings":-1,"id":4}"#, .badField),
    RefusedTournamentLine(#"{"type":"tournament_join","tournament":"bots","standings":1025,"id":4}"#, .badField),
    RefusedTournamentLine(#"{"type":"tournament_watch","tournament":"bots","standings":2.5,"id":4}"#, .badField),
    RefusedTournamentLine(#"{"type":"tournament_watch","tournament":"bots","standings":"top","id":4}"#, .badField),
    RefusedTournamentLine("tournament join bots standings 1025", .badField),
    RefusedTournamentLine("tournament watch bots standings", .badField),
    RefusedTournamentLine("tournament join bots top 3", .badField),
    // the name: 1 to 20 of A-Z a-z 0-9 - _, one over refused
    RefusedTournamentLine(create(#""name":"\#(twentyName)x","format":"swiss""#), .badField),
    RefusedTournamentLine(create(#""name":"","format":"swiss""#), .badField),
    RefusedTournamentLine(create(#""name":"a b","format":"swiss""#), .badField),
    RefusedTournamentLine(create(#""format":"swiss""#), .badField),
    // the format and its length
    RefusedTournamentLine(create(#""name":"cup""#), .badFormat),
    RefusedTournamentLine(create(#""name":"cup","format":"knockout""#), .badFormat),
    RefusedTournamentLine(create(#""name":"cup","format":"arena""#), .badFormat),
    RefusedTournamentLine(create(#""name":"cup","format":"arena","minutes":5,"rounds":3"#), .badFormat),
    RefusedTournamentLine(create(#""name":"cup","format":"swiss","minutes":5"#), .badFormat),
    RefusedTournamentLine(create(#""name":"cup","format":"swiss","rules":{"seats":1}"#), .badFormat),
    // rounds 1-20, minutes 0.1-1440, start "manual" or 2-1024 players: one over each end refused
    RefusedTournamentLine(create(#""name":"cup","format":"swiss","rounds":21"#), .badField),
    RefusedTournamentLine(create(#""name":"cup","format":"swiss","rounds":0"#), .badField),
    RefusedTournamentLine(create(#""name":"cup","format":"swiss","rounds":2.5"#), .badField),
    RefusedTournamentLine(create(#""name":"cup","format":"arena","minutes":1440.001"#), .badField),
    RefusedTournamentLine(create(#""name":"cup","format":"arena","minutes":0.099"#), .badField),
    RefusedTournamentLine(create(#""name":"cup","format":"arena","minutes":"5""#), .badField),
    RefusedTournamentLine(create(#""name":"cup","format":"swiss","start":1025"#), .badField),
    RefusedTournamentLine(create(#""name":"cup","format":"swiss","start":1"#), .badField),
    RefusedTournamentLine(create(#""name":"cup","format":"swiss","start":"soon""#), .badField),
    RefusedTournamentLine(create(#""name":"cup","format":"swiss","claimed_only":"yes""#), .badField),
    RefusedTournamentLine(create(#""name":"cup","format":"swiss","rules":{"pairs":33}"#), .badField),
    RefusedTournamentLine(create(#""name":"cup","format":"swiss","rules":5"#), .badField),
    RefusedTournamentLine(#"{"type":"tournament_join","id":4}"#, .badField),
    RefusedTournamentLine(#"{"type":"tournament_watch","tournament":"\#(twentyName)x","id":4}"#, .badField),
    // text commands
    RefusedTournamentLine("tournament", .badField),
    RefusedTournamentLine("tournament dance", .badField),
    RefusedTournamentLine("tournament join", .badField),
    RefusedTournamentLine("tournament join a b", .badField),
    RefusedTournamentLine("tournament list all", .badField),
    RefusedTournamentLine("tournament create cup", .badField),
    RefusedTournamentLine("tournament create cup swiss rounds", .badField),
    RefusedTournamentLine("tournament create cup swiss laps 3", .badField),
    RefusedTournamentLine("tournament create cup arena", .badFormat),
    RefusedTournamentLine("tournament create cup arena minutes 1441", .badField),
    RefusedTournamentLine("tournament create cup swiss rounds 21", .badField),
    RefusedTournamentLine("tournament create cup swiss players 2.5", .badField),
    RefusedTournamentLine("tournament create cup \u{1B}[2J", .badFormat),
]

@Test("bad tournament requests get their typed error, with the id, and a message free of control characters", arguments: refusedLines)
func badTournamentRequestsAreRefused(line: RefusedTournamentLine) {
    guard case .failure(let error) = decoded(line.text) else {
        Issue.record("decoded to \(decoded(line.text))")
        return
    }
    #expect(error.code == line.code, "\(error.message)")
    #expect(error.id == (line.text.hasPrefix("{") ? .integer(4) : nil))
    #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
}

@Test("scores in quarters are written as the shortest decimal and read back exactly")
func quarterPoints() {
    #expect([0, 1, 2, 3, 4, 5, 10, -3].map { QuarterPoints(quarters: $0).description } == ["0", "0.25", "0.5", "0.75", "1", "1.25", "2.5", "-0.75"])
    #expect(QuarterPoints(2.75) == QuarterPoints(quarters: 11))
    #expect(QuarterPoints(0.1) == nil)
    #expect(QuarterPoints(.infinity) == nil)
}

@Test("the standings of a full tournament of the longest names are cut into lines that each fit the line limit, and put back together whole")
func fullStandingsFitLines() throws {
    let name = String(repeating: "n", count: TextCleaner.maxNameCharacters)
    let standings = (1...TournamentLimits.maxEntrants).map {
        TournamentStanding(rank: $0, name: name + "\($0)", score: QuarterPoints(halves: $0), games: 20,
                           buchholz: QuarterPoints(halves: 300 + $0), sonnebornBerger: QuarterPoints(quarters: 1001), streak: 0)
    }
    let pairings = (1...TournamentLimits.maxEntrants / 2).map {
        TournamentBoard(room: twentyName + "-\($0)", players: [name + "a\($0)", name + "b\($0)"])
    }
    let view = TournamentView(name: twentyName, format: .swiss, status: .running, creator: name, rules: .standard,
                              round: 20, rounds: 20, entrants: TournamentLimits.maxEntrants, standings: standings,
                              pairings: pairings, bye: nil, id: heaviestID)
    let lines = LongAnswers.lines(.tournament(view))
    #expect(lines.count > 1)
    var answer = LongAnswer()
    for line in lines {
        let bytes = ServerMessageEncoder.encode(line)
        #expect(bytes.count <= LineFramer.maxLineBytes + 1)
        try answer.append(try ServerMessageDecoder.decode(line: bytes.dropLast()))
    }
    #expect(answer.isComplete)
    #expect(answer.message == .tournament(view))
}

@Test("a tournament list of many tournaments is cut into lines that fit and put back together whole")
func longTournamentListFits() throws {
    let list = TournamentList(tournaments: (1...200).map {
        TournamentSummary(name: "t\($0)", length: .milliseconds(Int64($0) * 1000), status: .open, creator: "host", entrants: $0,
                          rules: .standard, start: .players(2))
    }, id: .integer(1))
    let lines = LongAnswers.lines(.tournaments(list))
    var answer = LongAnswer()
    for line in lines {
        let bytes = ServerMessageEncoder.encode(line)
        #expect(bytes.count <= LineFramer.maxLineBytes + 1)
        try answer.append(try ServerMessageDecoder.decode(line: bytes.dropLast()))
    }
    #expect(answer.message == .tournaments(list))
}

@Test("a tournament line whose score is no whole number of quarters is refused by the client's decoder")
func badScoreRefused() {
    var line = String(decoding: ServerMessageEncoder.encode(.tournament(swissTournament)).dropLast(), as: UTF8.self)
    line = line.replacingOccurrences(of: #""score":1.5"#, with: #""score":1.3"#)
    #expect(throws: ServerMessageError.badField("score")) { try ServerMessageDecoder.decode(line: Array(line.utf8)) }
}

/// protocol.md's example of a `tournament` message: a Swiss of five (rated ann, bob, cat, dan, eve from the
/// top) after round 1 (ann beat bob, cat drew dan, eve had the bye), at the start of round 2, bob's bye
/// counted. The Swiss director's tests play the same round and find the same standings and pairings.
let documentedSwiss = TournamentView(
    name: "cup", format: .swiss, status: .running, creator: "ann", rules: .standard, round: 2, rounds: 3, entrants: 5,
    standings: [
        TournamentStanding(rank: 1, name: "ann", score: QuarterPoints(halves: 2), games: 1, buchholz: QuarterPoints(halves: 2), sonnebornBerger: QuarterPoints(quarters: 4)),
        TournamentStanding(rank: 2, name: "bob", score: QuarterPoints(halves: 2), games: 1, buchholz: QuarterPoints(halves: 2), sonnebornBerger: QuarterPoints(quarters: 0)),
        TournamentStanding(rank: 3, name: "eve", score: QuarterPoints(halves: 2), games: 0, buchholz: QuarterPoints(halves: 0), sonnebornBerger: QuarterPoints(quarters: 0)),
        TournamentStanding(rank: 4, name: "cat", score: QuarterPoints(halves: 1), games: 1, buchholz: QuarterPoints(halves: 1), sonnebornBerger: QuarterPoints(quarters: 1)),
        TournamentStanding(rank: 5, name: "dan", score: QuarterPoints(halves: 1), games: 1, buchholz: QuarterPoints(halves: 1), sonnebornBerger: QuarterPoints(quarters: 1)),
    ],
    pairings: [TournamentBoard(room: "cup-3", players: ["ann", "cat"]), TournamentBoard(room: "cup-4", players: ["dan", "eve"])],
    bye: "bob")

/// protocol.md's example of an arena's `tournament` message.
let documentedArena = TournamentView(
    name: "bots", format: .arena, status: .running, creator: "host", rules: .standard, millisecondsLeft: 1_234_567, entrants: 3,
    standings: [
        TournamentStanding(rank: 1, name: "b2", score: QuarterPoints(points: 8), games: 3, streak: 3),
        TournamentStanding(rank: 2, name: "b1", score: QuarterPoints(points: 1), games: 3),
        TournamentStanding(rank: 3, name: "b3", score: QuarterPoints(points: 1), games: 2, active: false),
    ],
    pairings: [TournamentBoard(room: "bots-7", players: ["b1", "b2"])])

@Test("protocol.md's example tournament lines are exactly what the encoder writes", arguments: [documentedSwiss, documentedArena])
func documentedTournamentLines(view: TournamentView) throws {
    let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("protocol.md")
    let text = try String(contentsOf: document, encoding: .utf8)
    let line = String(decoding: ServerMessageEncoder.encode(.tournament(view)).dropLast(), as: UTF8.self)
    #expect(text.split(separator: "\n").contains { $0 == line }, "\(line)")
}
