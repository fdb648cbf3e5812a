#if canImport(Glibc)
import Glibc
#endif
import PairsPolling
import PairsRules
import PairsWire

/// The listening socket: accepts connections and deals them to a loop, or turns them away with
/// `bye {reason: "server_full"}` when the server holds all it may (or the process is out of descriptors).
///
/// Confined to the queue of loop 0, whose epoll set reports it; with several loops, `admit` deals each
/// newcomer to a loop (`LoopGroup`).
final class Listener {
    /// Connections accepted each time a harvest reports the listening socket. It is harvested with the
    /// clients' sockets, so under load it gets its turn in every batch, whatever Dispatch's scheduling (a
    /// Dispatch source of its own was served about once a second on a busy server). 256: a crowd arriving
    /// at once is welcomed within a few batches, while accepting, about 10 µs a connection, never takes more
    /// than a batch's share of the queue from the games already running.
    static let maxAcceptsPerEvent = 256
    /// Connections the kernel queues for `accept` while the server is busy: enough for a load test's whole
    /// crowd connecting at once, so none waits for a SYN retry. (The kernel caps it at `somaxconn`.)
    static let backlog: Int32 = 4096
    /// What the epoll set reports the listening socket by: above every connection's slot.
    static let token = UInt64.max
    /// Descriptors kept back from `--max-connections`' default: stdio, the listening socket, the spare
    /// descriptor, the epoll set and Dispatch's own.
    static let reservedDescriptors = 16
    /// Reads of what a refused client (server full) already sent before its socket is closed: enough for
    /// a client's first requests, bounded so a client that keeps sending cannot hold the queue there.
    static let refusalReads = 4
    /// Bytes read per such read: as many as a loop reads at once.
    static let refusalReadBytes = ConnectionLoop.readBufferBytes
    /// At most one "server full" warning a second: a crowd turned away would otherwise flood the log.
    static let serverFullWarningIntervalMilliseconds: Int64 = 1000

    /// -1 once the listener is closed.
    private var fd: Int32
    let address: SocketAddress
    /// Sockets the server holds at most: beyond, newcomers are refused.
    let maxConnections: Int
    /// A descriptor held open so that, when the process runs out, one can be freed to accept a client and
    /// tell it `server_full` instead of leaving it hanging in the backlog.
    private var spareFD: Int32
    private var lastFullWarning = Moment(milliseconds: .min / 2)
    private let log: ServerLog
    private let clock: any TransportClock

    /// Binds and listens on `host:port`. Throws before anything listens if the address cannot be used.
    init(host: String, port: Int, maxConnections: Int?, log: ServerLog, clock: any TransportClock) throws(SocketError) {
        let address: SocketAddress
        do {
            // The first address is the one to listen on: for a name with several, the resolver's choice.
            address = try SocketAddress.resolve(host: host, port: port, for: .listening)[0]
        } catch {
            throw .resolve(host: host, message: error.reason)
        }
        // The server should hold as many connections as the system lets it.
        let fileLimit = FileLimit.raise()
        let fd = try SocketOptions.listen(on: address, backlog: Self.backlog)
        do throws(SystemCallError) {
            self.address = try SocketAddress(boundTo: fd)
        } catch {
            Glibc.close(fd)
            throw .system(call: error.call, errno: error.errno)
        }
        self.fd = fd
        self.maxConnections = maxConnections ?? max(1, fileLimit - Self.reservedDescriptors)
        self.log = log
        self.clock = clock
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    deinit {
        close()
    }

    var isOpen: Bool { fd >= 0 }

    /// Puts the listening socket in an epoll set, which reports it by `token`.
    func watch(with poller: EventPoller) throws(SocketError) {
        guard poller.add(fd, token: Self.token, interest: EventPoller.readable) else {
            throw .system(call: "epoll_ctl", errno: errno)
        }
    }

    /// Accepts what the backlog holds, up to `maxAcceptsPerEvent`: each newcomer goes to `admit`, unless
    /// `open` (the sockets held now) is at the limit, when it is turned away (`connectionsKnown` is for
    /// the log's warning).
    func acceptConnections(open: () -> Int, connectionsKnown: @autoclosure () -> Int,
                           admit: (Int32, SocketAddress) -> Void) {
        guard fd >= 0 else { return }
        for _ in 0..<Self.maxAcceptsPerEvent {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(fd, $0, &length) }
            }
            if client < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE: refuseWithSpareDescriptor(connectionsKnown: connectionsKnown())
                default: break
                }
                break
            }
            SocketOptions.configureClient(client)
            // Sockets rather than the lobby's clients: the limit is on descriptors, and a connection whose
            // first bytes are awaited, or an HTTP request, holds one as much as a player does.
            guard open() < maxConnections else {
                refuse(client, connectionsKnown: connectionsKnown())
                continue
            }
            admit(client, SocketAddress(storage: storage, length: length))
        }
    }

    /// Takes the listening socket out of `poller` and closes it, with the spare descriptor.
    func close(removingFrom poller: EventPoller? = nil) {
        if fd >= 0 {
            poller?.remove(fd)
            Glibc.close(fd)
            fd = -1
        }
        if spareFD >= 0 { Glibc.close(spareFD); spareFD = -1 }
    }

    /// Tells a connection over the limit why it is turned away, and closes it.
    ///
    /// A client that already sent its first request would get a reset from a plain close (unread input
    /// makes the kernel abort the connection), and a reset can destroy the `bye` before the client reads it.
    /// So the listener half-closes after the `bye` and discards what has arrived before closing.
    private func refuse(_ client: Int32, connectionsKnown: Int) {
        let bye = ServerMessageEncoder.encode(.bye(.serverFull))
        _ = bye.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        Glibc.shutdown(client, Int32(SHUT_WR))
        withUnsafeTemporaryAllocation(byteCount: Self.refusalReadBytes, alignment: 1) { buffer in
            var reads = 0
            while reads < Self.refusalReads, Glibc.read(client, buffer.baseAddress, buffer.count) > 0 { reads += 1 }
        }
        Glibc.close(client)
        let now = clock.now()
        if lastFullWarning.milliseconds(until: now) >= Self.serverFullWarningIntervalMilliseconds {
            lastFullWarning = now
            log.write(.warning, .serverFull(connections: connectionsKnown))
        }
    }

    /// Out of descriptors: free the spare one, accept and refuse one client, and take the spare back.
    private func refuseWithSpareDescriptor(connectionsKnown: Int) {
        guard spareFD >= 0 else { return }
        Glibc.close(spareFD)
        let client = accept(fd, nil, nil)
        if client >= 0 {
            SocketOptions.configureClient(client)
            refuse(client, connectionsKnown: connectionsKnown)
        }
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }
}
