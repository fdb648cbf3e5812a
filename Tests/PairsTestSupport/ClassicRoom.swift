import PairsRules
import PairsWire

// What the server writes for a room of the classic game, which most tests play: shorthands that leave out
// the rules where a test has no variant in mind.

extension StateEvent {
    /// The event as this server writes it in a room of the classic game.
    public init(_ event: GameEvent) {
        self.init(event, rules: .standard)
    }
}

extension StateMessage {
    /// The message of a state the rules made in a room of the classic game.
    public init(room: String, spectators: Int, state: PublicState, id: RequestID? = nil) {
        self.init(room: room, spectators: spectators, state: state, rules: .standard, id: id)
    }
}

extension ServerMessageEncoder {
    /// The states of one change in a room of the classic game.
    public static func encode(states: [PublicState], room: String, spectators: Int, id: RequestID?) -> [UInt8] {
        encode(states: states, room: room, spectators: spectators, rules: .standard, id: id)
    }
}
