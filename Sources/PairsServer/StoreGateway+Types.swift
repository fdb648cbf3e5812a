import Dispatch
import PairsLobby
import PairsStorage
import PairsWire

/// What the store's gateway trades with its loop and with the other loops' gateways.
extension StoreGateway {
    /// What comes back to the loop from work done elsewhere.
    enum Answer {
        /// A history question's answer, encoded off the loop, for ticket `ticket`.
        case query(ticket: Int, answer: ServerMessage, bytes: [UInt8], lines: Int)
        /// A name check's word.
        case name(ticket: Int, NameCheckResult)
        /// A tournament entrant's rating, nil for none (or a failure).
        case rating(ticket: Int, Int?)
        /// The store failed, recovered, or committed games.
        case report(StorageEvent)
        /// A lookup that waited for a claim of a look-alike name (on any loop) is checked now.
        case recheck(NameLookup)
    }

    /// What the gateway has to do at a deadline (`LoopDeadline.store`).
    enum Due {
        /// The work of this ticket had its time: the client is told `storage_timeout`, unless answered.
        case answerOverdue(ticket: Int)
        /// A password check's delay is over: it goes to the hashing pool.
        case nameDelayOver(ticket: Int)
        /// Holds older than `maxHoldMilliseconds` are released.
        case holdCheck
        /// The failures the alarm held back are due to be written.
        case alarm
    }

    /// Which storage work is about to touch the disk, for `storageStep`.
    enum StorageWork {
        /// A query on the storage queue.
        case query
        /// A claim's insert, on the hashing pool.
        case claim
    }

    /// What a piece of storage work answers when it comes back.
    enum Pending {
        case query(request: RequestID?, connection: ConnectionID)
        /// A name check; with the skeleton of the name it may claim, if it may claim one.
        case name(NameLookup, claiming: String?)
        /// A tournament entrant's rating: the lobby's `join` waits for it.
        case rating(RatingLookup)
    }

    /// What every loop's gateway shares: the store, its one queue for questions, the hashing pool.
    final class Shared: Sendable {
        let store: any PairsStore
        let worker: (queue: DispatchQueue, step: @Sendable (StorageWork) -> Void)
        let nameChecks: NameCheckPool
        let deadlineMilliseconds: Int64
        /// Name checks waiting, in the order they came, for a claim of a look-alike name to be decided (by
        /// the claimed name's skeleton), with the loop each came from: so a claim and a `hello` for the same
        /// name are answered in the order they came, on whichever loops, and only those wait.
        let claimsInFlight = PthreadLocked<[String: [(lookup: NameLookup, loop: Int)]]>([:])

        init(store: any PairsStore, configuration: ServerConfiguration, storageStep: @escaping @Sendable (StorageWork) -> Void) {
            self.store = store
            worker = (DispatchQueue(label: "pairs.storage"), storageStep)
            nameChecks = NameCheckPool(workers: configuration.store.nameCheckWorkers, queueLimit: configuration.store.nameCheckQueueLimit)
            deadlineMilliseconds = configuration.store.deadlineMilliseconds
        }
    }
}
