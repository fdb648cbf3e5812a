import PairsRules
import PairsWire

/// A room's rules in words, for the screen's header and for the warning a player gets when the room
/// already existed with other rules than the ones asked for: "room r1 plays other rules: 3-card sets;
/// your --match 2 was ignored".
public enum RuleWords {
    /// One rule the player chose that the room plays otherwise: how the room plays it, and the flag the
    /// player gave, as typed.
    public struct Difference: Sendable, Hashable {
        public var room: String
        public var flag: String
    }

    /// The rules in `asked` that `room` plays otherwise. `room` is nil for a room of the classic game,
    /// which sends no rules: then only what makes another game (seats, set size, deck, scoring, game clock,
    /// peek) can be told apart, and the board size and clocks, which the classic game leaves to each server,
    /// are taken on trust (`AskedRulesCheck` reads what it can of them from the room's states).
    public static func differences(asked: RuleChoices, room: RuleSet?) -> [Difference] {
        differences(asked: asked, variant: room?.variant ?? .classic, pairs: room?.pairs, turnSeconds: room?.turnSeconds,
                    revealMilliseconds: room?.revealMilliseconds, againOnMatch: room?.againOnMatch)
    }

    /// The rules in `asked` that a room of `variant` plays otherwise, of those known (a nil rule is unknown).
    static func differences(asked: RuleChoices, variant: Variant, pairs: Int?, turnSeconds: Int?,
                            revealMilliseconds: Int?, againOnMatch: Bool?) -> [Difference] {
        var found: [Difference] = []
        func check<Value: Equatable>(_ asked: Value?, _ actual: Value?, room: (Value) -> String, flag: (Value) -> String) {
            guard let asked, let actual, asked != actual else { return }
            found.append(Difference(room: room(actual), flag: flag(asked)))
        }
        check(asked.seats, variant.seats, room: seats, flag: { $0 == .one ? "--solo" : "--seats \($0.rawValue)" })
        check(asked.setSize, variant.setSize, room: setSize, flag: { "--match \($0.rawValue)" })
        check(asked.deck, variant.deck, room: deck, flag: { "--deck \($0.wireName)" })
        check(asked.scoring, variant.scoring.kind, room: scoring, flag: { "--scoring \($0.wireName)" })
        if case .matchismo(let costs) = variant.scoring {
            check(asked.flipCost, costs.flipCost, room: { "flips cost \($0)" }, flag: { "--flip-cost \($0)" })
            check(asked.mismatchPenalty, costs.mismatchPenalty, room: { "a mismatch costs \($0) more" },
                  flag: { "--mismatch-penalty \($0)" })
            check(asked.matchBonus, costs.matchBonus, room: { "a match earns \($0) x its value" }, flag: { "--match-bonus \($0)" })
        }
        check(asked.gameSeconds, variant.gameSeconds, room: gameClock, flag: { "--game-seconds \($0)" })
        check(asked.peekMilliseconds, variant.peekMilliseconds, room: peek, flag: { "--peek-ms \($0)" })
        let sets = variant.setSize == .pair ? "pairs" : "triples"
        check(asked.pairs, pairs, room: { "\($0) \(sets)" }, flag: { "--pairs \($0)" })
        check(asked.turnSeconds, turnSeconds, room: { $0 == 0 ? "no turn clock" : "\($0)-second turns" },
              flag: { "--turn-seconds \($0)" })
        check(asked.revealMilliseconds, revealMilliseconds, room: { "a \($0) ms reveal" }, flag: { "--reveal-ms \($0)" })
        check(asked.againOnMatch, againOnMatch, room: { $0 ? "a match moves again" : "a match passes the turn" },
              flag: { "--again-on-match \($0)" })
        return found
    }

    /// The warning for `differences` in room `room`, or nil when there are none.
    public static func warning(room: String, differences: [Difference]) -> String? {
        guard !differences.isEmpty else { return nil }
        let verb = differences.count == 1 ? "was" : "were"
        return "room \(room) plays other rules: \(differences.map(\.room).joined(separator: ", ")); "
            + "your \(differences.map(\.flag).joined(separator: " ")) \(verb) ignored"
    }

    /// What makes `variant` another game than the classic one, in words ("solo, 3-card sets, playing cards,
    /// Matchismo, 1:30 game clock"); empty for the classic game.
    public static func summary(of variant: Variant) -> String {
        let classic = Variant.classic
        var parts: [String] = []
        if variant.seats != classic.seats { parts.append(seats(variant.seats)) }
        if variant.setSize != classic.setSize { parts.append(setSize(variant.setSize)) }
        if variant.deck != classic.deck { parts.append(deck(variant.deck)) }
        if variant.scoring.kind != classic.scoring.kind { parts.append(scoring(variant.scoring.kind)) }
        if variant.gameSeconds != classic.gameSeconds { parts.append(gameClock(variant.gameSeconds)) }
        if variant.peekMilliseconds != classic.peekMilliseconds { parts.append(peek(variant.peekMilliseconds)) }
        return parts.joined(separator: ", ")
    }

    private static func seats(_ seats: SeatCount) -> String { seats == .one ? "solo" : "two players" }
    private static func setSize(_ size: SetSize) -> String { size == .pair ? "pairs" : "3-card sets" }
    private static func deck(_ deck: Deck) -> String { deck == .cards ? "playing cards" : "words" }
    private static func scoring(_ kind: Scoring.Kind) -> String { kind == .matchismo ? "Matchismo" : "classic scoring" }
    private static func gameClock(_ seconds: Int) -> String {
        seconds == 0 ? "no game clock" : "\(Narrator.clock(milliseconds: seconds * 1000)) game clock"
    }
    private static func peek(_ milliseconds: Int) -> String {
        milliseconds == 0 ? "no peek" : "a peek of \(Narrator.duration(milliseconds: milliseconds))"
    }
}
