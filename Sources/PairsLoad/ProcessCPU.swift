#if canImport(Glibc)
import Glibc
#endif

/// CPU time used by processes, to show that the load client costs less than the server it drives.
public enum ProcessCPU {
    /// User plus system seconds this process has used so far (all threads).
    public static func ownSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// User plus system seconds process `pid` has used so far, from `/proc/PID/stat`; nil if it cannot be
    /// read (no such process, or not Linux).
    public static func seconds(ofProcess pid: Int32) -> Double? {
        guard let text = readFile("/proc/\(pid)/stat") else { return nil }
        // The command name (field 2) is in parentheses and may hold spaces: count fields after its end.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, so utime (14) and stime (15) are at offsets 11 and 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (user + system) / (ticks > 0 ? ticks : 100)
    }

    private static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
