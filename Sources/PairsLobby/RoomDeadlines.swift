import PairsRules

/// The rooms whose match has something to do at a later moment (a reveal ending, a turn clock running out,
/// a grace period ending), earliest first: an indexed binary min-heap.
///
/// The transport arms a single timer for `earliest`; when it fires, the lobby takes the rooms that are due.
/// A room's deadline moves after nearly every change (a flip restarts the turn clock), so each room sits in
/// the heap at most once and knows its own position: moving it costs O(log rooms) and leaves nothing stale
/// behind, where a heap of (moment, room) entries would keep one dead entry per flip until its moment.
struct RoomDeadlines {
    private var heap: [Room] = []

    /// The earliest deadline of any room.
    var earliest: Moment? { heap.first?.deadline }

    var count: Int { heap.count }

    /// Sets, moves or (for nil) removes `room`'s deadline.
    mutating func set(_ deadline: Moment?, for room: Room) {
        guard let deadline else { return remove(room) }
        guard let index = room.deadlineIndex, let current = room.deadline else {
            room.deadline = deadline
            room.deadlineIndex = heap.count
            heap.append(room)
            return siftUp(heap.count - 1)
        }
        guard deadline != current else { return }
        room.deadline = deadline
        if deadline < current { siftUp(index) } else { siftDown(index) }
    }

    /// Takes out and returns the room with the earliest deadline, if that deadline is at or before `now`.
    mutating func popDue(at now: Moment) -> Room? {
        guard let first = heap.first, let deadline = first.deadline, deadline <= now else { return nil }
        remove(first)
        return first
    }

    private mutating func remove(_ room: Room) {
        guard let index = room.deadlineIndex else { return }
        room.deadline = nil
        room.deadlineIndex = nil
        let moved = heap.removeLast()
        guard moved !== room else { return }
        // The last room fills the hole, then finds its place from there, up or down.
        heap[index] = moved
        moved.deadlineIndex = index
        siftUp(index)
        siftDown(moved.deadlineIndex!)
    }

    private mutating func siftUp(_ start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard isEarlier(index, than: parent) else { break }
            exchange(index, parent)
            index = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1
            let right = left + 1
            var smallest = index
            if left < heap.count, isEarlier(left, than: smallest) { smallest = left }
            if right < heap.count, isEarlier(right, than: smallest) { smallest = right }
            guard smallest != index else { return }
            exchange(index, smallest)
            index = smallest
        }
    }

    private func isEarlier(_ lhs: Int, than rhs: Int) -> Bool {
        heap[lhs].deadline! < heap[rhs].deadline!
    }

    private mutating func exchange(_ lhs: Int, _ rhs: Int) {
        heap.swapAt(lhs, rhs)
        heap[lhs].deadlineIndex = lhs
        heap[rhs].deadlineIndex = rhs
    }
}
