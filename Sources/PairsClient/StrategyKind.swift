/// The strategies a bot can be told to use by name (`pairs bot --strategy memory`).
public enum StrategyKind: String, Sendable, Hashable, CaseIterable {
    /// `MemoryStrategy`: remembers every face and takes every known pair.
    case memory
    /// `RandomStrategy`: flips at random.
    case random

    /// A strategy of this kind.
    public func makeStrategy() -> any Strategy {
        switch self {
        case .memory: MemoryStrategy()
        case .random: RandomStrategy()
        }
    }
}
