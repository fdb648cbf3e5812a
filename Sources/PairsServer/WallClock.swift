#if canImport(Glibc)
import Glibc
#endif
import PairsStorage

/// The wall clock, for when finished games started and ended: the only thing the server dates by it.
/// Everything that measures time inside a game reads the monotonic clock instead, which never jumps.
enum WallClock {
    static func now() -> WallClockTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallClockTime(unixMilliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }
}
