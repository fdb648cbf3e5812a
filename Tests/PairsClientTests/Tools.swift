import Foundation
import PairsTestSupport

extension Tools {
    /// The repository's `clients/` directory, found from this source file.
    static var clientsDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent() // PairsClientTests
            .deletingLastPathComponent() // Tests
            .deletingLastPathComponent() // the package
            .appendingPathComponent("clients")
    }
}
