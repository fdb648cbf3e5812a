import Foundation
@testable import PairsStorage
import PairsTestSupport
import Synchronization
import Testing

/// The engines the store runs on: the store's tests that go through `PairsStore` run on each.
enum BackEnd: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }

    /// Why the PostgreSQL variants cannot run in this build or on this machine, or nil when they can.
    static let postgresMissing: String? = {
        #if Cluster
        return PostgresServer.binDirectory() == nil ? PostgresServer.missingReason : nil
        #else
        return "this build lacks the Cluster trait that brings libpq (swift build --traits Cluster)"
        #endif
    }()

    /// The back ends this run tests: SQLite always; PostgreSQL in a build with the Cluster trait where it is
    /// installed, or where CI requires it (`PAIRS_REQUIRE_TOOLS=1`), so that a missing server fails there.
    static let tested: [BackEnd] = {
        #if Cluster
        return postgresRequired ? [.sqlite, .postgres] : [.sqlite]
        #else
        return [.sqlite]
        #endif
    }()
}

#if Cluster
/// The PostgreSQL server the tests of this process share, each on a database of its own: started on first
/// use, stopped (`pg_ctl stop -m immediate`) and removed when the process exits.
private let sharedPostgres: Result<PostgresServer, any Error> = {
    let result = Result { try PostgresServer() }
    atexit { if case .success(let server) = sharedPostgres { server.stop() } }
    return result
}()

/// Numbers the tests' databases.
private let databaseCount = Atomic<Int>(0)

/// A new, empty database on the shared server: its URL.
func newPostgresDatabase() throws -> String {
    let server = try sharedPostgres.get()
    let name = "pairs_\(getpid())_\(databaseCount.add(1, ordering: .relaxed).newValue)"
    let admin = try PostgresConnection(url: server.url())
    // A name of our own making, not a value: CREATE DATABASE takes no parameters.
    try admin.execute("CREATE DATABASE \(name)")
    return server.url(database: name)
}
#endif

/// A store on a new database of `backEnd`, with what it reports, and the means to open it again and to look
/// at it from outside, as another program would.
struct BackEndFixture {
    let backEnd: BackEnd
    /// The SQLite file's path or the PostgreSQL database's URL.
    let location: String
    let log = FailureLog()
    let store: any PairsStore
    private let directory: TemporaryDirectory?

    init(_ backEnd: BackEnd, retention: Retention = .keepingEverything) throws {
        self.backEnd = backEnd
        (location, directory) = try Self.newLocation(backEnd)
        store = try Self.open(backEnd, location, retention: retention, log: log)
    }

    /// Where a new, empty database of `backEnd` is: an SQLite file's path in `directory`, which must live as
    /// long as it is used, or a new PostgreSQL database's URL.
    static func newLocation(_ backEnd: BackEnd) throws -> (location: String, directory: TemporaryDirectory?) {
        switch backEnd {
        case .sqlite:
            let directory = try TemporaryDirectory()
            return (directory.database, directory)
        case .postgres:
            #if Cluster
            return (try newPostgresDatabase(), nil)
            #else
            throw Tools.Missing(description: BackEnd.postgresMissing ?? "")
            #endif
        }
    }

    /// A store of `backEnd` on `location`.
    static func open(
        _ backEnd: BackEnd, _ location: String, retention: Retention = .keepingEverything, log: FailureLog = FailureLog()
    ) throws -> any PairsStore {
        switch backEnd {
        case .sqlite:
            return try GameStore(path: location, retention: retention) { log.append($0) }
        case .postgres:
            #if Cluster
            return try PostgresStore(url: location, retention: retention) { log.append($0) }
            #else
            throw Tools.Missing(description: BackEnd.postgresMissing ?? "")
            #endif
        }
    }

    /// Hands `games` to the store and waits until they are committed.
    func record(_ games: [GameRecord]) throws {
        for game in games { try store.record(game) }
        store.flush()
    }

    /// Prunes what the retention policy no longer keeps at `now`, and returns when done.
    func prune(now: WallClockTime) {
        if let store = store as? GameStore { store.prune(now: now) }
        #if Cluster
        if let store = store as? PostgresStore { store.prune(now: now) }
        #endif
    }

    /// The rows `sql` returns, read through a connection of the test's own, each row's columns as text
    /// joined by `=`.
    func outsideRows(_ sql: String) throws -> [String] {
        switch backEnd {
        case .sqlite:
            let connection = try outsideConnection(location)
            return try connection.rows(sql) { row in
                (0..<row.columnCount).map { row.text(at: $0) }.joined(separator: "=")
            }
        case .postgres:
            #if Cluster
            return try PostgresConnection(url: location).rows(sql) { row in
                (0..<row.columnCount).map { row.text(at: $0) }.joined(separator: "=")
            }
            #else
            throw Tools.Missing(description: BackEnd.postgresMissing ?? "")
            #endif
        }
    }

    /// Runs `sql`, which changes the database, through a connection of the test's own.
    func outsideExecute(_ sql: String) throws {
        switch backEnd {
        case .sqlite: try outsideConnection(location, .readWrite).execute(sql)
        case .postgres:
            #if Cluster
            try PostgresConnection(url: location).execute(sql)
            #else
            throw Tools.Missing(description: BackEnd.postgresMissing ?? "")
            #endif
        }
    }
}

/// Says, where the PostgreSQL variants cannot run, why: a parameterized test cannot skip one argument.
@Test("the store's tests that go through PairsStore run against PostgreSQL as well as SQLite",
      .enabled(if: BackEnd.postgresRequired, Comment(rawValue: BackEnd.postgresMissing ?? "")))
func postgresVariantsRun() throws {
    #expect(BackEnd.tested == [.sqlite, .postgres])
    #if Cluster
    // The shared server answers: the variants ran against a real PostgreSQL, not a stand-in.
    let url = try newPostgresDatabase()
    #expect(try PostgresConnection(url: url).integer("SELECT 1") == 1)
    #endif
}

extension BackEnd {
    /// Whether this run must test PostgreSQL: it can, or CI requires it of a build with the Cluster trait.
    static var postgresRequired: Bool {
        #if Cluster
        return postgresMissing == nil || Tools.isRequiringTools
        #else
        return false
        #endif
    }
}
