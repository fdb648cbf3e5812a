import PairsRules
import PairsWire
import Testing

private let everyRequest: [Request] = [
    Request(id: .integer(1), .hello(name: "ann \"the\" ✨")),
    Request(.join(JoinRequest())),
    Request(id: .string("j"), .join(JoinRequest(room: "kitchen", rules: RuleChoices(
        RuleSet(pairs: 6, turnSeconds: 20, revealMilliseconds: 500, againOnMatch: false))))),
    Request(.join(JoinRequest(rules: RuleChoices(RuleSet(
        variant: Variant(seats: .one, setSize: .triple, deck: .cards, scoring: .matchismo(MatchismoCosts(flipCost: 0, mismatchPenalty: 9, matchBonus: 100)),
                         gameSeconds: 90, peekMilliseconds: 2500),
        pairs: 17, turnSeconds: 0, revealMilliseconds: 0, againOnMatch: true))))),
    Request(id: .integer(-7), .flip(card: 3)),
    Request(.leave), Request(.rematch), Request(.say(text: "good game \\o/")), Request(.watch(room: "den")),
    Request(.list), Request(.list(ListQuery(limit: 50, after: RoomListCursor(hasFreeSeat: false, room: "kitchen_2")))), Request(.resume(token: "a219dbd1e977c759cb3ab758816e2f2c")), Request(.ping), Request(.stats),
    Request(.help), Request(.quit),
    Request(id: .integer(9), .history(HistoryQuery(name: "ann", limit: 5, before: 90, tournament: "cup-0a1b2c3d"))),
    Request(.profile(name: "ann")), Request(id: .integer(10), .profile(name: "ann", tournament: "cup-0a1b2c3d")),
]

@Test("history takes a tournament's key of up to 29 characters of A-Z a-z 0-9 - _; one more, or another character, is bad_field")
func historyTournamentKeyBounds() throws {
    let longest = String(repeating: "k", count: TournamentLimits.maxKeyCharacters)
    let line = { (key: String) in Array(#"{"type":"history","tournament":"\#(key)"}"#.utf8) }
    let profile = Array(#"{"type":"profile","name":"ann","tournament":"\#(longest)k"}"#.utf8)
    #expect(throws: RequestError.self) { try RequestDecoder.decode(line: profile[...]) }
    #expect(try RequestDecoder.decode(line: line(longest)[...])?.message == .history(HistoryQuery(tournament: longest)))
    for bad in [longest + "k", "cup 1", "", "cup-é"] {
        #expect(throws: RequestError.self) { try RequestDecoder.decode(line: line(bad)[...]) }
        do {
            _ = try RequestDecoder.decode(line: line(bad)[...])
        } catch {
            #expect(error.code == .badField, "\(bad)")
        }
    }
}

@Test("every request the clients send reads back as the same request through the server's decoder", arguments: everyRequest)
func requestsRoundTrip(request: Request) throws {
    let line = RequestEncoder.encode(request)
    #expect(line.last == UInt8(ascii: "\n"))
    #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false)
    let decoded = try RequestDecoder.decode(line: line.dropLast())
    #expect(decoded == request)
}

@Test("a hello names the protocol version the client speaks")
func helloCarriesTheProtocolVersion() {
    let text = String(decoding: RequestEncoder.encode(Request(.hello(name: "ann"))), as: UTF8.self)
    #expect(text == #"{"type":"hello","name":"ann","protocol":1}"# + "\n")
}
