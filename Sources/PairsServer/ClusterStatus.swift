import PairsLobby

/// What the operator is told of the instance's cluster: that it joined, and (once each time, not per
/// failed call) that its registry went out of reach or came back. `pairs serve --cluster` reports these.
public enum ClusterStatus: Hashable, Sendable {
    /// Joined the cluster whose registry is at `registry`, reachable by peers at `advertised`.
    case joined(registry: String, advertised: String)
    /// The registry went out of reach: games under way go on; what needs it is refused.
    case unavailable(error: String)
    /// The registry answers again, and what this instance owns was written back.
    case available

    var eventName: String {
        switch self {
        case .joined: "cluster_joined"
        case .unavailable: "cluster_unavailable"
        case .available: "cluster_available"
        }
    }

    var fields: [LogField] {
        switch self {
        case .joined(let registry, let advertised): [LogField("registry", .text(registry)), LogField("advertised", .text(advertised))]
        case .unavailable(let error): [LogField("error", .text(error))]
        case .available: []
        }
    }

    var level: LogLevel {
        if case .unavailable = self { .warning } else { .info }
    }
}

extension Server {
    /// Writes `status` to the operator's log. Safe from any thread.
    public func report(_ status: ClusterStatus) {
        log.write(status.level, .cluster(status))
    }

    /// Tells every loop that another instance took these queued quick rooms; the loop holding each keeps its
    /// seat for the player sent (the others hold none of them). Safe from any thread.
    public func clusterWaitersTaken(_ rooms: [String]) {
        for loop in group.loops { loop.enqueue(.clusterWaitersTaken(rooms)) }
    }
}
