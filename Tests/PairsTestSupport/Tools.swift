import Foundation
import Testing

/// Finds the programs the end-to-end tests run: the `pairs` binary this build produced, and the
/// external tools (nc, python3, tmux, node, chromium) that CI installs.
public enum Tools {
    /// The environment variable under which a missing external tool fails its tests instead of skipping
    /// them. `.ci/run` sets it, so CI runs every test it installed the tools for.
    public static let requireToolsVariable = "PAIRS_REQUIRE_TOOLS"

    /// A program the tests need is missing: the test fails with this message rather than passing silently.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The `pairs` executable from the same build as these tests.
    ///
    /// `swift test` runs the tests from `<build>/<configuration>/` (as `PairsPackageTests.xctest`), where
    /// the executable product sits too, whether the build directory is `.build` or a `--scratch-path`.
    /// The search walks up from the test binary and from the bundle, and `PAIRS_BINARY` overrides it.
    public static func pairs() throws -> URL {
        let files = FileManager.default
        if let override = ProcessInfo.processInfo.environment["PAIRS_BINARY"] {
            guard files.isExecutableFile(atPath: override) else { throw Missing(description: "PAIRS_BINARY=\(override) is not an executable") }
            return URL(fileURLWithPath: override)
        }
        let starts = [URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath(), Bundle.main.bundleURL]
        for start in starts {
            var directory = start
            // A few levels cover a test bundle inside the build directory on every platform.
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("pairs")
                var isDirectory: ObjCBool = false
                if files.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   files.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                directory.deleteLastPathComponent()
            }
        }
        throw Missing(description: "cannot find the pairs executable near \(starts.map(\.path)); build it first (swift build) or set PAIRS_BINARY")
    }

    /// The full path of `name` on PATH, or a failure naming what to install.
    public static func external(_ name: String) throws -> URL {
        guard let url = installed(name) else {
            throw Missing(description: "\(name) is not installed (not on PATH); this test needs it (.ci/run installs it)")
        }
        return url
    }

    /// Skips a test that runs `names` (tools the Swift toolchain does not ship) on a machine without them,
    /// saying which are missing; with `PAIRS_REQUIRE_TOOLS=1` the test runs anyway, and fails on the
    /// first missing tool it looks up with `external`. The README promises that `swift test` passes on a
    /// machine with only the toolchain, and CI must not pass by skipping.
    /// `pythonModules` are modules python3 must import (such as selenium), looked for only when asked.
    public static func needs(_ names: String..., pythonModules: [String] = []) -> ConditionTrait {
        let missing = names.filter { installed($0) == nil } + pythonModules.filter { !pythonImports($0) }.map { "python's \($0)" }
        let verb = missing.count == 1 ? "is" : "are"
        return .enabled(if: missing.isEmpty || isRequiringTools,
                        Comment(rawValue: "\(missing.joined(separator: " and ")) \(verb) not installed (.ci/run installs it)"))
    }

    /// Whether python3 is installed and can import `module`.
    private static func pythonImports(_ module: String) -> Bool {
        guard let python = installed("python3") else { return false }
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", "import \(module)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Whether `PAIRS_REQUIRE_TOOLS=1` asks for a missing tool to fail the test rather than skip it.
    public static var isRequiringTools: Bool {
        ProcessInfo.processInfo.environment[requireToolsVariable] == "1"
    }

    /// The executable called `name` in a directory on PATH, if there is one.
    private static func installed(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
