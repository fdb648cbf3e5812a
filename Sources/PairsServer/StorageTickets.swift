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

/// Connections whose output is held until the store settles a game, oldest hold first.
struct HeldOutput {
    var connections: [Connection] = []
    /// Whether a check for holds past `StoreGateway.maxHoldMilliseconds` is due.
    var checkScheduled = false
}
