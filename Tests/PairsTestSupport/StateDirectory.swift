import Foundation

/// A private directory standing in for `$XDG_STATE_HOME`, where `pairs play` keeps the tokens of the seats
/// it holds: tests never touch the real home's. `remove()` deletes it with what is inside.
final class StateDirectory: Sendable {
    /// The one every child process gets unless a test passes its own (see `Spawn.start`).
    static let shared = StateDirectory(named: "pairs-test-state-\(ProcessInfo.processInfo.processIdentifier)")

    let path: String

    /// A new, empty directory of its own.
    convenience init() {
        self.init(named: "pairs-test-state-\(UUID().uuidString)")
    }

    private init(named name: String) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
    }

    /// The environment that points `pairs play` here.
    var environment: [String: String] { ["XDG_STATE_HOME": path] }

    /// Where `pairs play` keeps its tokens inside.
    var seatsDirectory: String { path + "/pairs" }

    /// The saved-seat files in it.
    var seatFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: seatsDirectory)) ?? []).filter { $0.hasSuffix(".seat") }.sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
