#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex: every access goes through `withLock`, so the class is Sendable
/// (unchecked, since the compiler cannot see the lock). A pthread mutex rather than `Synchronization.Mutex`,
/// which ThreadSanitizer does not understand on Linux; shared by the lobby's directory and the transport's
/// tables that span loops.
public final class PthreadLocked<Value>: @unchecked Sendable {
    private var value: Value
    /// Allocated, not stored inline: a pthread mutex must not move.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}
