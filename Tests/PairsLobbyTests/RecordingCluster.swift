import PairsLobby
import Testing

/// A cluster that answers nothing by itself (the harness's `answerCluster` does) and records what the
/// lobby tells it: the cluster tests' stand-in for Redis.
final class RecordingCluster: LobbyCluster, @unchecked Sendable {
    // @unchecked: the harness runs on the test's thread only.
    let instanceTag = "a1b2c3"
    private(set) var changes: [ClusterChange] = []

    func ask(_ question: ClusterQuestion, answer: @escaping @Sendable (ClusterAnswer) -> Void) {
        Issue.record("the lobby asks through its actions (askCluster), not the cluster directly")
    }

    func note(_ change: ClusterChange) {
        changes.append(change)
    }
}
