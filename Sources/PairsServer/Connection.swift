#if canImport(Glibc)
import Glibc
#endif
import PairsLobby
import PairsPolling
import PairsRules
import PairsWeb
import PairsWire

/// One client socket as the transport holds it: its buffers, its framing (lines, WebSocket, or not decided
/// yet), and where it is in its life.
///
/// Confined to the server's queue, which is what makes `@unchecked Sendable` true. It moves bytes and
/// knows nothing of rooms: what a message means is the lobby's to decide.
final class Connection: @unchecked Sendable {
    /// Where a connection is in its life. Each state says what its socket is still good for.
    enum Lifecycle {
        /// Reading requests and writing whatever the lobby sends.
        case open
        /// A write failed: the peer is gone, but what it sent before going is still read and handed to the
        /// lobby (a `leave` followed by a reset must not be lost). Nothing more is written.
        case failing
        /// Saying goodbye: `bye` is queued, behind what was already queued when the reason lets that go
        /// first; once the output is out, the write side is shut. Input is read and thrown away. Closed
        /// at `deadline` whatever is left.
        case flushing(deadline: Moment)
        /// The write side is shut and the goodbye sent: input is read and thrown away until the peer closes
        /// or `deadline` passes. Closing with unread input makes the kernel send a reset, which can destroy
        /// the `bye` before the client reads it; draining first lets it arrive.
        case lingering(deadline: Moment)
        /// The socket is closed.
        case closed
    }

    /// Bytes written per writable event at most, so one client with a deep backlog cannot keep the
    /// queue from every other connection for long.
    static let maxWriteBytesPerEvent = 64 * 1024

    let id: ConnectionID
    /// The socket, and the epoll set it is watched in.
    private var socket: WatchedSocket
    var lifecycle = Lifecycle.open
    /// How the connection's bytes are read. Set with `adopt` when it changes kind, which sets `dialect` too.
    var framing: Framing
    /// What the connection speaks, for writing to it. Kept apart from `framing`, which is being worked on
    /// while a read's messages are handled, and answered.
    private(set) var dialect: Dialect
    /// What waits to go out: bytes the socket has not taken yet, and output held back.
    var outbox = Outbox()
    /// Whether the connection is on its way to another loop, and the input that waits for it there.
    var transit = Transit()

    /// What waits to go out to the client, in order: first what is queued for the socket, then what is held.
    struct Outbox {
        /// Bytes written to the connection that its socket has not taken yet.
        var queued = OutputQueue()
        /// Output not yet queued: held until the store settles a game, or until `stats` answers gathered
        /// from every loop come.
        var held = Holding()
    }

    /// Output held back, in order, while a game's end waits for the store or a `stats` answer for the loops.
    struct Holding {
        /// The store's ticket whose settling lets the output go: the last state of a game that ended, and
        /// everything after it, so that no client sees a game end before it is kept (`LobbyAction.record`).
        var untilTicket: UInt64?
        /// When the output began to be held for the store, for `StoreGateway.maxHoldMilliseconds`.
        var since = Moment(milliseconds: 0)
        /// The bytes held, with how many messages each holds, in order; a `stats` answer still awaited keeps
        /// its place as an empty entry of -1 messages.
        private(set) var lines: [(bytes: [UInt8], messages: Int)] = []
        /// `stats` answers awaited from the loops (`LoopGroup.gatherStatistics`), so replies keep the order
        /// of the requests.
        private var statisticsAwaited = 0

        /// Whether output is held: what is sent now must wait behind it.
        var isHolding: Bool { untilTicket != nil || statisticsAwaited > 0 }

        /// Holds `bytes` behind what is held.
        mutating func append(_ bytes: [UInt8], messages: Int) {
            lines.append((bytes, messages))
        }

        /// Keeps the place of a `stats` answer being gathered from every loop.
        mutating func awaitStatistics() {
            statisticsAwaited += 1
            lines.append((bytes: [], messages: -1))
        }

        /// Puts a gathered `stats` answer in the place of the oldest awaited; false if none was awaited.
        mutating func fillStatistics(_ bytes: [UInt8]) -> Bool {
            guard statisticsAwaited > 0, let place = lines.firstIndex(where: { $0.messages < 0 }) else { return false }
            lines[place] = (bytes, 1)
            statisticsAwaited -= 1
            return true
        }

        /// The store settled the game held for (or the hold ended): what is held, to send now, unless a
        /// `stats` answer is still awaited, which keeps holding everything behind it.
        mutating func releaseStore() -> [(bytes: [UInt8], messages: Int)] {
            untilTicket = nil
            guard statisticsAwaited == 0 else { return [] }
            defer { lines = [] }
            return lines
        }

        /// Drops everything held: a goodbye that discards queued output.
        mutating func discard() {
            untilTicket = nil
            statisticsAwaited = 0
            lines = []
        }
    }

