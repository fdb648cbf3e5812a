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
]

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
