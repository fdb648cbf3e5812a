import Dispatch
import PairsLobby
import PairsRules
import PairsStorage
import PairsWire

/// The loop's way to the store, which blocks on SQLite and so is never asked on the loop's queue: finished
/// games handed to the writer (and their players' output held until each is committed), history questions
/// asked on the storage queue, names checked on the hashing pool, every piece of work with a ticket and a
/// deadline, and the store's failures written to the log.
///
/// Confined to its loop's queue, as the loop is (`@unchecked Sendable`: the work it sends off captures it,
/// and comes back to the queue through `ConnectionLoop.handle`).
final class StoreGateway: @unchecked Sendable {
    /// The longest a game's last state is held for its game to be committed: the writer commits within a
    /// few milliseconds, so only a disk that stalls (which the log reports) comes near it, and then the end
    /// of every game must not freeze with it.
    static let maxHoldMilliseconds: Int64 = 2000

    unowned(unsafe) let loop: ConnectionLoop
    /// The store, its queue and the hashing pool, which every loop's gateway uses.
    let shared: Shared
    /// Storage work not yet answered, by ticket: the client gets whichever comes first, the store's answer
    /// or `storage_timeout` at the deadline.
    private(set) var tickets: StorageTickets
    /// Connections whose output is held until the store settles a game (`Connection.Holding.untilTicket`).
    private var held = HeldOutput()
    /// What the log says of the store's failures, rate-limited.
    private var alarm = StorageAlarm()
    /// How long games wait to be committed.
    private(set) var commits = CommitLatency()

    init(loop: ConnectionLoop, shared: Shared) {
        self.loop = loop
        self.shared = shared
        tickets = StorageTickets(deadlineMilliseconds: shared.deadlineMilliseconds)
    }

    var store: any PairsStore { shared.store }

    /// Stops holding `connection`'s output, which is released by its mover (the connection leaves the loop).
    func forget(_ connection: Connection) {
        held.forget(connection)
    }

    /// Commits what the writer holds, blocking: before a goodbye that must carry a held state, and at exit.
    func flushStore() { store.flush() }

    // MARK: Finished games and held output

    /// Hands a finished game to the store's writer, which commits it off this queue, and holds the output
    /// of `recipients` (its last state first) until it is committed: a client that saw the game end finds it
    /// in the store even if the server is killed the next moment. The writer commits every few
    /// milliseconds, many games a transaction, so what waits is one batch.
    func keep(_ game: FinishedGame, holding recipients: [ConnectionID]) {
        loop.assertOnQueue()
        let now = loop.clock.now()
        let wallNow = WallClock.now()
        let record = StoredGames.record(of: game) { moment in
            WallClockTime(unixMilliseconds: wallNow.unixMilliseconds - moment.milliseconds(until: now))
        }
        let ticket: UInt64?
        do {
            ticket = try store.record(record)
        } catch {
            return loop.log.write(.error, .gameNotKept(room: game.room, error: "\(error)"))
        }
        // Dropped for a full backlog: it will never be settled, so nothing waits for it.
        guard let ticket else { return }
        commits.submitted(ticket, at: now)
        for id in recipients {
            guard let connection = loop.sockets.open[id], connection.isOpen else { continue }
            held.hold(connection, until: ticket, at: now)
        }
        scheduleHoldCheck(at: now)
    }

    /// Hands a finished tournament to the store, behind the games already handed over (its own among them).
    func keep(_ tournament: FinishedTournament) {
        loop.assertOnQueue()
        let now = loop.clock.now()
        let wallNow = WallClock.now()
        let record = StoredGames.record(of: tournament) { moment in
            WallClockTime(unixMilliseconds: wallNow.unixMilliseconds - moment.milliseconds(until: now))
        }
        do {
            try store.record(record)
        } catch {
            loop.log.write(.error, .tournamentNotKept(name: tournament.name, error: "\(error)"))
        }
    }

    /// Releases, `maxHoldMilliseconds` after they began, the holds the store has not settled by then.
    private func scheduleHoldCheck(at now: Moment) {
        guard let moment = held.checkToSchedule(at: now, maxMilliseconds: Self.maxHoldMilliseconds) else { return }
        loop.add(.store(.holdCheck), at: moment)
    }

    // MARK: Answers and deadlines

