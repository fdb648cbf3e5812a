import Foundation

/// A private directory standing in for `$XDG_STATE_HOME`, where `pairs play` keeps the tokens of the seats
/// it holds: tests never touch the real home's. `remove()` deletes it with what is inside.
public final class StateDirectory: Sendable {
    /// The one every child process gets unless a test passes its own (see `Spawn.start`).
    public static let shared = StateDirectory(named: "pairs-test-state-\(ProcessInfo.processInfo.processIdentifier)")

    public let path: String

    /// A new, empty directory of its own.
    public convenience init() {
        self.init(named: "pairs-test-state-\(UUID().uuidString)")
    }

    private init(named name: String) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
    }

    /// The environment that points `pairs play` here.
    public var environment: [String: String] { ["XDG_STATE_HOME": path] }

    /// Where `pairs play` keeps its tokens inside.
    public var seatsDirectory: String { path + "/pairs" }

    /// The saved-seat files in it.
    public var seatFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: seatsDirectory)) ?? []).filter { $0.hasSuffix(".seat") }.sorted()
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
