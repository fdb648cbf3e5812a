import PairsBots
import PairsRules
import PairsWire

/// Plays as a player with perfect recall, under any rules: takes the best set it knows, and otherwise
/// explores (`TurnPlanner` says how, and when a sure set is worth less than exploring).
///
/// Unseen cards are picked at random so two memory bots do not explore the board in lockstep.
public struct MemoryStrategy: Strategy {
    public init() {}

    public func chooseCard<Generator: RandomNumberGenerator>(
        in state: WireState, rules: RuleSet?, memory: GameMemory, using generator: inout Generator
    ) -> Int? {
        TurnPlanner(rules: rules).chooseCard(on: memory.knowledge(of: state), using: &generator)
    }
}
