import Foundation

/// A directory of its own for one test's files (a database, a log, a pid file), removed when the test is done.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pairs-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    var database: String { file("pairs.db") }
}
