import PairsRules
import PairsWire

/// One level above the shards: a room or a resume token unknown on this instance may be another instance's
/// (`LobbyDirectory.cluster`). The lobby asks, the client's requests wait for the answer as they wait for
/// the store's word on a name, and the request is then handled here or sent to the owner: with a
/// `redirect` to a client that follows them, or an `owned_elsewhere` error whose words name the address.
extension Lobby {
    /// Asks the cluster `question` for `request` of `client`; its later requests wait for the answer.
    func ask(_ question: ClusterQuestion, for client: Client, request: Request) {
        client.awaitedCluster = request
        append(.askCluster(ClusterInquiry(connection: client.id, question: question)))
    }

    /// Claims room `name` (reserved on this shard already) from the cluster for `client`'s `join`.
    func claimFromCluster(_ name: String, rules: RuleSet, for client: Client, request: Request) {
        clusterClaims.start(name, rules: rules, by: client.id)
        ask(.claimRoom(name), for: client, request: request)
    }

    /// `client` asked for room `name` while this shard claims it: it waits for the same answer.
    func awaitClaim(of name: String, by client: Client, request: Request) {
        client.awaitedCluster = request
        clusterClaims.wait(client.id, for: name)
    }

    /// The cluster's answer to a question this shard asked (`LobbyAction.askCluster`).
    public func clusterAnswered(_ inquiry: ClusterInquiry, _ answer: ClusterAnswer, at now: Moment) {
        switch inquiry.question {
        case .claimRoom(let name):
            guard let claim = clusterClaims.finish(name) else { return }
            let waiting = claim.waiters.compactMap { clients[$0] }.filter { $0.awaitedCluster != nil }
            switch answer {
            case .here:
                guard !waiting.isEmpty else {
                    // Everyone who wanted it left: nothing to make, and the cluster forgets it too.
                    return directory.shared.remove(name, rules: claim.rules, tokens: [])
                }
                _ = openRoom(named: name, quickMatch: false, rules: claim.rules)
                for client in waiting { handleAnswered(client, at: now) }
            case .elsewhere(let address):
                directory.shared.unclaim(name)
                for client in waiting { redirect(client, to: address, at: now) }
            case .nowhere, .unavailable, .matchedWith, .takenElsewhere:
                directory.shared.unclaim(name)
                for client in waiting { refuseUnavailable(client, at: now) }
            }
        case .quickMatch(let name, _):
            quickMatchAnswered(name, asker: inquiry.connection, answer, at: now)
        case .withdrawWaiter(let name):
            withdrawAnswered(name, answer, at: now)
        case .requeueWaiter(let name, _):
            requeueAnswered(name, answer, at: now)
        case .findRoom, .findToken:
            guard let client = clients[inquiry.connection], client.awaitedCluster != nil else { return }
            switch answer {
            case .elsewhere(let address): redirect(client, to: address, at: now)
            case .unavailable: refuseUnavailable(client, at: now)
            case .here, .nowhere, .matchedWith, .takenElsewhere: handleAnswered(client, at: now)
            }
        }
    }

    /// Handles the request that waited, here, without asking the cluster again, then what waited behind it.
    func handleAnswered(_ client: Client, at now: Moment) {
        guard let request = client.awaitedCluster else { return }
        client.awaitedCluster = nil
        switch request.message {
        case .watch(let name): watch(name, from: client, request: request, at: now, askingCluster: false)
        case .resume(let token): resume(token, from: client, request: request, at: now, askingCluster: false)
        default: handle(request, from: client, at: now)
        }
        handleDeferred(of: client, at: now)
    }

    /// Sends `client` to the instance at `address`, which owns what its waiting request is for.
    private func redirect(_ client: Client, to address: ServerEndpoint, at now: Moment) {
        guard let request = client.awaitedCluster else { return }
        client.awaitedCluster = nil
        let redirect: Redirect, words: String
        switch request.message {
        case .join(let join):
            let room = join.room ?? ""
            redirect = Redirect(host: address.host, port: address.port, request: .join, room: room, id: request.id)
            words = "room \(room) is played on another instance of this server, at \(address): connect there and join \(room)"
        case .watch(let room):
            redirect = Redirect(host: address.host, port: address.port, request: .watch, room: room, id: request.id)
            words = "room \(room) is played on another instance of this server, at \(address): connect there and watch \(room)"
        case .resume(let token):
            redirect = Redirect(host: address.host, port: address.port, request: .resume, token: token, id: request.id)
            words = "that seat is held by another instance of this server, at \(address): connect there and resume it"
        default:
            return handleDeferred(of: client, at: now)
        }
        if client.followsRedirects {
            send(.redirect(redirect), to: client)
        } else {
            refuse(.ownedElsewhere, words, id: request.id, to: client)
        }
        handleDeferred(of: client, at: now)
    }

    private func refuseUnavailable(_ client: Client, at now: Moment) {
        guard let request = client.awaitedCluster else { return }
        client.awaitedCluster = nil
        refuse(.clusterUnavailable, "the other instances of this server cannot be reached just now; try again later (games under way go on)",
               id: request.id, to: client)
        handleDeferred(of: client, at: now)
    }
}
