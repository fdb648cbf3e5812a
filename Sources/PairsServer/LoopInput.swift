import PairsLobby
import PairsPolling
import PairsWire

/// Everything that reaches a loop. Each goes through `ConnectionLoop.handle`, which ends every one the
/// same way: the lobby's actions carried out, failed connections finished, the timer armed.
enum LoopInput {
    /// The epoll set has sockets ready: they are harvested (accepted, read, written) batch after batch.
    case socketsReady
    /// The loop's one timer fired: the lobby's deadlines, the welcome waits and the transport's own.
    case timerFired
    /// Work done off the loop came back: a history answer, a name check, the store's report.
    case stored(StoreGateway.Answer)
    /// Stop: goodbye to everyone, a drain of at most `shutdownDrainMilliseconds`, then `completion`.
    case shutdown(ShutdownTally?, completion: @Sendable () -> Void)
    /// Loop 0 accepted a connection and dealt it to this loop, with its id: nothing has read it yet.
    case connectionArriving(fd: Int32, address: SocketAddress, id: ConnectionID)
    /// Another loop's lobby handed a connection to this one's (`ConnectionLoop.Move`).
    case connectionMovingIn(ConnectionLoop.Move)
    /// Every loop's counters, gathered for a `stats` or an HTTP request of a connection here (or moved on).
    case statisticsGathered(ServerStatistics, for: ConnectionLoop.StatisticsRecipient)
    /// A history answer (or its timeout) for a connection that moved here after asking.
    case deliver(bytes: [UInt8], messages: Int, to: ConnectionID)
    /// The cluster answered a question this loop's lobby asked (`LobbyAction.askCluster`).
    case clusterAnswered(ClusterInquiry, ClusterAnswer)
    /// The cluster's renewal found these quick rooms of this instance taken by another (`Lobby.waitersTakenElsewhere`).
    case clusterWaitersTaken([String])
}

extension ConnectionLoop {
    /// A connection on its way from another loop: the lobby's hand-off, and the socket with its queued
    /// output, its framing and its unread input (nil when it closed on the way, with why).
    struct Move: @unchecked Sendable {
        let handOff: HandOff
        let connection: Connection?
        let cause: DisconnectCause
    }

    /// Who asked for the counters gathered from every loop.
    enum StatisticsRecipient: Sendable {
        /// A `stats` request: the answer fills the place held in the connection's output.
        case message(ConnectionID)
        /// `GET /stats` or `/metrics`.
        case http(ConnectionID, WebRoute, includingBody: Bool)
    }
}
