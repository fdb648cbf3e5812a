import PairsRules

/// Something a loop does at a moment, apart from the lobby's deadlines and the welcome waits (which keep
/// their own lists): every one of the transport's timeouts, all served by the loop's one timer.
enum LoopDeadline {
    /// A goodbye's time is up: the connection closes if it has not already.
    case goodbye(Connection)
    /// An HTTP request head has not arrived in time: 408.
    case requestHead(Connection)
    /// The store's gateway has something due (`StoreGateway.Due`).
    case store(StoreGateway.Due)
    /// A shutdown's goodbyes have had their time: whatever is left closes.
    case drain
}

/// The loop's deadlines, soonest first: a binary heap, since deadlines come in any order (a goodbye's 2 s,
/// a storage answer's 5 s, a name check's delay). Deadlines at the same moment come out in the order they
/// went in.
struct LoopDeadlines {
    private var heap: [(at: Moment, order: UInt64, what: LoopDeadline)] = []
    private var nextOrder: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }

    /// The earliest deadline; nil when there is none.
    var next: Moment? { heap.first?.at }

    mutating func add(_ what: LoopDeadline, at moment: Moment) {
        nextOrder += 1
        heap.append((moment, nextOrder, what))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(child, parent) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// The earliest deadline if it is due at `now`, taken off; nil when none is due.
    mutating func popDue(at now: Moment) -> LoopDeadline? {
        guard let first = heap.first, first.at <= now else { return nil }
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, precedes(left, smallest) { smallest = left }
            if right < heap.count, precedes(right, smallest) { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first.what
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool {
        heap[a].at < heap[b].at || (heap[a].at == heap[b].at && heap[a].order < heap[b].order)
    }
}
