/// Things to do at a later moment, kept in a binary min-heap by deadline, so thousands of games can each
/// have a think time or a retry pending while a single Dispatch timer is armed for the earliest one.
///
/// Entries are never removed early: an entry carries the `generation` its target had when it was set,
/// and the target ignores it when that has changed since (cheaper than finding it in the heap).
struct TimerHeap {
    /// What a timer does when it fires.
    enum Action: UInt8 {
        /// Send the flip a game planned (after its think time, its pacing slot, or a retry backoff).
        case sendFlip
        /// Decide again after a refused flip.
        case replan
        /// Ask for a rematch again after `rate_limited`; `target` is the game, `seat` the seat.
        case rematch
        /// Join again after `rate_limited`; `target` is the connection.
        case join
        /// Leave again after `rate_limited`; `target` is the connection.
        case leave
        /// Give up waiting for a connection's `left` and close it.
        case closeConnection
        /// The end of a `--duration` run.
        case endOfRun
        /// The end of the wait for goodbyes after a run.
        case endOfDrain
        /// The start of second `target` of the run: the CPU readings the report's timeline takes there.
        case secondOfRun
    }

    struct Entry {
        /// Monotonic nanoseconds (`MonotonicClock`).
        var deadline: UInt64
        var target: Int32
        var action: Action
        var seat: UInt8
        var generation: UInt32
    }

    private var entries: [Entry] = []

    /// The earliest deadline, if any.
    var nextDeadline: UInt64? { entries.first?.deadline }

    mutating func push(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry if its deadline is at or before `now`.
    mutating func popDue(at now: UInt64) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        guard !entries.isEmpty else { return first }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { break }
            let right = left + 1
            let smaller = right < entries.count && entries[right].deadline < entries[left].deadline ? right : left
            guard entries[smaller].deadline < entries[parent].deadline else { break }
            entries.swapAt(parent, smaller)
            parent = smaller
        }
        return first
    }

    mutating func removeAll() {
        entries.removeAll()
    }
}
