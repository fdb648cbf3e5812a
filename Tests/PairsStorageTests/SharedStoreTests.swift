#if Cluster
import Dispatch
@testable import PairsStorage
import PairsTestSupport
import Synchronization
import Testing

/// What only a shared store does: several servers' stores on one PostgreSQL database at once.
@Suite("Several stores on one PostgreSQL database", .enabled(if: BackEnd.postgresRequired, Comment(rawValue: BackEnd.postgresMissing ?? "")))
struct SharedStoreTests {
    @Test("two servers claiming look-alike names at the same moment: exactly one claim wins, the other is told whose name it looks like")
    func raceForLookalikesHasOneWinner() throws {
        let url = try newPostgresDatabase()
        for round in 0..<5 {
            let stores = [try PostgresStore(url: url), try PostgresStore(url: url)]
            let names = ["ann\(round)", "ANN\(round)"]
            let results = Mutex<[NameCheck?]>([nil, nil])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let result = try? stores[index].claimOrVerify(name: names[index], password: "pw")
                results.withLock { $0[index] = result }
            }
            let answers = results.withLock { $0 }
            let winners = answers.filter { $0 == .claimed }.count
            #expect(winners == 1, "\(answers)")
            if let winner = answers.firstIndex(of: .claimed) {
                #expect(answers[1 - winner] == .looksLike(claimedName: names[winner]))
            }
        }
    }

    @Test("a name claimed through one server is known as claimed by another that was already running")
    func claimThroughAnotherServerBecomesKnown() throws {
        let url = try newPostgresDatabase()
        let first = try PostgresStore(url: url)
        let second = try PostgresStore(url: url)
        #expect(second.standing(of: "zoe") == .free)
        #expect(try first.claimOrVerify(name: "zoe", password: "pw") == .claimed)
        try blockingWaitUntil("the second store to learn of the claim", within: 20) { second.standing(of: "zoe") == .claimed }
        #expect(second.standing(of: "ZOE") == .looksLike(claimedName: "zoe"))
        #expect(try second.claimOrVerify(name: "zoe", password: "pw") == .verified)
    }

    @Test("a game recorded through one server is in the history and on the ladder another server reads")
    func gamesAreSharedAtOnce() throws {
        let url = try newPostgresDatabase()
        let first = try PostgresStore(url: url)
        let second = try PostgresStore(url: url)
        #expect(try first.claimOrVerify(name: "ann", password: "a") == .claimed)
        #expect(try second.claimOrVerify(name: "ben", password: "b") == .claimed)
        try first.record(ratedGame("ann", "ben", winner: 0))
        first.flush()
        #expect(try second.history().count == 1)
        #expect(try second.leaderboard(ladder: classicRules.ladder).map(\.record.name) == ["ann", "ben"])
        #expect(try second.profile(name: "ann") == (try first.profile(name: "ann")))
    }
}
#endif

#if Cluster
@Test("a version 1 PostgreSQL database opens with today's code: games intact, ladders rebuilt from rated games, skeletons filled in",
      .enabled(if: BackEnd.postgresRequired, Comment(rawValue: BackEnd.postgresMissing ?? "")))
func postgresMigratesFromVersion1() throws {
    let url = try newPostgresDatabase()
    let connection = try PostgresConnection(url: url)
    try PostgresSchema.migrate(connection, url: url, ladders: Ladders(tau: Glicko2Rating.productionTau), upTo: 1)
    #expect(try connection.integer("SELECT version FROM pairs_schema") == 1)
    // Two claimed names and a rated game between them, as version 1 stored them.
    for name in ["ann", "ben"] {
        try connection.run("INSERT INTO names (name, password_hash, claimed_ms) VALUES ($1, $2, 0)",
                           binding: [.text(name), .text("x")])
    }
    let id = try #require(try connection.integer("""
        INSERT INTO games (room, rules, ladder, outcome, winner, ending, rated, started_ms, ended_ms, flips, deal, moves)
        VALUES ('old', $1::json, $2, 'won', 0, 'cleared', true, $3, $4, 2, '["a","a"]', '[[0,0,0,0],[500,0,0,1]]')
        RETURNING id
        """, binding: [.text(classicRules.json), .text(classicRules.ladder), .integer(sampleStart), .integer(sampleStart + 1000)]))
    for (seat, name) in ["ann", "ben"].enumerated() {
        try connection.run("INSERT INTO players (game_id, seat, name, claimed, score) VALUES ($1, $2, $3, true, $4)",
                           binding: [.int(id), .int(seat), .text(name), .int(1 - seat)])
    }

    let store = try PostgresStore(url: url)
    #expect(try connection.integer("SELECT version FROM pairs_schema") == Schema.current)
    #expect(try store.history().map(\.summary.room) == ["old"])
    let board = try store.leaderboard(ladder: classicRules.ladder)
    let winner = Glicko2Rating.initial.updated(with: [(Glicko2Rating.initial, 1)], tau: Glicko2Rating.productionTau)
    #expect(board.map(\.record.name) == ["ann", "ben"])
    #expect(board.first?.record.rating == Int(winner.rating.rounded()))
    #expect(try connection.rows("SELECT skeleton FROM names ORDER BY name") { $0.text(at: 0) } == ["ann", "ben"])
    #expect(store.standing(of: "ANN") == .looksLike(claimedName: "ann"))
}
#endif
