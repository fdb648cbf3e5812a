import PairsRules
import PairsTournament
import PairsWire

/// How many tournaments a server holds and how it paces them. The limits bound what one client can make
/// the server keep: each tournament holds up to `TournamentLimits.maxEntrants` players (1024) and a room
/// per game in progress (512), so a few of them weigh as much as thousands of rooms.
public struct TournamentHosting: Sendable, Hashable {
    /// Tournaments the server holds at once, finished ones it still keeps included: 64, room for every
    /// LAN party and bot arena a server plays at once, where 64 full arenas are 65,536 players.
    public var maxTournaments = 64
    /// Unfinished tournaments made from one address (the client's IP, as `RoomLimits` counts): 4, so that
    /// one client cannot fill the server's `maxTournaments`, and a host can still run a Swiss and an arena.
    public var maxUnfinishedPerAddress = 4
    /// How long a finished tournament stays, for its final standings to be watched and listed, in
    /// milliseconds: an hour, a LAN party's prize-giving; then it is forgotten (the store keeps games).
    public var keepFinishedMilliseconds: Int64 = 3_600_000
    /// How long both players of a game have to be seated once it is made, in milliseconds: 60 s, the
    /// protocol's (and the default grace period's); whoever is not seated by then forfeits.
    public var startGraceMilliseconds: Int64 = 60_000
    /// How long an arena waits once a player is free before it pairs every free player, in milliseconds:
    /// a second, so players freed at about the same moment meet the nearest score among them.
    public var pairingDelayMilliseconds: Int64 = 1_000
    /// The pause between a Swiss round's last game and the next round, in milliseconds: 10 s, the
    /// protocol's, time to read the standings. Tests make it shorter.
    public var roundBreakMilliseconds: Int64 = 10_000
    /// The least time between two `tournament` pushes of a tournament's changes, in milliseconds: a second,
    /// as live as an arena's pairing delay, where pushing every game end of a 1,000-bot arena sent each bot
    /// the whole standings dozens of times a second. A change of status (start, finishing, finished) goes
    /// out at once.
    public static let pushIntervalMilliseconds: Int64 = 1_000
    /// The rating an entrant without one counts at (an unclaimed or unrated name, or any name on a server
    /// that keeps nothing): Glicko-2's starting rating, as a newcomer's on the ladders.
    public var rating = 1500

    public init() {}

    /// The director's configuration for `creation`, with rules already checked.
    func configuration(for creation: TournamentCreation, rules: RuleSet) -> TournamentConfiguration {
        let format: TournamentFormat = switch creation.length {
        case .rounds(let rounds): .swiss(rounds: rounds)
        case .milliseconds(let milliseconds): .arena(durationMilliseconds: milliseconds)
        }
        let start: StartCondition = switch creation.start {
        case .manual: .manual
        case .players(let count): .players(count)
        }
        return TournamentConfiguration(name: creation.name, format: format, rules: rules, start: start,
                                       claimedOnly: creation.claimedOnly, maxEntrants: TournamentLimits.maxEntrants,
                                       startGraceMilliseconds: startGraceMilliseconds,
                                       pairingDelayMilliseconds: pairingDelayMilliseconds,
                                       roundBreakMilliseconds: roundBreakMilliseconds)
    }
}
