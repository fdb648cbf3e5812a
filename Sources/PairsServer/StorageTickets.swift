import PairsLobby
import PairsRules

/// Storage work not yet answered, by ticket.
struct StorageTickets {
    /// How long the store has to answer before the client is told `storage_timeout`.
    let deadlineMilliseconds: Int64
    private var pending: [Int: StoreGateway.Pending] = [:]
    private var next = 0

    init(deadlineMilliseconds: Int64) {
        self.deadlineMilliseconds = deadlineMilliseconds
    }

    var count: Int { pending.count }

    mutating func open(_ work: StoreGateway.Pending) -> Int {
        next += 1
        pending[next] = work
        return next
    }

    func pending(_ ticket: Int) -> StoreGateway.Pending? { pending[ticket] }

    /// The work of `ticket`, no longer pending; nil if it was settled already.
    mutating func settle(_ ticket: Int) -> StoreGateway.Pending? { pending.removeValue(forKey: ticket) }
}

/// Connections whose output is held until the store settles a game, oldest hold first: which to hold, which
/// the store's word (or the hold's age) lets go, and when the next age check is due. The gateway sends what
/// it lets go (`LoopSockets.releaseHeld`) and sets the checks on the loop's timer.
struct HeldOutput {
    private var connections: [Connection] = []
    /// Whether a check for holds past `StoreGateway.maxHoldMilliseconds` is set on the timer.
    private var checkScheduled = false

    /// Holds `connection`'s output until the store settles `ticket` (a later game's ticket extends a hold).
    mutating func hold(_ connection: Connection, until ticket: UInt64, at now: Moment) {
        if connection.outbox.held.untilTicket == nil {
            connections.append(connection)
            connection.outbox.held.since = now
        }
        connection.outbox.held.untilTicket = ticket
    }

    /// Stops holding `connection` here (it leaves the loop, its mover sends what it held).
    mutating func forget(_ connection: Connection) {
        connections.removeAll { $0 === connection }
    }

    /// When the next check for holds past `maxMilliseconds` is due, if one must be set now (none is set, and
    /// something is held); it is then counted as set until `takeOverdue`.
    mutating func checkToSchedule(at now: Moment, maxMilliseconds: Int64) -> Moment? {
        guard !checkScheduled, let oldest = connections.first else { return nil }
        checkScheduled = true
        return max(now, oldest.outbox.held.since.adding(milliseconds: maxMilliseconds))
    }

    /// The connections held `maxMilliseconds` or longer at `now`, no longer held; the check is done.
    mutating func takeOverdue(at now: Moment, maxMilliseconds: Int64) -> [Connection] {
        checkScheduled = false
        let isOverdue = { (connection: Connection) in connection.outbox.held.since.milliseconds(until: now) >= maxMilliseconds }
        let overdue = connections.filter(isOverdue)
        connections.removeAll(where: isOverdue)
        return overdue
    }

    /// The connections whose games are all settled once the store settled every ticket through `ticket`,
    /// no longer held (a hold ended elsewhere, by a goodbye, is dropped).
    mutating func takeSettled(through ticket: UInt64) -> [Connection] {
        var settled: [Connection] = []
        connections.removeAll { connection in
            guard let until = connection.outbox.held.untilTicket else { return true }
            guard until <= ticket else { return false }
            settled.append(connection)
            return true
        }
        return settled
    }
}
