import PairsLobby
import PairsRules
import PairsServer
import Testing

@Suite("The addresses that loaded the page lately")
struct PageVisitorsTests {
    private let start = Moment(milliseconds: 1_000_000)

    @Test("an address is remembered for memoryMilliseconds after its last page load, and not a millisecond more")
    func memoryLastsItsTime() {
        var visitors = PageVisitors()
        #expect(!visitors.loadedThePageRecently("192.168.1.20", at: start))
        visitors.record("192.168.1.20", at: start)
        #expect(visitors.loadedThePageRecently("192.168.1.20", at: start.adding(milliseconds: PageVisitors.memoryMilliseconds)))
        #expect(!visitors.loadedThePageRecently("192.168.1.20", at: start.adding(milliseconds: PageVisitors.memoryMilliseconds + 1)))
        #expect(!visitors.loadedThePageRecently("192.168.1.21", at: start))
        // A reload renews it.
        visitors.record("192.168.1.20", at: start.adding(milliseconds: PageVisitors.memoryMilliseconds))
        #expect(visitors.loadedThePageRecently("192.168.1.20", at: start.adding(milliseconds: PageVisitors.memoryMilliseconds + 1)))
    }

    @Test("an address with the page's WebSocket open is remembered however long it stays open, and for memoryMilliseconds after the last one closes")
    func openWebSocketsKeepTheAddress() {
        var visitors = PageVisitors()
        let host = "192.168.1.30"
        let (first, second) = (ConnectionID(1, slot: 1), ConnectionID(2, slot: 2))
        visitors.webSocketOpened(host, by: first, at: start)
        visitors.webSocketOpened(host, by: second, at: start)
        let muchLater = start.adding(milliseconds: PageVisitors.memoryMilliseconds * 6)
        #expect(visitors.loadedThePageRecently(host, at: muchLater))
        visitors.closed(first, at: muchLater)
        // A connection that was never a WebSocket of the page, or whose close was noted already, is no news.
        visitors.closed(ConnectionID(3, slot: 3), at: muchLater)
        visitors.closed(first, at: muchLater)
        let evenLater = muchLater.adding(milliseconds: PageVisitors.memoryMilliseconds * 6)
        #expect(visitors.loadedThePageRecently(host, at: evenLater), "one WebSocket is still open")
        visitors.closed(second, at: evenLater)
        #expect(visitors.loadedThePageRecently(host, at: evenLater.adding(milliseconds: PageVisitors.memoryMilliseconds)))
        #expect(!visitors.loadedThePageRecently(host, at: evenLater.adding(milliseconds: PageVisitors.memoryMilliseconds + 1)))
    }

    @Test("the table never holds more than maxAddresses: the one seen longest ago makes room, or any that have expired")
    func tableIsBounded() {
        var visitors = PageVisitors()
        for number in 0..<PageVisitors.maxAddresses {
            visitors.record("10.0.\(number / 256).\(number % 256)", at: start.adding(milliseconds: Int64(number)))
        }
        #expect(visitors.count == PageVisitors.maxAddresses)
        let later = start.adding(milliseconds: Int64(PageVisitors.maxAddresses))
        visitors.record("172.16.0.1", at: later)
        #expect(visitors.count == PageVisitors.maxAddresses)
        #expect(visitors.loadedThePageRecently("172.16.0.1", at: later))
        #expect(!visitors.loadedThePageRecently("10.0.0.0", at: later), "the oldest stayed")
        #expect(visitors.loadedThePageRecently("10.0.0.1", at: later))

        // Once they have all expired, a newcomer clears them out rather than one at a time.
        let muchLater = later.adding(milliseconds: PageVisitors.memoryMilliseconds + 1)
        visitors.record("172.16.0.2", at: muchLater)
        #expect(visitors.count == 1)
    }
}
