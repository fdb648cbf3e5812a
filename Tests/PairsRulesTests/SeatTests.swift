import PairsRules
import Testing

@Test("each seat's opponent is the other seat")
func opponentIsTheOtherSeat() {
    #expect(Seat.first.opponent == .second)
    #expect(Seat.second.opponent == .first)
    #expect(Seat(index: 2) == nil)
}
