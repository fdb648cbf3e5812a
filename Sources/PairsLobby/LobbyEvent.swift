import PairsRules
import PairsWire

/// What happened in the lobby that the operator's log tells: decided and described here, formatted by the
/// transport (`LogEntry`; `fields` lists what each event carries, in the order the log writes it).
///
/// Names and rooms come from clients: they are kept as they are, and escaped by whoever writes them.
///
/// Inline rather than indirect: `LobbyAction`'s other cases (a finished game, a statistics answer) already
/// make it larger than any event (152 bytes against at most 105 for a `LogEntry`), so events make no action
/// larger, where boxing would cost an allocation per line.
public enum LobbyEvent: Sendable, Hashable {
    /// A connection arrived.
    case connected(ConnectionID, peer: String)
    /// A connection claimed its name, with a password, for the first time.
    case nameClaimed(LoggedConnection)
    /// A connection gave the wrong password for `name`, `inARow` times in a row.
    case wrongPassword(LoggedConnection, name: String, inARow: Int)
    /// Wrong passwords from `address`, or for `name`, passed the free ones: the address's next password
    /// waits `retryAfterMilliseconds`. The operator's cue to look at (or block) the address.
    case passwordGuessing(address: String, name: String, addressFailures: Int, nameFailures: Int, retryAfterMilliseconds: Int64)
    /// A room was made, by a player's join or by quick match.
    case roomOpened(room: String, rules: RuleSet)
    /// The last player and spectator of a room went: the room is gone.
    case roomClosed(room: String)
    /// A player sat down.
    case joined(LoggedConnection, room: String, seat: Seat)
    /// A connection started watching a room.
    case watching(LoggedConnection, room: String)
    /// A player gave up their seat (`leave`), or a spectator stopped watching.
    case left(LoggedConnection, from: LoggedPlace)
    /// A connection went: the transport lost it, or the lobby closed it. A seated player keeps the seat for
    /// the grace period.
    case disconnected(LoggedConnection, from: LoggedPlace, Departure)
    /// A connection that never sent anything went (a browser's spare socket, a port scan): it was no
    /// player, so its end is a detail, without the name the lobby made up for it.
    case silentClosed(ConnectionID, peer: String, Departure)
    /// A player took their seat back with a resume token.
    case resumed(LoggedConnection, room: String, seat: Seat)
    /// A player gave a game up; `connection` is nil when the player was away (the grace period ran out).
    case forfeited(room: String, game: Int, seat: Seat, player: String, ForfeitReason, connection: LoggedConnection?)
    /// A game ended.
    case gameOver(GameOverLog)
    /// A tournament was made, started, ran out of time, finished or was forgotten (`gone`): the operator's
    /// view of what a server's tournaments are doing, a line per change of status.
    case tournament(name: String, status: String, entrants: Int)

    /// Whether the event happens once per game rather than once per connection: under load, these are
    /// what a summary line replaces (per-connection events are bounded by how fast clients connect).
    public var isPerGame: Bool {
        switch self {
        case .forfeited, .gameOver: true
        default: false
        }
    }
}
