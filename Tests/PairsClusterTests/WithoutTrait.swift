#if !Cluster
import Testing

/// Without the `Cluster` trait there is no cluster code to test: say so among the skipped tests, rather than
/// leave the suite silently empty.
@Suite("The cluster registry")
struct ClusterRegistryWithoutTrait {
    @Test("needs a build with the Cluster trait", .disabled("built without the Cluster trait: swift test --traits Cluster --filter PairsClusterTests"))
    func needsTheClusterTrait() {}
}
#endif
