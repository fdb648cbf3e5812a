#if canImport(Glibc)
import Glibc
#endif
import PairsRules

/// The clock of the server, the clients and the load generator: `CLOCK_MONOTONIC`, so turn clocks, reconnect
/// windows and latencies are immune to the wall clock being set.
///
/// It reads as `Moment`s (milliseconds) for the lobby and the clients, and as nanoseconds for the load
/// generator's latencies. On Linux it is also the clock Dispatch schedules on (`DispatchTime`'s uptime reads
/// `CLOCK_MONOTONIC`), so a deadline in nanoseconds here is exactly the one
/// `DispatchTime(uptimeNanoseconds:)` fires at.
public enum MonotonicClock {
    public static let nanosecondsPerMillisecond: UInt64 = 1_000_000
    public static let nanosecondsPerSecond: UInt64 = 1_000_000_000

    /// Nanoseconds since the clock's origin (boot).
    public static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * nanosecondsPerSecond + UInt64(spec.tv_nsec)
    }

    /// Now, in whole milliseconds since the clock's origin.
    public static func now() -> Moment {
        Moment(milliseconds: Int64(nanoseconds() / nanosecondsPerMillisecond))
    }
}
