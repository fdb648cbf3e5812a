import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under the system's temporary directory, for one test's files (a database, a log, a
/// pid file), removed with everything in it when the test lets go of it.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pairs-storage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    deinit {
        // Make anything a test write-protected writable again, or it could not be removed.
        if let walker = FileManager.default.enumerator(atPath: path) {
            for case let relative as String in walker {
                chmod(path + "/" + relative, 0o700)
            }
        }
        chmod(path, 0o700)
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// A database file in the directory, for `pairs serve --data`.
    public var database: String { file("pairs.db") }
}
