import PairsLobby
import PairsRules
import Testing

@Suite("Connection ids and the table that finds connections by them")
struct ConnectionTableTests {
    private final class Box {
        let name: String
        init(_ name: String) { self.name = name }
    }

    @Test("numbers are never reused, slots are: a newcomer takes the slot of a connection that is gone")
    func issuerReusesSlotsNotNumbers() {
        var issuer = ConnectionIDIssuer()
        let first = issuer.issue(), second = issuer.issue(), third = issuer.issue()
        #expect([first, second, third].map(\.value) == [1, 2, 3])
        #expect([first, second, third].map(\.slot) == [0, 1, 2])
        issuer.retire(second)
        let fourth = issuer.issue()
        #expect(fourth.value == 4 && fourth.slot == 1)
        #expect(issuer.issue().slot == 3)
        #expect(fourth.description == "c4")
    }

    @Test("however connections come and go, no slot is higher than the most open at once, and open ones never share one")
    func slotsStayWithinThePeak() {
        var issuer = ConnectionIDIssuer()
        var random = SplitMix64(seed: 7)
        var open: [ConnectionID] = []
        var peak = 0, highestSlot = -1
        for _ in 0..<5_000 {
            if open.isEmpty || random.next() % 3 != 0 {
                let id = issuer.issue()
                #expect(!open.contains { $0.slot == id.slot })
                open.append(id)
                highestSlot = max(highestSlot, id.slot)
            } else {
                issuer.retire(open.remove(at: Int(random.next() % UInt64(open.count))))
            }
            peak = max(peak, open.count)
        }
        #expect(highestSlot == peak - 1)
    }

    @Test("an id whose slot went to a newcomer finds nothing, and removing it leaves the newcomer in place")
    func staleIDsFindNothing() {
        var issuer = ConnectionIDIssuer()
        var table = ConnectionTable<Box>()
        let ann = issuer.issue(), bob = issuer.issue()
        table[ann] = Box("ann")
        table[bob] = Box("bob")
        #expect(table[ann]?.name == "ann" && table[bob]?.name == "bob" && table.count == 2)

        table[ann] = nil
        issuer.retire(ann)
        let cat = issuer.issue()
        #expect(cat.slot == ann.slot)
        table[cat] = Box("cat")
        #expect(table[ann] == nil)
        #expect(table[cat]?.name == "cat")
        table[ann] = nil
        #expect(table[cat]?.name == "cat" && table.count == 2)
        #expect(table.element(inSlot: ann.slot)?.name == "cat")
        #expect(table.elements.map(\.name) == ["cat", "bob"])
    }

    @Test("an id from outside the table's slots finds nothing, and the table grows to take it")
    func tableGrowsToAnySlot() {
        var table = ConnectionTable<Box>()
        let far = ConnectionID(9, slot: 40)
        #expect(table[far] == nil && table.element(inSlot: 40) == nil && table.isEmpty)
        table[far] = Box("far")
        #expect(table[far]?.name == "far" && table.count == 1)
        #expect(table.element(inSlot: 39) == nil && table.element(inSlot: 41) == nil)
        table[far] = nil
        #expect(table.isEmpty && table[far] == nil)
    }
}
