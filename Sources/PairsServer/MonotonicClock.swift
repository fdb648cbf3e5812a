#if canImport(Glibc)
import Glibc
#endif
import PairsRules

/// The server's clock: CLOCK_MONOTONIC in milliseconds, so turn clocks are immune to wall-clock jumps.
enum MonotonicClock {
    static func now() -> Moment {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Moment(milliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }
}
