#if canImport(Glibc)
import Glibc
#endif
import PairsRules

/// The clients' clock: CLOCK_MONOTONIC in milliseconds, so turn countdowns and reconnect windows are
/// immune to the wall clock being set.
public enum ClientClock {
    public static func now() -> Moment {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Moment(milliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }
}
