import PairsRules
import PairsWire

/// Where a quick room stands in the cluster's quick-match queue, which pairs players waiting on different
/// instances. Only a room made for a client that follows redirects is queued: its partner may be sent here
/// from another instance, and only such a client can be sent to another's.
enum ClusterQueueing: Equatable {
    /// Not in the cluster's queue: without a cluster, for a client that does not follow redirects, or with
    /// the cluster out of reach. Local quick joiners fill it at once.
    case local
    /// Queued: another instance may match it at any moment and send its player here with `join ROOM`. A local
    /// quick joiner first withdraws it, so that the seat is never promised twice.
    case queued
    /// A local quick joiner is withdrawing it; other local quick joiners wait for the same answer.
    case withdrawing
    /// Its promise lapsed and it is being queued again (`ClusterQuestion.requeueWaiter`): local quick joiners
    /// wait for the answer, then withdraw it as a queued room, since another instance may take it meanwhile.
    case requeueing
    /// Another instance matched it first: the free seat is kept for the player it sends, who joins by name,
    /// until `until`; a player who has not come by then (it crashed, or left before the answer reached it) is
    /// not waited for, and the seat is offered on this instance again.
    case promised(until: Moment)

    /// How long a promised seat is kept: a redirected client reconnects in milliseconds; this is generous
    /// for a busy machine, and short for the player left waiting.
    static let promiseMilliseconds: Int64 = 30_000

    var isPromised: Bool {
        if case .promised = self { true } else { false }
    }
}

/// Quick match across instances. A quick join that finds no quick room waiting on this instance asks the
/// cluster (`ClusterQuestion.quickMatch`), naming the room it would make: a player waiting on another
/// instance is the answer (the client is redirected to join that room there), or else the room is made here
/// and queued. Everything waits for the cluster off the loop, as a claim of a room's name does
/// (`ClusterClaims`, keyed by the quick room's name), and nothing of it runs per flip.
extension Lobby {
    /// Whether a quick join of `client` goes through the cluster's queue. A client that does not follow
    /// redirects is paired on this instance only: sent elsewhere in words, it may never arrive, and the
    /// player matched with it would wait in vain.
    func quickMatchesAcrossInstances(_ client: Client) -> Bool {
        directory.shared.cluster != nil && client.followsRedirects
    }

    /// Asks the cluster for a partner of `client`, whose quick join claimed new room `name` on this shard.
    func askQuickMatch(_ name: String, rules: RuleSet, for client: Client, request: Request) {
        clusterClaims.start(name, rules: rules, by: client.id)
        ask(.quickMatch(room: name, rules: rules), for: client, request: request)
    }

    /// `client`'s quick join found `room` waiting here: seats it, unless the room is queued in the cluster,
    /// which is withdrawn first (another instance may have just matched it and be sending its player).
    func sitInQuickRoom(_ client: Client, in room: Room, request: Request, at now: Moment) {
        switch room.clusterQueue {
        case .local, .promised:
            // A promised room leaves the waiting list in the same call that promises it: not reached.
            sit(client, in: room, id: request.id, at: now)
        case .queued:
            room.clusterQueue = .withdrawing
            clusterClaims.start(room.name, rules: room.rules, by: client.id)
            ask(.withdrawWaiter(room.name), for: client, request: request)
        case .withdrawing, .requeueing:
            awaitClaim(of: room.name, by: client, request: request)
        }
    }

    /// The cluster's answer to `.quickMatch` for new room `name`.
    func quickMatchAnswered(_ name: String, asker: ConnectionID, _ answer: ClusterAnswer, at now: Moment) {
        guard let claim = clusterClaims.finish(name) else { return }
        var waiting = claim.waiters.compactMap { clients[$0] }.filter { $0.awaitedCluster != nil }
        if case .matchedWith(let room, let address) = answer {
            // The name is not made here after all; whoever else waited for it starts again.
            directory.shared.remove(name, rules: claim.rules, tokens: [])
            // The waiter taken is promised this asker; if the asker is gone, another quick joiner of the same
            // rules who waited behind it (and follows redirects) takes its place, so that the player over
            // there is not left waiting.
            let partner = waiting.firstIndex { $0.id == asker } ?? waiting.firstIndex { $0.followsRedirects }
            if let partner { redirect(waiting.remove(at: partner), toQuickRoom: room, at: address, at: now) }
            for client in waiting { handleAnswered(client, at: now) }
            return
        }
        guard !waiting.isEmpty else {
            // Everyone who wanted it left: nothing to make, and nothing left queued for it.
            directory.shared.remove(name, rules: claim.rules, tokens: [])
            if answer == .here { directory.shared.cluster?.note(.waiterWithdrawn(name)) }
            return
        }
        // Queued (`.here`), or the cluster out of reach: the room is made here as on one server, and local
        // quick joiners fill it (queued, after withdrawing it).
        let room = openRoom(named: name, quickMatch: true, rules: claim.rules)
        room.clusterQueue = answer == .here ? .queued : .local
        let first = waiting.remove(at: waiting.firstIndex { $0.id == asker } ?? 0)
        if let request = first.awaitedCluster {
            first.awaitedCluster = nil
            sit(first, in: room, id: request.id, at: now)
            handleDeferred(of: first, at: now)
        }
        for client in waiting { handleAnswered(client, at: now) }
    }

