import Foundation
import Synchronization
import Testing

/// Runs each test it marks on a thread of its own, off Swift Testing's pool.
///
/// Swift Testing calls a synchronous test on its cooperative pool, which has a thread per core: two here.
/// A test that waits for a socket, a process or a timer in a blocking call holds one of those two threads
/// while it waits, so two waiting tests stopped every other test in the run, and the suite took as long
/// as its waits added up in pairs. Marked `.ownThread`, the test's body runs on a thread started for it
/// (through a task executor preference), and the pool stays free for the rest. For tests that wait; a test
/// that computes gains nothing from it.
public struct OwnThread: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        // A suite's own scope wraps its tests' scopes, each of which gets a thread of its own.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OwnThread {
    /// Runs the test (or every test of the suite) on a thread of its own, so that its blocking waits
    /// leave Swift Testing's pool to the other tests.
    public static var ownThread: Self { OwnThread() }
}

/// A task executor that runs every job it is given on a new thread. A synchronous test body is one job, so
/// it gets a thread of its own for as long as it runs, however long it blocks.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        // Room for the deep call stacks of a test body, as the main thread has.
        thread.stackSize = 8 << 20
        thread.start()
    }
}
