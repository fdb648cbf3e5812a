import PairsRules
import PairsWire

/// Compares the rules a player (or bot) asked for on the command line with those of the room it sat down
/// in, so that joining a room someone made with other rules says which flags were ignored: "room r1 plays
/// other rules: 8 pairs; your --pairs 2 was ignored".
///
/// A room of another game sends its whole rule set in `joined`, and the check is made there. A room of the
/// classic game sends none, so what `joined` cannot tell is read from the room's first `start` state: the
/// board's size, and the turn clock (a turn that has just started has all of it left). How long a mismatch
/// stays up and whether a match moves again do not show in a state, and are taken on trust.
public struct AskedRulesCheck: Sendable {
    public let asked: RuleChoices
    /// Set between a classic room's `joined` and the state that tells its board.
    private var awaitsStart = false
    /// The room warned about last: a seat taken back after a dropped connection is not news.
    private var warnedRoom: String?

    public init(asked: RuleChoices) {
        self.asked = asked
    }

    /// The warning a seat in the `joined` room deserves, when its message tells enough; nil otherwise.
    public mutating func joined(_ joined: Joined) -> String? {
        awaitsStart = false
        guard joined.seat != nil, !asked.isEmpty, joined.room != warnedRoom else { return nil }
        if let rules = joined.rules {
            return warn(room: joined.room, RuleWords.differences(asked: asked, room: rules))
        }
        // What makes another game is told at once; when that is all alike, the board and clock are told at
        // the start (a second warning about the same room would only repeat the first).
        let warning = warn(room: joined.room, RuleWords.differences(asked: asked, room: nil))
        awaitsStart = warning == nil
        return warning
    }

    /// The warning for a classic room, at its first `start`; nil for any other state.
    public mutating func state(_ message: StateMessage) -> String? {
        guard awaitsStart, message.state.event.kind == .start else { return nil }
        awaitsStart = false
        let state = message.state
        // No turn clock is no `turn_ms_left`.
        let turnSeconds = state.turnMillisecondsLeft.map { ($0 + 999) / 1000 } ?? 0
        let differences = RuleWords.differences(
            asked: asked, variant: .classic, pairs: state.cards.count / Variant.classic.setSize.rawValue,
            turnSeconds: turnSeconds, revealMilliseconds: nil, againOnMatch: nil)
        return warn(room: message.room, differences)
    }

    private mutating func warn(room: String, _ differences: [RuleWords.Difference]) -> String? {
        guard let warning = RuleWords.warning(room: room, differences: differences) else { return nil }
        warnedRoom = room
        return warning
    }
}
