@testable import PairsServer
import Testing

@Suite("Which loop takes each newcomer")
struct DealerTests {
    @Test("round robin deals the nth connection to loop n mod K, counting every connection dealt")
    func roundRobinCountsEveryConnection() {
        var dealer = Dealer(choosing: { n, loops in n % loops })
        #expect((0..<7).map { _ in dealer.next(of: 3) } == [0, 1, 2, 0, 1, 2, 0])
    }

    @Test("a test's choice outside the loops is taken as the nearest loop")
    func choicesOutOfRangeAreClamped() {
        let choices = [-4, 0, 2, 9]
        var dealer = Dealer(choosing: { n, _ in choices[n] })
        #expect(choices.map { _ in dealer.next(of: 3) } == [0, 0, 2, 2])
    }
}
