import Foundation

/// How many cases the randomized and exhaustive tests run: their seeded games, random inputs and products of
/// extremes. Like proptest's `PROPTEST_CASES` or Hypothesis's profiles, one variable sets it for them all.
///
/// `quick`, the default, is what the README's `swift test` runs: enough cases that every variant, event kind,
/// phase and branch the test is about still comes up (each such test asserts that its cases cover them, at
/// either depth), in a fraction of the time. `deep` runs the full counts; `.ci/run` runs those suites again
/// with `PAIRS_TEST_DEPTH=deep` after the README's command. Either way, every check the test makes is made on
/// every case it runs.
public enum TestDepth: Sendable, Equatable {
    case quick
    case deep

    /// The environment variable that chooses the depth: unset or `quick`, or `deep`.
    public static let variable = "PAIRS_TEST_DEPTH"

    /// The depth this run asked for. A value that is neither `quick` nor `deep` runs deep, and says so on
    /// standard error: a misspelt request for depth must not pass quietly at the shallow one.
    public static let current: TestDepth = {
        switch ProcessInfo.processInfo.environment[variable] {
        case nil, "", "quick":
            return .quick
        case "deep":
            return .deep
        case let other?:
            FileHandle.standardError.write(Data("\(variable)=\(other) is neither quick nor deep: running deep\n".utf8))
            return .deep
        }
    }()

    /// `quick` at the default depth, `deep` when the run asked for depth.
    public static func pick<Value>(quick: Value, deep: Value) -> Value {
        current == .deep ? deep : quick
    }

    /// Every element of `all` at the deep depth; at the quick one, every `stride`-th, starting with the first.
    /// A stride with no factor in common with the sizes of the dimensions a product of cases was built from
    /// still reaches every value of each dimension; the test says which values it must reach and checks it.
    public static func sample<Cases: Collection>(_ all: Cases, quickStride stride: Int) -> [Cases.Element] {
        guard current == .quick, stride > 1 else { return Array(all) }
        return all.enumerated().compactMap { $0.offset % stride == 0 ? $0.element : nil }
    }
}
