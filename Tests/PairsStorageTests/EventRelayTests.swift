@testable import PairsStorage
import Synchronization
import Testing

@Suite("The store's events on their way to the server")
struct EventRelayTests {
    /// Where the watcher's frame lies on the stack, as an address: the same for every delivery made from the
    /// same place, unless something between `deliver` and the watcher grows.
    @inline(never)
    private static func stackAddress() -> Int {
        var marker = 0
        return withUnsafeMutablePointer(to: &marker) { Int(bitPattern: $0) }
    }

    @Test("the thousandth event reaches the watcher as deep in the stack as the first: nothing wraps the watcher again per delivery")
    func deliveriesDoNotDeepenTheStack() {
        let relay = EventRelay(onFailure: { _ in })
        let depths = Mutex<[Int]>([])
        relay.watch { _ in
            let address = Self.stackAddress()
            depths.withLock { $0.append(address) }
        }
        for ticket in 1...1_000 { relay.deliver(.settled(through: UInt64(ticket))) }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 1_000)
        // Each reabstraction thunk the watcher gathered would be a frame of its own, 64 bytes or more.
        #expect(seen.first == seen.last, "the stack under the watcher grew by \((seen.first ?? 0) - (seen.last ?? 0)) bytes over 1,000 deliveries")
    }

    @Test("a failure goes to the failure callback and to the watcher; a watcher set later replaces the first")
    func failuresReachBoth() {
        let failures = Mutex(0)
        let first = Mutex<[StorageEvent]>([])
        let second = Mutex<[StorageEvent]>([])
        let relay = EventRelay(onFailure: { _ in failures.withLock { $0 += 1 } })
        relay.deliver(.settled(through: 1))
        relay.watch { event in first.withLock { $0.append(event) } }
        relay.deliver(.failed(.backlogFull(room: "kitchen")))
        relay.watch { event in second.withLock { $0.append(event) } }
        relay.deliver(.settled(through: 2))
        #expect(failures.withLock { $0 } == 1)
        #expect(first.withLock { $0 } == [.failed(.backlogFull(room: "kitchen"))])
        #expect(second.withLock { $0 } == [.settled(through: 2)])
    }
}
