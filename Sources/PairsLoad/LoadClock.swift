import Dispatch

/// The load client's clock: monotonic nanoseconds, the same clock Dispatch timers are scheduled on, so a
/// deadline computed here is exactly the one a `DispatchTime` fires at.
enum LoadClock {
    @inline(__always)
    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    static let nanosecondsPerMillisecond: UInt64 = 1_000_000
    static let nanosecondsPerSecond: UInt64 = 1_000_000_000
}
