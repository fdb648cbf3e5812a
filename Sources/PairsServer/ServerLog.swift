#if canImport(Glibc)
import Glibc
#endif
import PairsLobby

/// One line per notable event on stderr: `2026-11-21T19:51:39Z info room kitchen created`.
///
/// Written with one `write(2)` per line so lines from different threads never interleave. Nothing is
/// logged per message at the default level: a busy server would spend its time logging.
struct ServerLog: Sendable {
    let level: LogLevel

    func debug(_ message: @autoclosure () -> String) { log(.debug, message) }
    func info(_ message: @autoclosure () -> String) { log(.info, message) }
    func warning(_ message: @autoclosure () -> String) { log(.warning, message) }
    func error(_ message: @autoclosure () -> String) { log(.error, message) }

    /// A line the lobby asked for.
    func write(_ entry: LogEntry) { log(entry.level, { entry.message }) }

    private func log(_ severity: LogLevel, _ message: () -> String) {
        guard severity >= level else { return }
        var line = "\(Self.timestamp()) \(severity.name) \(message())\n"
        line.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
    }

    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