    /// The cluster's answer to `.withdrawWaiter` for quick room `name`: its seat is this instance's to fill
    /// (withdrawn, no longer queued, or the cluster out of reach: pairing falls back to this instance), or
    /// promised to a player another instance sends. The joiners who waited then join as if asking anew.
    func withdrawAnswered(_ name: String, _ answer: ClusterAnswer, at now: Moment) {
        guard let claim = clusterClaims.finish(name) else { return }
        if let room = directory.room(named: name), room.clusterQueue == .withdrawing {
            room.clusterQueue = answer == .takenElsewhere
                ? .promised(until: now.adding(milliseconds: ClusterQueueing.promiseMilliseconds)) : .local
            // A promised room leaves the quick-match list, so the joiners below find another.
            settle(room, at: now)
        }
        for client in claim.waiters.compactMap({ clients[$0] }) where client.awaitedCluster != nil {
            handleAnswered(client, at: now)
        }
    }

    /// A queued room that no longer waits (filled, its player gone or away) leaves the cluster's queue, so
    /// that no other instance sends a player to a seat that is not free. Called as the room settles.
    func withdrawIfNoLongerWaiting(_ room: Room) {
        // The promised player (or anyone) filled the seat: the promise is kept, and the room is as any other.
        if room.clusterQueue.isPromised, room.match.freeSeat == nil { room.clusterQueue = .local }
        // A room being queued again is withdrawn too: the withdrawal follows the requeue on the cluster's queue.
        guard room.clusterQueue == .queued || room.clusterQueue == .requeueing,
              room.isAbandoned || !room.isWaitingForQuickMatch else { return }
        room.clusterQueue = .local
        directory.shared.cluster?.note(.waiterWithdrawn(room.name))
    }

    /// Another instance took these queued quick rooms (the cluster's renewal says so): each that still shows
    /// as queued here keeps its seat for the player sent, as after a withdrawal that came too late, so that the
    /// promise can lapse and the room be queued again if that player never comes. Rooms of other shards, or
    /// no longer queued (withdrawn, filled), are left as they are.
    public func waitersTakenElsewhere(_ names: [String], at now: Moment) {
        for name in names {
            guard let room = directory.room(named: name), room.clusterQueue == .queued else { continue }
            room.clusterQueue = .promised(until: now.adding(milliseconds: ClusterQueueing.promiseMilliseconds))
            settle(room, at: now)
        }
    }

    /// A promise kept past its time lapses: the seat is offered again, on this instance and, while its player
    /// still waits, to the whole cluster (queued again), or a quick joiner on another instance would never
    /// find them. The room's claim entry collects local quick joiners until the cluster answers.
    func lapsePromise(of room: Room, at now: Moment) {
        guard case .promised(let until) = room.clusterQueue, until <= now else { return }
        room.clusterQueue = .local
        guard directory.shared.cluster != nil, room.isWaitingForQuickMatch,
              let player = room.seatClients.first(where: { $0 != nil }) ?? nil else { return }
        room.clusterQueue = .requeueing
        clusterClaims.start(room.name, rules: room.rules, by: player.id)
        // Asked for the player without holding their requests: they may leave or chat meanwhile.
        append(.askCluster(ClusterInquiry(connection: player.id, question: .requeueWaiter(room: room.name, rules: room.rules))))
    }

    /// The cluster's answer to `.requeueWaiter` for quick room `name`: queued (`.here`), or the cluster out of
    /// reach, when the room stays this instance's alone as it was before it was queued. The local quick joiners
    /// who waited then join as if asking anew (a queued room is withdrawn first).
    func requeueAnswered(_ name: String, _ answer: ClusterAnswer, at now: Moment) {
        guard let claim = clusterClaims.finish(name) else { return }
        // A room that stopped waiting meanwhile was set `.local` and withdrawn already (`withdrawIfNoLongerWaiting`).
        if let room = directory.room(named: name), room.clusterQueue == .requeueing {
            room.clusterQueue = answer == .here ? .queued : .local
        }
        for client in claim.waiters.compactMap({ clients[$0] }) where client.awaitedCluster != nil {
            handleAnswered(client, at: now)
        }
    }

    /// When a room's promise lapses, for its deadline.
    func promiseDeadline(of room: Room) -> Moment? {
        if case .promised(let until) = room.clusterQueue { until } else { nil }
    }

    /// Sends `client`, whose quick join waited, to join room `name` on the instance at `address`, where its
    /// partner waits. Only clients that follow redirects ask the cluster for a quick match.
    private func redirect(_ client: Client, toQuickRoom name: String, at address: ServerEndpoint, at now: Moment) {
        guard let request = client.awaitedCluster else { return }
        client.awaitedCluster = nil
        send(.redirect(Redirect(host: address.host, port: address.port, request: .join, room: name, id: request.id)), to: client)
        handleDeferred(of: client, at: now)
    }
}
