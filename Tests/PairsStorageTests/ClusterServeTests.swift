import Foundation
@testable import PairsStorage
import PairsTestSupport
import Testing

/// `pairs serve --data postgresql://...`, through the real binary: with the Cluster trait it serves from the
/// database or says in one line that it cannot; without it, it says that this build lacks the trait.
@Suite("pairs serve on a PostgreSQL database")
struct ClusterServeTests {
    /// Bounds a start or a stop that fails: a busy machine takes seconds.
    static let exitSeconds: TimeInterval = 30

    #if Cluster
    @Test("a PostgreSQL that cannot be reached stops pairs serve at start, in one line naming it, with status 1")
    func unreachableDatabaseStopsTheServer() throws {
        // Port 1 on the loopback: nothing listens there, so the connection is refused at once.
        let url = "postgresql://pairs:secret@127.0.0.1:1/pairs"
        let serve = try Subprocess(try Tools.pairs(), ["serve", "--port", "0", "--data", url])
        #expect(try serve.blockingWaitForExit(within: Self.exitSeconds) == 1)
        let lines = serve.errorText.split(separator: "\n")
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("pairs serve: postgresql://pairs@127.0.0.1:1/pairs cannot be reached: ") == true)
        #expect(!serve.errorText.contains("secret"), "the password is never shown")
    }

    @Test("pairs serve keeps its games in the PostgreSQL database --data names, and stops cleanly",
          .enabled(if: BackEnd.postgresRequired, Comment(rawValue: BackEnd.postgresMissing ?? "")))
    func servesFromPostgres() throws {
        let url = try newPostgresDatabase()
        let serve = try Subprocess(try Tools.pairs(), ["serve", "--port", "0", "--data", url])
        try serve.blockingWaitForLine(within: Self.exitSeconds, "the listening line") { $0.contains("listening on") }
        // The server migrated the database at start: its tables are there, at the current version.
        let version = try PostgresConnection(url: url).integer("SELECT version FROM pairs_schema")
        #expect(version == Schema.current)
        serve.send(SIGTERM)
        #expect(try serve.blockingWaitForExit(within: Self.exitSeconds) == 0)
    }
    #else
    @Test("without the Cluster trait, --data postgresql:// is refused in one line naming the trait, with status 1")
    func postgresNeedsTheTrait() throws {
        let serve = try Subprocess(try Tools.pairs(), ["serve", "--port", "0", "--data", "postgresql://pairs@127.0.0.1:1/pairs"])
        #expect(try serve.blockingWaitForExit(within: Self.exitSeconds) == 1)
        let lines = serve.errorText.split(separator: "\n")
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains("built without the Cluster trait") == true)
    }
    #endif
}
