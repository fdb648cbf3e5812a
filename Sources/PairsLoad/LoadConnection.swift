import PairsPolling
import PairsRules
import PairsWeb
import PairsWire

/// One of the connections of a load game (two, or one in a solo game): its socket, its framing, what it
/// has not managed to send yet, and its pacing. Used only on the runner's queue.
final class LoadConnection {
    enum Status {
        /// Not opened yet (waiting for a slot among the connects in flight).
        case idle
        /// `connect` sent; waiting for the socket to become writable.
        case connecting
        /// Connected, and the WebSocket handshake sent: waiting for its 101.
        case upgrading
        /// Connected: joining or playing.
        case open
        /// `leave` sent; waiting for `left`, then closing.
        case leaving
        case closed
    }

    /// The connection's number in the runner, and its epoll token.
    let index: Int
    /// The game it plays in.
    let game: Int
    /// The other connection of the game; nil in a solo game.
    let partner: Int?

    var fd: Int32 = -1
    var status = Status.idle
    /// The seat `joined` gave it.
    var seat: Seat?
    /// The `bye` reason the server gave, to report when the socket then closes.
    var byeReason: ByeReason?
    /// How the server's bytes become messages: lines, or a WebSocket's handshake and then its frames.
    var framing = LoadFraming.lines(LineFramer())
    /// Bytes the socket did not take yet; sent when it is writable again.
    var output = OutputQueue()
    /// Whether the poller reports writability (only while `output` is not empty).
    var watchingWrites = false

    /// The earliest moment (MonotonicClock) the next request may go by `--rate`. Waiting for it is the bot's
    /// own choice, like thinking: a flip's latency is counted from the end of this wait.
    var nextPacedSend: UInt64 = 0
    /// Nanoseconds between requests by `--rate`; 0 for no pacing.
    let interval: UInt64
    /// The earliest moment the next request may go after the server refused one with `rate_limited`.
    /// Waiting for it is the server's doing, so it counts in the latency of the flip that waits.
    var nextAllowedSend: UInt64 = 0
    /// The wait between requests while the server has been refusing them; doubles with every refusal and
    /// decays back to nothing as requests go through, so a refused connection slows down instead of
    /// flooding (a server cuts off clients that keep sending past its limit).
    var backoff: UInt64 = 0
    /// Ids of the join and leave sent, to recognise their errors.
    var joinID: Int64 = 0
    var leaveID: Int64 = 0
    /// The instance a `redirect` sent this connection to; nil for the run's server.
    var redirectedTo: SocketAddress?
    /// Redirects followed; bounded by `LoadConnection.maxRedirects`.
    var redirects = 0
    /// Redirects one join follows at most: instances that disagree about an owner must not bounce it forever.
    static let maxRedirects = 4

    init(index: Int, game: Int, partner: Int?, interval: UInt64) {
        self.index = index
        self.game = game
        self.partner = partner
        self.interval = interval
    }

    /// After `rate_limited`: the wait before resending, doubled from the last one.
    func backOff(now: UInt64) -> UInt64 {
        let first = LoadConfiguration.firstBackoffMilliseconds * MonotonicClock.nanosecondsPerMillisecond
        let most = LoadConfiguration.maxBackoffMilliseconds * MonotonicClock.nanosecondsPerMillisecond
        backoff = backoff == 0 ? first : min(backoff * 2, most)
        nextAllowedSend = max(nextAllowedSend, now + backoff)
        return backoff
    }

    /// After a request went out at `now`: when the next may go.
    func sent(at now: UInt64) {
        nextPacedSend = now + interval
        guard backoff > 0 else { return }
        nextAllowedSend = now + backoff
        backoff -= backoff / Self.backoffDecayDivisor
        if backoff < MonotonicClock.nanosecondsPerMillisecond { backoff = 0 }
    }

    /// Each request that goes through takes this fraction (1/8) off the backoff: after a refusal at a wait
    /// of W, the connection sends a dozen requests before it is back to W/4.
    static let backoffDecayDivisor: UInt64 = 8
}

/// How a load connection reads what the server sends.
enum LoadFraming {
    /// One message per line.
    case lines(LineFramer)
    /// The WebSocket handshake is sent and its 101 awaited.
    case handshake(WebSocketClientHandshake)
    /// One message per text frame.
    case webSocket(WebSocketFrameDecoder)
}