    /// Work done elsewhere came back, on the loop's queue (`ConnectionLoop.handle`).
    func receive(_ answer: Answer) {
        loop.assertOnQueue()
        switch answer {
        case .query(let ticket, let answer, let bytes, let lines):
            guard case .query(_, let id)? = tickets.settle(ticket) else { return }
            if case .error(let error) = answer { loop.sockets.traffic.errors[error.code, default: 0] += 1 }
            guard let connection = loop.sockets.open[id] else {
                // It moved to another loop after asking: the answer follows it.
                return loop.group.forward(.deliver(bytes: bytes, messages: lines, to: id), to: id, from: loop.index)
            }
            guard connection.isOpen else { return }
            loop.sockets.deliver(bytes, messages: lines, to: connection)
        case .name(let ticket, let result):
            answerName(ticket, result)
        case .rating(let ticket, let rating):
            answerRating(ticket, rating)
        case .report(let event):
            reported(event)
        case .recheck(let lookup):
            check(lookup)
        }
    }

    /// A deadline of the gateway's came (`Due`).
    func due(_ due: Due, at now: Moment) {
        loop.assertOnQueue()
        switch due {
        case .answerOverdue(let ticket):
            switch tickets.pending(ticket) {
            case nil:
                return
            case .query(let request, let id)?:
                _ = tickets.settle(ticket)
                let error = RequestError(.storageTimeout, "the store did not answer within \(tickets.deadlineMilliseconds) ms; try again later",
                                         id: request)
                let bytes = ServerMessageEncoder.encode(.error(error))
                guard let connection = loop.sockets.open[id] else {
                    return loop.group.forward(.deliver(bytes: bytes, messages: 1, to: id), to: id, from: loop.index)
                }
                guard connection.isOpen else { return }
                loop.sockets.deliver(bytes, messages: 1, to: connection)
            case .name?:
                answerName(ticket, .timedOut)
            case .rating?:
                // A join never waits longer than a question does: the entrant counts at the default.
                answerRating(ticket, nil)
            }
        case .nameDelayOver(let ticket):
            guard case .name(let lookup, _)? = tickets.pending(ticket), let password = lookup.password else { return }
            hash(lookup, password: password, ticket: ticket)
        case .holdCheck:
            held.takeOverdue(at: now, maxMilliseconds: Self.maxHoldMilliseconds).forEach(loop.sockets.releaseHeld)
            scheduleHoldCheck(at: now)
        case .alarm:
            alarm.isWriteScheduled = false
            if let line = alarm.heldLine(at: now) { loop.log.write(line.level, line.event) }
            scheduleHeldStorageFailures(at: now)
        }
    }

    /// A failure of the store, or its recovery, for the log (`StorageAlarm` decides which lines to write).
    private func reported(_ event: StorageEvent) {
        let now = loop.clock.now()
        switch event {
        case .failed(let failure):
            if let line = alarm.failed(failure, at: now) { loop.log.write(line.level, line.event) }
        case .recovered(let failures, let gamesLost):
            for line in alarm.recovered(failures: failures, gamesLost: gamesLost, at: now) { loop.log.write(line.level, line.event) }
        case .settled(let ticket):
            commits.settled(through: ticket, at: now)
            // Sends what was held for games the store has now settled (committed, or lost to a failure it logs).
            return held.takeSettled(through: ticket).forEach(loop.sockets.releaseHeld)
        }
        scheduleHeldStorageFailures(at: now)
    }

    /// Writes the failures the alarm holds back once they are due, even if no other failure comes.
    private func scheduleHeldStorageFailures(at now: Moment) {
        guard !alarm.isWriteScheduled, let deadline = alarm.heldDeadline else { return }
        alarm.isWriteScheduled = true
        loop.add(.store(.alarm), at: max(now, deadline))
    }

    /// Notes storage work about to start after `delay` ms, and sets its deadline; returns its ticket.
    private func awaitStorage(_ pending: Pending, afterMilliseconds delay: Int64) -> Int {
        let ticket = tickets.open(pending)
        loop.add(.store(.answerOverdue(ticket: ticket)), at: loop.clock.now().adding(milliseconds: delay + tickets.deadlineMilliseconds))
        return ticket
    }

    // MARK: Questions

    /// Asks the store on its own queue, and sends the answer from the loop's, or `storage_timeout` if the
    /// answer does not come within the deadline.
    func answer(_ query: StorageQuery, request: RequestID?, to id: ConnectionID) {
        loop.assertOnQueue()
        let ticket = awaitStorage(.query(request: request, connection: id), afterMilliseconds: 0)
        let (store, step, loop) = (store, shared.worker.step, loop)
        shared.worker.queue.async {
            step(.query)
            // Games that ended before the question was asked are committed first, so the answer has them
            // all: a client that saw a game end finds it in the history at once.
            store.flush()
            let answer = StoreAnswers.ask(store, query, request: request)
            let lines = LongAnswers.lines(answer)
            let bytes = lines.flatMap(ServerMessageEncoder.encode)
            loop.enqueue(.stored(.query(ticket: ticket, answer: answer, bytes: bytes, lines: lines.count)))
        }
    }