    /// A connection between loops.
    struct Transit {
        /// The lobby handed the connection to another loop's: what it sends now waits in `unread`, in
        /// order, for the lobby there.
        var isMoving = false
        /// Input read but not handled here, because the connection is moving; handled where it arrives.
        var unread: [UnreadInput] = []
    }

    /// One input of the framing, owning its bytes, kept for the loop a connection moves to.
    enum UnreadInput {
        case message([UInt8])
        case tooLong
        case ping([UInt8])
        case frame
        case close(WebSocketCloseCode?)
        case failure(WebSocketFrameError)

        init(_ input: Framing.Input) {
            switch input {
            case .message(let bytes): self = .message(Array(bytes))
            case .tooLong: self = .tooLong
            case .ping(let bytes): self = .ping(Array(bytes))
            case .frame: self = .frame
            case .close(let code): self = .close(code)
            case .failure(let error): self = .failure(error)
            }
        }
    }

    /// A socket, the epoll set it is in, and what it is watched for there.
    private struct WatchedSocket {
        let fd: Int32
        /// The loop's epoll set, once the connection is in it.
        var poller: EventPoller?
        /// What the epoll set watches the socket for. Room to write is watched only while output is queued,
        /// since an empty socket buffer is writable nearly always and would be reported in every batch.
        var interest: UInt32 = 0
    }

    init(id: ConnectionID, fd: Int32, framing: Framing) {
        self.id = id
        socket = WatchedSocket(fd: fd)
        self.framing = framing
        dialect = framing.dialect
    }

    /// Reads the connection's bytes with `framing` from now on, and writes to it as that framing speaks.
    func adopt(_ framing: Framing) {
        self.framing = framing
        dialect = framing.dialect
    }

    var fd: Int32 { socket.fd }

    var isOpen: Bool {
        if case .open = lifecycle { true } else { false }
    }

    /// Whether the connection is open and its first bytes have not yet said which framing it uses.
    var isAwaitingFirstBytes: Bool {
        isOpen && dialect == .undecided
    }

    /// What the server's epoll set reports the socket by: its slot, which finds it in the server's table
    /// of connections without hashing.
    var token: UInt64 { UInt64(id.slot) }

    /// Puts the socket in the server's epoll set, which reports it by `token`.
    func watch(with poller: EventPoller) -> Bool {
        socket.poller = poller
        socket.interest = EventPoller.readable
        return poller.add(fd, token: token, interest: socket.interest)
    }

    /// Takes the socket out of the epoll set it is in and puts it in `poller`'s, watched for what it was:
    /// the connection moves to another loop.
    func move(to poller: EventPoller) -> Bool {
        socket.poller?.remove(fd)
        socket.poller = poller
        return poller.add(fd, token: token, interest: socket.interest)
    }

    /// Reads what the socket has, up to the buffer's size.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> SocketInput {
        SocketInput.read(from: fd, into: buffer)
    }

    /// Sends `bytes` now if the socket takes them, queues what it does not, and watches for room to write.
    /// The array is queued by reference, so a broadcast costs no copy per recipient.
    func write(_ bytes: [UInt8], limit: Int) -> OutputQueue.WriteOutcome {
        let outcome = outbox.queued.write(bytes, to: fd, limit: limit)
        if !outbox.queued.isEmpty { watch(writable: true) }
        return outcome
    }

    /// Sends queued bytes, at most `maxWriteBytesPerEvent`. Returns false when the socket is broken.
    func flush() -> Bool {
        guard outbox.queued.flush(to: fd, maxBytes: Self.maxWriteBytesPerEvent) else { return false }
        watch(writable: !outbox.queued.isEmpty)
        return true
    }

    /// Stops watching for input: the peer has closed its side, and an end of stream stays readable, so
    /// watching on would report it in every batch.
    func stopReading() {
        setInterest(socket.interest & ~EventPoller.readable)
    }

    /// Whether the socket is still watched for input.
    var isReading: Bool { socket.interest & EventPoller.readable != 0 }

    /// Shuts the write side: the peer reads the end of the stream after everything sent.
    func shutdownWriting() {
        Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// Takes the socket out of the epoll set and closes it.
    func closeSocket() {
        if case .closed = lifecycle { return }
        lifecycle = .closed
        outbox.queued.discardUnsent()
        socket.poller?.remove(fd)
        Glibc.close(fd)
    }

    private func watch(writable: Bool) {
        setInterest(writable ? socket.interest | EventPoller.writable : socket.interest & ~EventPoller.writable)
    }

    private func setInterest(_ wanted: UInt32) {
        guard wanted != socket.interest, let poller = socket.poller else { return }
        socket.interest = wanted
        _ = poller.modify(fd, token: token, interest: wanted)
    }
}
