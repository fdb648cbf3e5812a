#if canImport(Glibc)
import Glibc
#endif

/// The cores this process may run on: the default number of event loops, for a program that should use
/// every core it is given (by `taskset`, a container's cpuset or cgroup pinning) and no more.
public enum ProcessorAffinity {
    /// The most CPUs a mask is asked for: 65,536, far beyond any machine; the mask starts at 1,024 (glibc's
    /// `cpu_set_t`) and doubles while the kernel says it is too small.
    static let maxCPUs = 1 << 16

    private typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer?) -> Int32

    /// How many CPUs are in this process's affinity mask (`sched_getaffinity` and `CPU_COUNT`), at least 1;
    /// the online CPUs when the mask cannot be read.
    ///
    /// Glibc declares `sched_getaffinity` only under `_GNU_SOURCE`, which the toolchain's Glibc module is not
    /// built with, so it is looked up by name; `CPU_COUNT` is a macro, so the bits are counted here.
    public static func coreCount() -> Int {
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_getaffinity") {
            let getAffinity = unsafeBitCast(symbol, to: GetAffinity.self)
            var cpus = 1024
            while cpus <= maxCPUs {
                var words = [UInt64](repeating: 0, count: cpus / 64)
                let result = words.withUnsafeMutableBytes { getAffinity(0, $0.count, $0.baseAddress) }
                if result == 0 {
                    let count = words.reduce(0) { $0 + $1.nonzeroBitCount }
                    if count > 0 { return count }
                    break
                }
                guard errno == EINVAL else { break }
                cpus *= 2
            }
        }
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