    /// Looks a tournament entrant's rating up on the store's queue, behind the games already handed over (a
    /// game that ended before the join counts), and gives it to the lobby from the loop's queue; nil (the
    /// default) when the store fails or does not answer within the deadline.
    func lookUpRating(_ lookup: RatingLookup) {
        loop.assertOnQueue()
        let ticket = awaitStorage(.rating(lookup), afterMilliseconds: 0)
        let (store, step, loop) = (store, shared.worker.step, loop)
        shared.worker.queue.async {
            step(.query)
            store.flush()
            let rating = (try? store.rating(of: lookup.name, ladder: lookup.ladder)) ?? nil
            loop.enqueue(.stored(.rating(ticket: ticket, rating)))
        }
    }

    private func answerRating(_ ticket: Int, _ rating: Int?) {
        guard case .rating(let lookup)? = tickets.settle(ticket) else { return }
        loop.lobby.ratingFound(lookup, rating, at: loop.clock.now())
    }

    /// Answers a `hello`'s name. Without a password, from the claimed names in memory, at once: it never
    /// waits for the disk or for anyone's password. With one, after the lookup's delay, on the hashing pool
    /// (`busy` when its queue is full), within the storage deadline.
    func check(_ lookup: NameLookup) {
        loop.assertOnQueue()
        let skeleton = NameSkeleton.of(lookup.name)
        let index = loop.index
        let waits = shared.claimsInFlight.withLock { claims in
            guard claims[skeleton] != nil else { return false }
            claims[skeleton]?.append((lookup, index))
            return true
        }
        if waits { return }
        guard let password = lookup.password else {
            let result: NameCheckResult = switch store.standing(of: lookup.name) {
            case .free: .free
            case .claimed: .taken
            case .looksLike(let claimed): .looksLike(claimedName: claimed)
            }
            return loop.lobby.nameChecked(lookup, result, at: loop.clock.now())
        }
        if let problem = GameStore.problem(withPassword: password) {
            return loop.lobby.nameChecked(lookup, .unusablePassword(reason: problem.description), at: loop.clock.now())
        }
        // A name not claimed yet may be claimed by this: until it is known, its look-alikes wait in line.
        let claiming = store.isClaimed(lookup.name) ? nil : skeleton
        if let claiming { shared.claimsInFlight.withLock { $0[claiming] = [] } }
        let ticket = awaitStorage(.name(lookup, claiming: claiming), afterMilliseconds: lookup.delayMilliseconds)
        guard lookup.delayMilliseconds > 0 else { return hash(lookup, password: password, ticket: ticket) }
        loop.add(.store(.nameDelayOver(ticket: ticket)), at: loop.clock.now().adding(milliseconds: lookup.delayMilliseconds))
    }

    /// Hands a claim or a verification to the hashing pool; `busy` at once when its queue is full.
    private func hash(_ lookup: NameLookup, password: String, ticket: Int) {
        let (store, step, loop) = (store, shared.worker.step, loop)
        let accepted = shared.nameChecks.submit {
            // Only a new claim writes to the disk; a verification reads the hash from memory.
            if !store.isClaimed(lookup.name) { step(.claim) }
            let result = StoreAnswers.claimOrVerify(lookup.name, password: password, in: store)
            loop.enqueue(.stored(.name(ticket: ticket, result)))
        }
        if !accepted { answerName(ticket, .busy) }
    }

    /// Gives the lobby the word on the name check `ticket`, unless its deadline already did, and lets the
    /// lookups that waited behind it (a claim's look-alikes) go on.
    private func answerName(_ ticket: Int, _ result: NameCheckResult) {
        guard case .name(let lookup, let claiming)? = tickets.settle(ticket) else { return }
        loop.lobby.nameChecked(lookup, result, at: loop.clock.now())
        if let claiming {
            let waiting = shared.claimsInFlight.withLock { $0.removeValue(forKey: claiming) } ?? []
            for (lookup, index) in waiting {
                if index == loop.index { check(lookup) } else { loop.group.loops[index].enqueue(.stored(.recheck(lookup))) }
            }
        }
    }
}
