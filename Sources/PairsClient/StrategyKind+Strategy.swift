import PairsBots

extension StrategyKind {
    /// A strategy of this kind.
    public func makeStrategy() -> any Strategy {
        switch self {
        case .memory: MemoryStrategy()
        case .random: RandomStrategy()
        }
    }
}
