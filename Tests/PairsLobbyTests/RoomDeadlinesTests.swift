@testable import PairsLobby
import PairsRules
import Testing

@Test("room deadlines come out earliest first through thousands of random sets, moves and removals, as a sorted list says")
func roomDeadlinesMatchASortedReference() {
    var random = SplitMix64(seed: 11)
    var heap = RoomDeadlines()
    let options = RuleSet.standard
    let rooms = (0..<64).map { Room(name: "r\($0)", isQuickMatch: false, match: Match(rules: options, graceMilliseconds: 0, seed: 1)) }
    var reference: [ObjectIdentifier: Moment] = [:]
    var now = Moment(milliseconds: 0)
    for _ in 0..<20_000 {
        let room = rooms[random.next(below: rooms.count)]
        switch random.next(below: 10) {
        case 0...5:
            let deadline = now.adding(milliseconds: Int64(random.next(below: 1000)))
            heap.set(deadline, for: room)
            reference[ObjectIdentifier(room)] = deadline
        case 6:
            heap.set(nil, for: room)
            reference[ObjectIdentifier(room)] = nil
        default:
            now = now.adding(milliseconds: Int64(random.next(below: 200)))
            while let due = heap.popDue(at: now) {
                #expect(due.deadline == nil, "a popped room holds no deadline")
                #expect(reference.removeValue(forKey: ObjectIdentifier(due)).map { $0 <= now } == true)
            }
            #expect(reference.values.allSatisfy { $0 > now }, "every due room came out")
        }
        #expect(heap.earliest == reference.values.min())
        #expect(heap.count == reference.count)
    }
}
