/// The strategies a bot can be told to use by name (`pairs bot --strategy memory`, `pairs load --strategy
/// random`): PairsClient's `MemoryStrategy` and `RandomStrategy`, and the load client's restatement of them.
public enum StrategyKind: String, Sendable, Hashable, CaseIterable {
    /// Remembers every face and takes every sure set (`TurnPlanner`).
    case memory
    /// Flips at random.
    case random
}
