#if Cluster
import PairsCluster
#endif
import PairsLobby
import PairsWire
import PairsServer

/// `pairs serve --cluster redis://HOST:PORT [--advertise HOST:PORT]`: the instance joins the cluster whose
/// registry is that Redis. Everything that can be checked is checked before the server listens (the trait,
/// the URL, the address peers will be sent to, Redis answering), so a mistake is one line and exit 1.
final class ServeCluster: @unchecked Sendable {
    // @unchecked: `agent` is set once by `join`, on the thread that starts the server, before any signal
    // handler that reads it can run.
    let registry: String
    /// The address given with `--advertise`; nil for the listening address.
    let advertise: ServerEndpoint?
    #if Cluster
    let endpoint: RedisEndpoint
    let link: ClusterLink
    private var agent: ClusterAgent?
    #endif

    /// Why the instance cannot join, in one line.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Checks what can be checked before listening on `host`.
    init(url: String, advertise: String?, host: String) throws(Refusal) {
        #if Cluster
        do {
            endpoint = try RedisEndpoint(url: url)
        } catch {
            throw Refusal(description: "--cluster: \(error)")
        }
        var advertised: ServerEndpoint?
        if let advertise {
            guard let address = ServerEndpoint(advertise), !Self.isWildcard(address.host) else {
                throw Refusal(description: "--advertise needs the HOST:PORT other instances and clients reach this one by, not '\(advertise)'")
            }
            advertised = address
        } else if Self.isWildcard(host) {
            throw Refusal(description: "--cluster needs --advertise HOST:PORT: this server listens on \(host), every address of the "
                          + "machine, and its peers must be told one they can reach")
        }
        // Redis must answer before anything listens (the agent's own join follows once the port is known).
        let probe = RedisClient(endpoint: endpoint)
        do {
            try probe.connect()
            probe.disconnect()
        } catch {
            throw Refusal(description: "cannot reach the cluster's Redis at \(endpoint): \(error)")
        }
        registry = endpoint.description
        self.advertise = advertised
        link = ClusterLink(instance: ClusterRegistry.newIdentifier())
        #else
        throw Refusal(description: "--cluster \(url): this pairs was built without the Cluster trait (swift build --traits Cluster) that runs several instances as one")
        #endif
    }

    /// What the server's lobby consults.
    var lobbyCluster: any LobbyCluster {
        #if Cluster
        link
        #else
        fatalError("unreachable: init throws without the Cluster trait")
        #endif
    }

    /// Joins the cluster as `server`, now listening, and reports Redis lost and back in its log once each.
    /// Returns the advertised address.
    func join(_ server: Server) throws(Refusal) -> String {
        // Written as peers read it back (`ServerEndpoint`'s description), however `--advertise` spelt it.
        let address = advertise?.description ?? server.listeningAddress
        #if Cluster
        let link = link
        let agent = ClusterAgent(endpoint: endpoint, address: address, instance: link.instance) { [weak server] event in
            switch event {
            case .unavailable(let error): server?.report(.unavailable(error: "\(error)"))
            case .available:
                server?.report(.available)
                // What Redis missed meanwhile (tokens, rooms the lobby named) is written now.
                link.replayMissed()
            case .changed(let report):
                // A waiter taken elsewhere: its room keeps the seat for the player sent, and is queued again
                // if that player never comes.
                if !report.matchedWaiters.isEmpty { server?.clusterWaitersTaken(Array(report.matchedWaiters.keys)) }
            }
        }
        do {
            try agent.start()
        } catch {
            throw Refusal(description: "cannot join the cluster at \(endpoint): \(error)")
        }
        link.attach(agent)
        self.agent = agent
        server.report(.joined(registry: registry, advertised: address))
        #endif
        return address
    }

    /// Leaves the registry on an orderly shutdown, so peers need not wait for this instance's entries to expire.
    func leave() {
        #if Cluster
        agent?.stop(leaving: true)
        #endif
    }

    private static func isWildcard(_ host: String) -> Bool {
        ["0.0.0.0", "::", "[::]", "*", ""].contains(host)
    }
}
