import Dispatch
import PairsLobby
import PairsPolling
import PairsRules
import PairsWire

/// The server's event loops and what they share: the table of connections (ids, and which loop holds
/// each), how newcomers are dealt to loops, and the gathering of every loop's counters for `stats`.
///
/// Each loop owns its own queue, epoll set, read buffer, timer and lobby shard; nothing here is touched per
/// message or per flip. Loop 0 holds the listening socket and deals each newcomer to a loop before anything
/// reads it (`ConnectionLoop.acceptConnections`): the connection is in no epoll set until it reaches its
/// loop's queue, so no byte of it is read anywhere else.
final class LoopGroup: @unchecked Sendable {
    /// The loops, by number; set once in `init`, read only after.
    private(set) var loops: [ConnectionLoop] = []
    let connections = SharedConnections()
    /// The addresses that loaded the client page lately, for every loop's web front.
    let pageVisitors = PthreadLocked(PageVisitors())
    /// Connections dealt to a loop and not yet read there, by address: a silent socket of that address is
    /// not greeted meanwhile (a browser's request may be on one of them), so another loop's delay never
    /// counts as the client's silence (`WebFront.endWelcomeWaits`).
    let dealtUnread = PthreadLocked<[String: Int]>([:])
    /// Which loop takes each newcomer; used on loop 0's queue only, where accepting happens.
    private var dealer: Dealer
    /// Where the counters of every loop are gathered, off the loops, so that no loop waits for another.
    private let gathering = DispatchQueue(label: "pairs.statistics")
    /// Every loop's clock: the system's, or a test's manual one.
    let clock: any TransportClock
    let log: ServerLog

    init(count: Int, clock: any TransportClock, log: ServerLog, dealing: (@Sendable (_ n: Int, _ loops: Int) -> Int)?,
         makeLoop: (_ index: Int, _ group: LoopGroup) -> ConnectionLoop) {
        self.clock = clock
        self.log = log
        dealer = Dealer(choosing: dealing ?? { n, loops in n % loops })
        loops = (0..<count).map { makeLoop($0, self) }
    }

    var count: Int { loops.count }

    /// The loop the next newcomer goes to. On loop 0's queue.
    func dealNext() -> Int {
        dealer.next(of: loops.count)
    }

    /// Deals a connection loop 0 accepted to loop `loop`, which takes it in with `id`: until it reads it, a
    /// silent socket of the same address is not greeted anywhere (`dealtUnread`).
    func deal(_ fd: Int32, address: SocketAddress, to loop: Int, id: ConnectionID) {
        dealtUnread.withLock { $0[address.host, default: 0] += 1 }
        loops[loop].enqueue(.connectionArriving(fd: fd, address: address, id: id))
    }

    /// A dealt connection of `host` has been read on its loop.
    func dealtConnectionRead(from host: String) {
        dealtUnread.withLock { unread in
            if let count = unread[host], count > 1 { unread[host] = count - 1 } else { unread[host] = nil }
        }
    }

    /// Gives `input` to the loop holding connection `id` now, unless that is `current` or it is closed:
    /// an answer for a connection that moved on follows it.
    func forward(_ input: LoopInput, to id: ConnectionID, from current: Int) {
        guard let holder = connections.loop(holding: id), holder != current, holder >= 0 else { return }
        loops[holder].enqueue(input)
    }

    // MARK: Counters

    /// Every loop's counters as one, read on each loop's queue in turn. Not on any loop's queue.
    func statistics() -> ServerStatistics {
        for loop in loops { dispatchPrecondition(condition: .notOnQueue(loop.queue)) }
        return LoopSnapshot.combined(loops.map { loop in loop.queue.sync { loop.snapshot(at: clock.now()) } }, store: loops[0].gateway?.store)
    }

    /// Gathers every loop's counters off the loops, then gives them to `done` (on the gathering queue).
    func gatherStatistics(then done: @escaping @Sendable (ServerStatistics) -> Void) {
        gathering.async { [self] in done(statistics()) }
    }
}

/// Which loop takes each connection accepted: round robin, or a test's choice (tests pin connections to
/// loops with it, to force the cross-loop cases).
struct Dealer {
    /// The loop that takes the `n`th connection accepted (from 0) of `loops`.
    let choosing: @Sendable (_ n: Int, _ loops: Int) -> Int
    /// Connections accepted so far.
    private var accepted = 0

    init(choosing: @escaping @Sendable (_ n: Int, _ loops: Int) -> Int) {
        self.choosing = choosing
    }

    /// The loop the next newcomer goes to, of `loops`; a choice out of range is taken as the nearest loop.
    mutating func next(of loops: Int) -> Int {
        defer { accepted += 1 }
        return min(max(choosing(accepted, loops), 0), loops - 1)
    }
}
