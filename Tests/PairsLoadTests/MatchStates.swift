import PairsRules
import PairsTestSupport
import PairsWire

/// States of seeded matches (see `seededMatchRounds`) as the server would send them, with and without
/// request ids, one room a match. One player's name must be escaped by a JSON writer and is outside
/// ASCII, so the scanner steps over both.
func matchStates(minimumStates: Int, seed: UInt64) throws -> [StateMessage] {
    let rounds = try seededMatchRounds(minimumStates: minimumStates, seed: seed, names: ("Zoë \"the\" first", "P2"),
                                       variants: everyVariantForTests)
    return rounds.enumerated().flatMap { round, played in
        played.states.map {
            StateMessage(room: "room-\(round)", spectators: $0.seq % 3, state: $0, rules: played.rules, id: requestID($0.seq))
        }
    }
}

/// None, a number (sometimes negative or huge) or a string, in turn.
private func requestID(_ seq: Int) -> RequestID? {
    switch seq % 5 {
    case 0: nil
    case 1: .integer(Int64(seq))
    case 2: .integer(seq % 2 == 0 ? Int64.max - Int64(seq) : Int64.min + Int64(seq))
    case 3: .string("m\(seq)")
    default: .integer(-Int64(seq))
    }
}

/// Collected once: the games are deterministic, and several tests read them. 2,500 states under
/// `PAIRS_TEST_DEPTH=deep`, 1,800 by default: enough rounds for every variant to take its turn, so still
/// every event kind, card side, phase and field the variants add, which `statesCoverEveryShape` and
/// `statesCoverTheVariants` check.
let playedStates: [StateMessage] = try! matchStates(minimumStates: TestDepth.pick(quick: 1800, deep: 2500), seed: 2026)
