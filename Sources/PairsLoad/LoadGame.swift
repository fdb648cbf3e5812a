import PairsBots
import PairsRules
import PairsWire

/// One game of a load run: the room, which connection holds which seat, the latest state, the bots'
/// memory, and the one flip in flight. Used only on the runner's queue; the runner drives it.
///
/// Both seats (or the one of a solo game) are played from here, by the same strategy: each bot would
/// remember exactly the same faces (both see every state), so one memory serves both.
final class LoadGame {
    enum Status {
        /// Connecting and joining; no game has started yet.
        case joining
        /// Playing, or between two games of a series.
        case playing
        /// A game ended and no other was wanted (the run's `--games` are all started elsewhere).
        case idle
        /// A connection dropped or could not join: the game is over for this run.
        case abandoned
    }

    /// A flip decided on, sent or about to be.
    struct Flip {
        /// The request id, 0 until it is first sent (a resend after `rate_limited` keeps the id).
        var id: Int64
        var seat: Seat
        var card: Int
        /// When the flip was meant to leave (MonotonicClock): the state's arrival plus the think time. Latency is
        /// counted from here, not from when it actually left, so a load client that falls behind shows up
        /// as latency instead of hiding it (coordinated omission).
        var intended: UInt64
    }

    /// What a request id stands for, in its two low bits, so an error's id says what was refused.
    enum RequestKind: Int64 {
        case flip = 0, join = 1, rematch = 2, leave = 3
    }

    let index: Int
    /// Its connections, by runner index: one per seat of its rules.
    let connections: [Int]
    var status = Status.joining
    /// The connection (by runner index) in each seat, once `joined` said so; -1 for none (not yet, or a
    /// seat a solo room does not have).
    var seatConnections = [-1, -1]
    /// The latest state of the room, as seat 0's connection read it.
    var state = ScannedState()
    /// Both players' memory and choices.
    var bot: LoadBot
    var generator: SplitMix64
    /// The flip sent and not yet answered by a state carrying its id.
    var outstanding: Flip?
    /// The flip waiting for its moment (think time, pacing, or a resend after `rate_limited`).
    var planned: Flip?
    /// Bumped whenever plans change, so timers set for older plans do nothing.
    var generation: UInt32 = 0
    /// The last game number whose end was counted.
    var finishedGame = 0
    /// In a tournament: when the session became free (joined the tournament, or saw its game end), until its
    /// next `joined`; nil while seated.
    var freeSince: UInt64?
    /// Whether this game counts against `--games` now (a game started or about to start here).
    var holdsReservation = false
    private var requestCounter: Int64 = 0

    init(index: Int, connections: [Int], strategy: StrategyKind, seed: UInt64) {
        self.index = index
        self.connections = connections
        bot = LoadBot(strategy: strategy)
        generator = SplitMix64(seed: seed)
    }

    /// A new request id of `kind`.
    func newID(_ kind: RequestKind) -> Int64 {
        requestCounter += 1
        return requestCounter << 2 | kind.rawValue
    }

    static func kind(of id: Int64) -> RequestKind {
        RequestKind(rawValue: id & 3)!
    }

    /// Whether a game has started here and not been counted as finished.
    var isInProgress: Bool {
        status == .playing && state.game > finishedGame
    }

    /// Takes in the state just scanned: remembers the faces it shows.
    func observe() {
        bot.observe(state)
    }

    /// The card the strategy flips now, for whichever seat is on turn; `faces` is the table of the
    /// scanner that read the state.
    func chooseCard(faces: @autoclosure () -> FaceTable) -> Int? {
        bot.chooseCard(in: state, table: faces(), using: &generator)
    }
}
