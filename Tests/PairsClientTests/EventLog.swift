import PairsTestSupport
import Synchronization

/// Events collected from a queue, for a test to wait on.
final class EventLog<Event: Sendable>: Sendable {
    private let events = Mutex<[Event]>([])

    func append(_ event: Event) {
        events.withLock { $0.append(event) }
    }

    var all: [Event] { events.withLock { $0 } }

    /// Waits for an event that `probe` picks out, among those from index `start` on.
    func waitFor<T>(_ what: String, from start: Int = 0, timeout: Duration = .seconds(10),
                    _ probe: (Event) -> T?) async throws -> T {
        try await PairsTestSupport.waitFor("\(what); got \(all)", timeout: timeout) {
            all.dropFirst(start).lazy.compactMap(probe).first
        }
    }
}
