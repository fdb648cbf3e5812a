import PairsRules
import PairsWire

/// Flips a random face-down card, remembering nothing: an easy opponent, and a baseline for the others.
public struct RandomStrategy: Strategy {
    public init() {}

    public func chooseCard<Generator: RandomNumberGenerator>(
        in state: WireState, rules: RuleSet?, memory: GameMemory, using generator: inout Generator
    ) -> Int? {
        state.faceDownCards.randomElement(using: &generator)
    }
}
