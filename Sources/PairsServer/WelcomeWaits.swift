import PairsRules

/// The connections whose `welcome` waits for their first bytes, each with the moment its wait ends.
///
/// A wait is one of two lengths: the usual short one, after which a silent connection is greeted, or the
/// long one of a connection from an address that loaded the page lately (`PageVisitors`), after which a
/// silent connection is closed without a byte. The waits of one length are kept in a lane in the order they
/// arrived, which is their deadline order, so the server's next welcome deadline is the earlier of the
/// lanes' fronts, and ending the waits that are due looks at the fronts alone. One list for the whole
/// server, checked once per batch and by the lobby's timer, instead of a timer per connection. A connection
/// whose first bytes decide its framing earlier stays listed until it reaches the front, where it is
/// dropped unseen.
struct WelcomeWaits {
    /// How long a connection's welcome waits.
    enum Length {
        /// `Server.welcomeWaitMilliseconds`.
        case usual
        /// `ServerConfiguration.WebOptions.pageVisitorSilenceMilliseconds`.
        case pageVisitor
    }

    private let usualMilliseconds: Int64
    private let pageVisitorMilliseconds: Int64
    private var usual = Lane()
    private var pageVisitors = Lane()

    init(usualMilliseconds: Int64, pageVisitorMilliseconds: Int64) {
        self.usualMilliseconds = usualMilliseconds
        self.pageVisitorMilliseconds = pageVisitorMilliseconds
    }

    /// Whether no wait is listed, decided or not.
    var isEmpty: Bool { usual.isEmpty && pageVisitors.isEmpty }

    /// Lists `connection`, which arrived at `now` and waits `length`.
    mutating func append(_ connection: Connection, arrivedAt now: Moment, waiting length: Length) {
        switch length {
        case .usual: usual.append(connection, until: now.adding(milliseconds: usualMilliseconds))
        case .pageVisitor: pageVisitors.append(connection, until: now.adding(milliseconds: pageVisitorMilliseconds))
        }
    }

    /// When the earliest wait still running ends; nil when none is running.
    mutating func nextDeadline() -> Moment? {
        switch (usual.nextDeadline(), pageVisitors.nextDeadline()) {
        case (let first?, let second?): min(first, second)
        case (let first, let second): first ?? second
        }
    }

    /// The next connection still waiting whose wait is over at `now`, taken off the list, with the length
    /// it waited; nil when there is none.
    mutating func popDue(at now: Moment) -> (connection: Connection, length: Length)? {
        if let connection = usual.popDue(at: now) { return (connection, .usual) }
        return pageVisitors.popDue(at: now).map { ($0, .pageVisitor) }
    }

    /// Takes `connection` off the list: it moves to another loop, whose queue then owns it (it was greeted
    /// long ago; only its stale entry is left here).
    mutating func remove(_ connection: Connection) {
        usual.remove(connection)
        pageVisitors.remove(connection)
    }
}

/// One wait length's connections, in the order they arrived: arrival order is deadline order.
private struct Lane {
    /// Dropped waits kept at the front before the list is shifted down: shifting costs a copy of the rest,
    /// so it is done only when at least this many (and half the list) can go, a cost spread over as many
    /// pops. Under a steady stream of connects the list never empties on its own.
    static let dropsBeforeShifting = 1024

    private var waits: [(deadline: Moment, connection: Connection)] = []
    /// Where the waits still listed start in `waits`: the front is dropped by moving this, not by shifting.
    private var start = 0

    /// Whether no wait is listed, decided or not.
    var isEmpty: Bool { start == waits.count }

    /// Lists `connection`, whose wait ends at `deadline`, no earlier than any listed before in this lane.
    mutating func append(_ connection: Connection, until deadline: Moment) {
        waits.append((deadline, connection))
    }

    /// When the earliest wait still running ends, once the connections already decided are dropped from
    /// the front; nil when none is running.
    mutating func nextDeadline() -> Moment? {
        dropDecided()
        return isEmpty ? nil : waits[start].deadline
    }

    /// The next connection still waiting whose wait is over at `now`, taken off the list; nil when there
    /// is none.
    mutating func popDue(at now: Moment) -> Connection? {
        dropDecided()
        guard !isEmpty, waits[start].deadline <= now else { return nil }
        let connection = waits[start].connection
        pop()
        return connection
    }

    mutating func remove(_ connection: Connection) {
        guard let index = waits[start...].firstIndex(where: { $0.connection === connection }) else { return }
        waits.remove(at: index)
        if start == waits.count { (waits, start) = ([], 0) }
    }

    private mutating func dropDecided() {
        while !isEmpty, !waits[start].connection.isAwaitingFirstBytes { pop() }
    }

    private mutating func pop() {
        start += 1
        if start == waits.count {
            // Released, not kept: a crowd of 10,000 connecting at once would otherwise leave 16 bytes each
            // behind for good, and regrowing the list for the next crowd costs little.
            waits = []
            start = 0
        } else if start >= Self.dropsBeforeShifting, start * 2 >= waits.count {
            waits.removeFirst(start)
            start = 0
        }
    }
}
