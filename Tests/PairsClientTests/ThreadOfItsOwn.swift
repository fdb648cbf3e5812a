import Foundation

/// Runs `body` on a thread of its own and returns its result.
///
/// For steps whose timing matters, with `blockingWaitUntil` for their waits: the synchronous network tests
/// of other suites can hold every thread of Swift Testing's cooperative pool (one per core) for seconds,
/// and an `await` that needs one of them to resume waits that long. A plain thread is scheduled by the
/// kernel alone.
func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
